// Quality cases for `unsupported-value` (issue 9 §5): answer values a careful reader checks against
// the tool results — canonical forms of dates, times, percents and phones, rounding, units and
// arithmetic that are grounded, and wrong values that are not.

import type { CaseSpec } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ORDER_SYSTEM, declarations, declare, offer } from './common.js';

const VOLUMES = { machine_id: 'srv-db-04', volumes: [{ volume: 'vol-db-04a', size_gb: 1840, peak_iops: 38200 }, { volume: 'vol-db-04b', size_gb: 920, peak_iops: 12750 }] };

const backupBase = {
  system: BACKUP_SYSTEM,
  tools: offer('list_machines', 'volume_stats', 'backup_status'),
  declarations: declarations([declare('list_machines'), declare('volume_stats', { argumentsFrom: ['list_machines'], rowsAt: 'volumes' }), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
};

export const VALUE_CASES: CaseSpec[] = [
  {
    name: 'uv-defect-wrong-number',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a number no result holds (41,200 IOPS where 38,200 was served)',
    kind: 'defect',
    note: 'The peak the answer states was never served; every other value is.',
    expect: [{ check: 'unsupported-value', value: '41,200' }],
    ...backupBase,
    turns: [
      {
        user: 'How busy are the volumes of srv-db-04?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: VOLUMES }] },
        ],
        answer: 'vol-db-04a (1,840 GB) peaked at 41,200 IOPS; vol-db-04b (920 GB) peaked at 12,750 IOPS.',
      },
    ],
  },
  {
    name: 'uv-defect-written-date-off-by-one',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a written date ("Nov 29, 2026") that is not the served date (2026-11-28)',
    kind: 'defect',
    note: 'The year 2026 is served, so a token-only reader lets the date pass; a reader of dates sees 2026-11-29, which nothing served.',
    expect: [{ check: 'unsupported-value' }],
    ...backupBase,
    turns: [
      {
        user: 'When did srv-db-04 last back up successfully?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-28T02:00:00Z', state: 'failed' }] }] },
        ],
        answer: 'The last successful backup of srv-db-04 was on Nov 29, 2026; the run since then failed.',
      },
    ],
  },
  {
    name: 'uv-defect-wrong-percent',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a percentage (99.5%) that is not the served ratio (0.9995)',
    kind: 'defect',
    note: 'The SLA report served 0.9995; 99.5% is ten times more downtime. 99.95% would have been right.',
    expect: [{ check: 'unsupported-value' }],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'What was the backup success rate of srv-db-04 this quarter?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', quarter: '2026-Q4', success_ratio: 0.9995, runs: 2184 }] }] },
        ],
        answer: 'srv-db-04 succeeded in 99.5% of its 2,184 runs in 2026-Q4.',
      },
    ],
  },
  {
    name: 'uv-clean-us-and-written-dates',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'US (11/30/2026) and written ("30 November") forms of a served ISO date, "2:00 AM" for 02:00',
    kind: 'clean',
    note: 'The answer restates the served 2026-11-30T02:00:00Z in the forms people read.',
    expect: [],
    ...backupBase,
    turns: [
      {
        user: 'When did srv-db-04 last back up?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] },
        ],
        answer: 'srv-db-04 last backed up on 11/30/2026 at 2:00 AM UTC (30 November, the nightly run), and it succeeded.',
      },
    ],
  },
  {
    name: 'uv-clean-percent-of-ratio',
    shape: 'vercel',
    check: 'unsupported-value',
    class: '99.95% meets the served ratio 0.9995',
    kind: 'clean',
    note: 'A percentage is the ratio × 100; the run count is served as is.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'What was the backup success rate of srv-db-04 this quarter?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', quarter: '2026-Q4', success_ratio: 0.9995, runs: 2184 }] }] },
        ],
        answer: 'srv-db-04 succeeded in 99.95% of its 2,184 runs in 2026-Q4.',
      },
    ],
  },
  {
    name: 'uv-clean-sum-of-served',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a total that is the sum of served numbers (1,840 + 920 = 2,760) is grounded as `derived`',
    kind: 'clean',
    note: 'Adding the two served volume sizes is exactly what the user asked for.',
    expect: [],
    acceptable: [{ check: 'unsupported-value', advisory: true }],
    ...backupBase,
    turns: [
      {
        user: 'How much storage do the volumes of srv-db-04 take in total?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: VOLUMES }] },
        ],
        answer: 'srv-db-04 has 2,760 GB across vol-db-04a (1,840 GB) and vol-db-04b (920 GB).',
      },
    ],
  },
  {
    name: 'uv-clean-cents-as-dollars',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a unit factor of 100 (amount_cents 129900 stated as $1,299.00)',
    kind: 'clean',
    note: 'The order API serves cents; the answer states dollars.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('get_order'),
    declarations: declarations([declare('get_order')]),
    turns: [
      {
        user: 'How much was order A-3317?',
        steps: [{ calls: [{ name: 'get_order', args: { order_id: 'A-3317' }, result: { order_id: 'A-3317', amount_cents: 129900, currency: 'USD', lines: 3 } }] }],
        answer: 'Order A-3317 came to $1,299.00 for 3 lines.',
      },
    ],
  },
];
