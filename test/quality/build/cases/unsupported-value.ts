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
  {
    name: 'uv-defect-entity-swapped',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'an id the answer names that no result served (srv-db-05 for srv-db-04)',
    kind: 'defect',
    note: 'The model wrote the neighbouring machine id; nothing in the window holds srv-db-05.',
    expect: [{ check: 'unsupported-value', value: 'srv-db-05' }],
    ...backupBase,
    turns: [
      {
        user: 'Which machine is the database server, and is it backed up?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] },
        ],
        answer: 'The database server is srv-db-05; its last backup succeeded at 2026-11-30T02:00:00Z.',
      },
    ],
  },
  {
    name: 'uv-defect-wrong-sum',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a total that is no sum, difference, product or ratio of served numbers',
    kind: 'defect',
    note: 'The volumes are 1,840 GB and 920 GB; 4,800 GB is no arithmetic of served numbers.',
    expect: [{ check: 'unsupported-value', value: '4,800' }],
    ...backupBase,
    turns: [
      {
        user: 'How much storage do the volumes of srv-db-04 take in total?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: VOLUMES }] },
        ],
        answer: 'srv-db-04 has 4,800 GB across vol-db-04a and vol-db-04b.',
      },
    ],
  },
  {
    name: 'uv-defect-wrong-time',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a time of day (3:00 AM) that is not the served 02:00',
    kind: 'defect',
    note: 'The backup ran at 02:00 UTC; 3:00 AM is an hour off (a time-zone slip).',
    expect: [{ check: 'unsupported-value' }],
    ...backupBase,
    turns: [
      {
        user: 'When did srv-db-04 last back up?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] },
        ],
        answer: 'srv-db-04 last backed up successfully today at 3:00 AM UTC.',
      },
    ],
  },
  {
    name: 'uv-defect-rounded-wrong',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'an "about" figure that the served value does not round to (38,200 is not about 39,000)',
    kind: 'defect',
    note: 'Rounding to thousands gives 38,000; 39,000 is a different number dressed as an approximation.',
    expect: [{ check: 'unsupported-value', value: '39,000' }],
    ...backupBase,
    turns: [
      {
        user: 'Roughly how busy is the main volume of srv-db-04?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: VOLUMES }] },
        ],
        answer: 'vol-db-04a peaks at about 39,000 IOPS.',
      },
    ],
  },
  {
    name: 'uv-clean-rounded-about',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'figures rounded to their stated precision ("about 38,000" for 38,200, "roughly 1,800" for 1,840)',
    kind: 'clean',
    note: 'People round; both figures round the served values correctly.',
    expect: [],
    ...backupBase,
    turns: [
      {
        user: 'Roughly how big and busy is the main volume of srv-db-04?',
        steps: [
          { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
          { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: VOLUMES }] },
        ],
        answer: 'vol-db-04a holds roughly 1,800 GB and peaks at about 38,000 IOPS.',
      },
    ],
  },
  {
    name: 'uv-clean-bytes-as-mib',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a unit factor of 1024² (2684354560 bytes stated as 2,560 MiB)',
    kind: 'clean',
    note: 'The API serves bytes; the answer states mebibytes exactly.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('restore_points'),
    declarations: declarations([declare('restore_points')]),
    turns: [
      {
        user: 'How large is the latest restore point of srv-db-04?',
        steps: [{ calls: [{ name: 'restore_points', args: { machine_id: 'srv-db-04' }, result: [{ point: 'rp-20261130', size_bytes: 2684354560, created: '2026-11-30T02:00:00Z' }] }] }],
        answer: 'rp-20261130 is 2,560 MiB.',
      },
    ],
  },
  {
    name: 'uv-clean-earlier-user-value',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a value the user gave in an earlier turn is exempt like this turn\'s',
    kind: 'clean',
    note: 'The user quoted ticket INC-20931 in turn 1; the turn-2 answer refers back to it.',
    expect: [],
    system: BACKUP_SYSTEM,
    memory: 'dialogue',
    tools: offer('list_machines', 'backup_status'),
    declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
    turns: [
      {
        user: 'I am working on ticket INC-20931 about srv-db-04. Is its backup ok?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] }],
        answer: 'Yes, srv-db-04 last backed up successfully at 2026-11-30T02:00:00Z.',
      },
      {
        user: 'And srv-web-11?',
        steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'srv-web-11' }, result: [{ machine_id: 'srv-web-11', last_success: '2026-11-29T02:00:00Z', state: 'ok' }] }] }],
        answer: 'srv-web-11 last backed up at 2026-11-29T02:00:00Z; you can add both to INC-20931.',
      },
    ],
  },
  {
    name: 'uv-clean-phone-and-european-date',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a phone number by its digits and a European date (30.11.2026)',
    kind: 'clean',
    note: 'The customer record serves "+1 (415) 555-0132" and 2026-11-30; the answer writes 415-555-0132 and 30.11.2026.',
    expect: [],
    system: ORDER_SYSTEM,
    tools: offer('find_customer'),
    declarations: declarations([declare('find_customer')]),
    turns: [
      {
        user: 'How do I reach Dana Whitfield, and since when is she a customer?',
        steps: [{ calls: [{ name: 'find_customer', args: { query: 'Dana Whitfield' }, result: [{ customer_id: 51877, name: 'Dana Whitfield', phone: '+1 (415) 555-0132', since: '2026-11-30' }] }] }],
        answer: 'Call Dana Whitfield at 415-555-0132; she has been a customer since 30.11.2026.',
      },
    ],
  },
];
