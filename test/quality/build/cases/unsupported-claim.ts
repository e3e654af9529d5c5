// Quality cases for `unsupported-claim` (issue 9 §6): structured answers read where models put
// them (a Markdown code fence), compared case-insensitively unless declared exact.

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, declarations, declare, offer } from './common.js';

const summary = (protectedJobs: number, status: string) => ({
  af_semantics: true,
  facts: [{ entity: 'srv-db-04', protected_jobs: protectedJobs, status, protected: true }],
  provenance: { measured_at: '2026-11-30T02:00:00Z', source: 'backup API' },
});

const base = {
  system: `${BACKUP_SYSTEM} Reply with a JSON object {machine, protected_jobs, status}.`,
  tools: offer('list_machines', 'protection_summary'),
  declarations: declarations([declare('list_machines'), declare('protection_summary', { argumentsFrom: ['list_machines'] })], {
    claims: { protected_jobs: { entity: 'srv-db-04', field: 'protected_jobs' }, status: { entity: 'srv-db-04', field: 'status' } },
  }),
};

const steps = (jobs: number, status: string) => [
  { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
  { calls: [{ name: 'protection_summary', args: { machine_id: 'srv-db-04' }, result: summary(jobs, status) }] },
];

export const CLAIM_CASES: CaseSpec[] = [
  {
    name: 'uc-defect-plain-json-contradiction',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'a plain JSON answer whose field contradicts the settled fact',
    kind: 'defect',
    note: 'protection_summary settled protected_jobs = 2; the answer claims 3.',
    expect: [{ check: 'unsupported-claim', value: '3' }],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: '{"machine": "srv-db-04", "protected_jobs": 3, "status": "ok"}' }],
  },
  {
    name: 'uc-defect-json-in-code-fence',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'a JSON answer inside a Markdown code fence is read, and its contradiction reported',
    kind: 'defect',
    note: 'Models wrap JSON in ```json fences; the status "failed" contradicts the settled "ok".',
    expect: [{ check: 'unsupported-claim', value: 'failed' }],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: 'Here is the summary:\n\n```json\n{"machine": "srv-db-04", "protected_jobs": 2, "status": "failed"}\n```' }],
  },
  {
    name: 'uc-clean-case-differs',
    shape: 'otel-logs',
    check: 'unsupported-claim',
    class: 'strings compared case-insensitively ("OK" meets "ok")',
    kind: 'clean',
    note: 'The answer capitalises the status; nothing is contradicted.',
    expect: [],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: '{"machine": "srv-db-04", "protected_jobs": 2, "status": "OK"}' }],
  },
  {
    name: 'uc-clean-fenced-agrees',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'a fenced JSON answer that agrees with every settled fact',
    kind: 'clean',
    note: 'Same values as served; "2" as a string meets 2.',
    expect: [],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: '```json\n{"machine": "srv-db-04", "protected_jobs": "2", "status": "ok"}\n```' }],
  },
];
