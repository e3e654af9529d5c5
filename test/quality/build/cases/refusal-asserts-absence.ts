// Quality cases for `refusal-asserts-absence` (issue 9 §2, §3): absence said the way models say it
// after a refused read, and the legitimate answers around refusals that must stay silent.

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ONCALL_SYSTEM, ORDER_SYSTEM, declarations, declare, offer } from './common.js';

const DENIED = { type: 'PermissionDenied', message: 'permission denied for tenant acme' };

export const REFUSAL_CASES: CaseSpec[] = [
  {
    name: 'raa-defect-has-no-after-denied',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'absence phrased "X has no …" after a permission-denied read',
    kind: 'defect',
    note: 'backup_jobs was refused (span ERROR, denied envelope); "srv-db-04 has no backup jobs" turns a refusal into a fact the run never saw.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'backup_jobs' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Does srv-db-04 have any backup jobs?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04' }, result: { status: 'denied', error: 'permission denied for tenant acme' }, error: DENIED }] },
        ],
        answer: 'srv-db-04 has no backup jobs configured, so it is not protected right now.',
      },
    ],
  },
  {
    name: 'raa-defect-there-arent-any-403-envelope',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'absence phrased "there aren\'t any …" after an HTTP 403 error envelope (no span error)',
    kind: 'defect',
    note: 'The tool returned {"error":{"code":403,…}} as data and the span is OK; the envelope has no entity data, so it is a refusal, and "there aren\'t any" claims what it could not see.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'backup_history' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_history'),
    declarations: declarations([declare('list_machines'), declare('backup_history', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Were there failed backups on srv-db-04 since 2026-11-23?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_history', args: { machine_id: 'srv-db-04', since: '2026-11-23' }, result: { error: { code: 403, message: 'Forbidden: token lacks scope backups:read' } } }] },
        ],
        answer: "Good news: there aren't any failed backups for srv-db-04 since 2026-11-23.",
      },
    ],
  },
  {
    name: 'raa-defect-none-were-found-rate-limit',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: 'absence phrased "none were found" after a rate-limited read (text "429 Too Many Requests")',
    kind: 'defect',
    note: 'A rate-limit text result is a refusal by the issue\'s definition; "none were found" asserts a search that never ran.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_incidents' }],
    system: ONCALL_SYSTEM,
    tools: offer('list_incidents', 'get_runbook'),
    declarations: declarations([declare('list_incidents'), declare('get_runbook')]),
    turns: [
      {
        user: 'Any open incidents on the payments-api service?',
        steps: [{ calls: [{ name: 'list_incidents', args: { service: 'payments-api' }, result: '429 Too Many Requests: rate limit exceeded, retry after 30s' }] }],
        answer: 'I checked payments-api for open incidents and none were found. The service looks healthy.',
      },
    ],
  },
  {
    name: 'raa-defect-i-found-no-graphql-errors',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'absence phrased "I found no …" after a GraphQL `data: null` with `errors[]`',
    kind: 'defect',
    note: 'GraphQL reports failure as data:null plus errors[]; the answer reads it as an empty result.',
    expect: [{ check: 'refusal-asserts-absence', tool: 'list_incidents' }],
    system: ONCALL_SYSTEM,
    tools: offer('list_incidents'),
    declarations: declarations([declare('list_incidents')]),
    turns: [
      {
        user: 'Is anything open against checkout-web?',
        steps: [
          {
            calls: [
              {
                name: 'list_incidents',
                args: { service: 'checkout-web' },
                result: { data: null, errors: [{ message: 'Not authorized to access field incidents', extensions: { code: 'UNAUTHORIZED' } }] },
              },
            ],
          },
        ],
        answer: 'I found no open incidents for checkout-web.',
      },
    ],
  },
  {
    name: 'raa-clean-admits-failure',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'refused read reported honestly ("couldn\'t access … so I can\'t say")',
    kind: 'clean',
    note: 'The answer says the lookup failed; the clause with "no" also admits the failure. A reviewer wants silence here. (since=2026-11-23 is "this week" counted from the served today.)',
    expect: [],
    acceptable: [{ check: 'unsupported-argument', tool: 'backup_history', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_history'),
    declarations: declarations([declare('list_machines'), declare('backup_history', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Any failed backups on srv-db-04 this week?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_history', args: { machine_id: 'srv-db-04', since: '2026-11-23' }, result: { status: 'denied', error: 'permission denied for tenant acme' }, error: DENIED }] },
        ],
        answer: "I couldn't access the backup history of srv-db-04 (permission denied), so I have no way to tell whether any runs failed. Please ask an admin to grant read access.",
      },
    ],
  },
  {
    name: 'raa-clean-not-found-is-absence',
    shape: 'vercel',
    check: 'refusal-asserts-absence',
    class: 'a 404 not-found result is the tool establishing absence, not a refusal',
    kind: 'clean',
    note: 'get_order answered {"error":"not_found","status":404}: the tool looked and the order is not there, so "doesn\'t exist" is what the run established.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('get_order'),
    declarations: declarations([declare('get_order')]),
    turns: [
      {
        user: 'What is in order A-1042?',
        steps: [{ calls: [{ name: 'get_order', args: { order_id: 'A-1042' }, result: { error: 'not_found', status: 404, message: 'order A-1042 not found' } }] }],
        answer: 'Order A-1042 does not exist in our system. Could you double-check the number?',
      },
    ],
  },
  {
    name: 'raa-clean-status-failed-is-data',
    shape: 'otel-logs',
    check: 'refusal-asserts-absence',
    class: '`status: "failed"` beside entity fields is data, not a refused read',
    kind: 'clean',
    note: 'backup_status served a record whose status is "failed"; the read succeeded and "there is no successful backup since" is supported by it.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'How is the nightly backup of srv-db-04 doing?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: { machine_id: 'srv-db-04', job: 'nightly-db-primary-full', status: 'failed', last_success: '2026-11-28T02:00:00Z' } }] },
        ],
        answer: 'The nightly-db-primary-full job on srv-db-04 failed last night; there is no successful backup since 2026-11-28.',
      },
    ],
  },
  {
    name: 'raa-clean-retry-supersedes-timeout',
    shape: 'traceloop',
    check: 'refusal-asserts-absence',
    class: 'a later successful read with the same arguments supersedes an earlier timeout',
    kind: 'clean',
    note: 'The first backup_jobs call timed out, the retry with the same arguments returned []. "There are no failed jobs" rests on the retry.',
    expect: [],
    acceptable: [{ check: 'empty-lookup', tool: 'backup_jobs', advisory: true }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_jobs'),
    declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'Does srv-db-04 have failed backup jobs?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04', statuses: ['failed'] }, result: 'Error: request timed out after 30s', error: { type: 'TimeoutError', message: 'request timed out after 30s' } }] },
          { calls: [{ name: 'backup_jobs', args: { machine_id: 'srv-db-04', statuses: ['failed'] }, result: [] }] },
        ],
        answer: 'There are no failed jobs on srv-db-04 right now.',
      },
    ],
  },
];
