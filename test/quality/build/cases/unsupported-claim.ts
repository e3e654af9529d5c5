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
  {
    name: 'uc-defect-stale-settled-fact',
    shape: 'otel-logs',
    check: 'unsupported-claim',
    class: 'the answer claims an earlier row\'s value; the last row settled another',
    kind: 'defect',
    note: 'protection_summary was read twice; the second read says status "failed", the answer keeps the first read\'s "ok".',
    expect: [{ check: 'unsupported-claim', value: 'ok' }],
    ...base,
    turns: [
      {
        user: 'Summarise the protection of srv-db-04, and re-check it after the nightly run.',
        steps: [...steps(2, 'ok'), { calls: [{ name: 'protection_summary', args: { machine_id: 'srv-db-04' }, result: { ...summary(2, 'failed'), provenance: { measured_at: '2026-11-30T03:00:00Z', source: 'backup API' } } }] }],
        answer: '{"machine": "srv-db-04", "protected_jobs": 2, "status": "ok"}',
      },
    ],
  },
  {
    name: 'uc-defect-claims-unknown',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'a claimed "unknown" against a settled value (advisory doubt)',
    kind: 'defect',
    note: 'The run verified protected_jobs = 2; the answer declines to state it. A place to look, advisory.',
    expect: [{ check: 'unsupported-claim', advisory: true }],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: '{"machine": "srv-db-04", "protected_jobs": "unknown", "status": "ok"}' }],
  },
  {
    name: 'uc-defect-bare-fence',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'a JSON answer in a bare ``` fence (no language tag) with prose around it',
    kind: 'defect',
    note: 'protected_jobs 1 contradicts the settled 2.',
    expect: [{ check: 'unsupported-claim', value: '1' }],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: 'Summary for srv-db-04:\n```\n{"machine": "srv-db-04", "protected_jobs": 1, "status": "ok"}\n```\nLet me know if you need the job names.' }],
  },
  {
    name: 'uc-clean-latest-fact-claimed',
    shape: 'traceloop',
    check: 'unsupported-claim',
    class: 'the answer claims the last (settling) row, not an earlier one',
    kind: 'clean',
    note: 'The first read said failed, the re-check says ok; the answer says ok.',
    expect: [],
    ...base,
    turns: [
      {
        user: 'Summarise the protection of srv-db-04, and re-check it after the retry.',
        steps: [...steps(2, 'failed'), { calls: [{ name: 'protection_summary', args: { machine_id: 'srv-db-04' }, result: { ...summary(2, 'ok'), provenance: { measured_at: '2026-11-30T03:00:00Z', source: 'backup API' } } }] }],
        answer: '{"machine": "srv-db-04", "protected_jobs": 2, "status": "ok"}',
      },
    ],
  },
  {
    name: 'uc-clean-field-left-out',
    shape: 'vercel',
    check: 'unsupported-claim',
    class: 'a structured answer that leaves a declared field out',
    kind: 'clean',
    note: 'Not stating protected_jobs is not a contradiction.',
    expect: [],
    ...base,
    turns: [{ user: 'Is srv-db-04 ok?', steps: steps(2, 'ok'), answer: '```json\n{"machine": "srv-db-04", "status": "ok"}\n```' }],
  },
  {
    name: 'uc-clean-prose-around-fence',
    shape: 'otel-logs',
    check: 'unsupported-claim',
    class: 'prose around a correct fenced JSON answer mentions other words ("failed" last week)',
    kind: 'clean',
    note: 'Only the JSON is a claim; the prose about last week is not judged as a claim.',
    expect: [],
    ...base,
    turns: [{ user: 'Summarise the protection of srv-db-04.', steps: steps(2, 'ok'), answer: 'It recovered from last week, when a run failed.\n```json\n{"machine": "srv-db-04", "protected_jobs": 2, "status": "ok"}\n```' }],
  },
];
