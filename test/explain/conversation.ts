// A three-turn conversation built with the quality corpus's own writer (test/quality/build): turn 1
// answers from a lookup (clean), turn 2 states a storage figure no result holds (unsupported-value),
// turn 3 looks up a cut-down machine id (unsupported-argument, fragment). Written as one trace per
// turn (the recorded layout) and, rewritten, as ONE trace holding all three turns (an app that
// keeps a session in one trace). Used by the account, page and browser tests.
import { renderCase } from '../quality/build/render.js';
import type { CaseSpec } from '../quality/build/spec.js';
import { BACKUP_SYSTEM, MACHINES, declarations, declare, offer } from '../quality/build/cases/common.js';
import { decodeOtlpJsonText, type DecodedDocument } from '../../src/otlp/json.js';
import { parseDeclarationsText } from '../../src/declarations/load.js';
import type { Declarations } from '../../src/declarations/types.js';

export const THREE_TURNS: CaseSpec = {
  name: 'explain-three-turns',
  shape: 'otel-logs',
  check: 'unsupported-argument',
  class: 'explain page: three turns, two findings',
  kind: 'defect',
  note: 'Turn 1 clean; turn 2 states 1,512 GB where storage_usage served 1412; turn 3 calls backup_status with db-04, a part of srv-db-04.',
  expect: [],
  system: BACKUP_SYSTEM,
  tools: offer('list_machines', 'storage_usage', 'backup_status'),
  declarations: declarations([declare('list_machines'), declare('storage_usage'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
  turns: [
    {
      user: 'Which of our machines are protected by a backup plan?',
      steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
      answer: 'srv-db-04 (db-primary) is protected; srv-web-11 (web-edge) is not.',
    },
    {
      user: 'How much storage does srv-db-04 use?',
      steps: [{ calls: [{ name: 'storage_usage', args: { customer: 'acme' }, result: [{ machine_id: 'srv-db-04', used_gb: 1412 }, { machine_id: 'srv-web-11', used_gb: 37 }] }] }],
      answer: 'srv-db-04 uses 1,512 GB of backup storage.',
    },
    {
      user: "What's the backup status of srv-db-04?",
      steps: [{ calls: [{ name: 'backup_status', args: { machine_id: 'db-04' }, result: [{ machine_id: 'db-04', status: 'unknown', last_backup: null }] }] }],
      answer: 'There is no backup on record for srv-db-04: its status is unknown.',
    },
  ],
};

export interface Conversation {
  doc: DecodedDocument;
  declarations: Declarations;
  /** Trace ids in turn order (three, or one when `oneTrace`). */
  traceIds: string[];
  files: Record<string, string>;
}

/** The conversation decoded; `oneTrace` rewrites every trace id to the first turn's. */
export function threeTurns(o: { oneTrace?: boolean } = {}): Conversation {
  const files = renderCase(THREE_TURNS);
  let trace = files['trace.otlp.json']!;
  let logs = files['logs.otlp.json']!;
  const ids = [...new Set([...trace.matchAll(/"traceId": "([0-9a-f]{32})"/g)].map((m) => m[1]!))];
  if (o.oneTrace) {
    for (const id of ids.slice(1)) {
      trace = trace.split(id).join(ids[0]!);
      logs = logs.split(id).join(ids[0]!);
    }
  }
  let doc: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  doc = decodeOtlpJsonText(trace, 'trace.otlp.json', doc);
  doc = decodeOtlpJsonText(logs, 'logs.otlp.json', doc);
  return { doc, declarations: declarationsOf(files['declarations.yaml']!), traceIds: o.oneTrace ? ids.slice(0, 1) : ids, files: { ...files, 'trace.otlp.json': trace, 'logs.otlp.json': logs } };
}

function declarationsOf(text: string): Declarations {
  const r = parseDeclarationsText(text, 'declarations.yaml');
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.declarations;
}
