// More quality cases for issue 9 §5 and §6, for rules the first corpus lacked: phones by digits,
// hedged rounding, a value the user gave in an earlier turn (the window no longer holds it), a
// wrong clock time, a total that does not add up, a wrong phone, and `rowsAt` as a JSON pointer;
// decimal-comma amounts (`4.850,00 €`) read as one number against served JSON numbers.
// Data only; expectations come from the rules, never from what the checks do today.

import type { CaseSpec, ToolDefinition } from '../spec.js';
import { BACKUP_SYSTEM, MACHINES, ORDER_SYSTEM, declarations, declare, offer } from './common.js';

const VOLUMES = { machine_id: 'srv-db-04', volumes: [{ volume: 'vol-db-04a', size_gb: 1840, peak_iops: 38200 }, { volume: 'vol-db-04b', size_gb: 920, peak_iops: 12750 }] };
const CUSTOMER = { customer_id: 40213, name: 'Dana Whitfield', email: 'dana.whitfield@example.com', phone: '+14155550132' };

const SUPPLIER_SYSTEM = 'Sie sind der Einkaufsassistent der Brenner Maschinenbau GmbH. Antworten Sie nur aus Werkzeugergebnissen, Beträge im deutschen Format.';
const SUPPLIER_TOOLS: Record<string, ToolDefinition> = {
  get_invoice: {
    description: 'One supplier invoice with its net, VAT and gross amounts in EUR.',
    parameters: { type: 'object', properties: { invoice_no: { type: 'string', description: 'Invoice number, e.g. RE-2026-11873.' } }, required: ['invoice_no'], additionalProperties: false },
  },
};
const supplierBase = {
  system: SUPPLIER_SYSTEM,
  tools: SUPPLIER_TOOLS,
  declarations: declarations([['get_invoice', { readOnly: true, inputSchema: SUPPLIER_TOOLS['get_invoice']!.parameters }]]),
};
const INVOICE = { invoice_no: 'RE-2026-11873', supplier: 'Kessler Hydraulik AG', net_eur: 4075.63, vat_eur: 774.37, gross_eur: 4850, weight_kg: 1234.5, due: '2026-12-15' };
const invoiceSteps = [{ calls: [{ name: 'get_invoice', args: { invoice_no: 'RE-2026-11873' }, result: INVOICE }] }];

const volumesBase = {
  system: BACKUP_SYSTEM,
  tools: offer('list_machines', 'volume_stats'),
  declarations: declarations([declare('list_machines'), declare('volume_stats', { argumentsFrom: ['list_machines'], rowsAt: 'volumes' })]),
};
const statusBase = {
  system: BACKUP_SYSTEM,
  tools: offer('list_machines', 'backup_status'),
  declarations: declarations([declare('list_machines'), declare('backup_status', { argumentsFrom: ['list_machines'] })]),
};
const customerBase = {
  system: ORDER_SYSTEM,
  tools: offer('find_customer'),
  declarations: declarations([declare('find_customer')]),
};
const volumeSteps = [
  { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
  { calls: [{ name: 'volume_stats', args: { machine_id: 'srv-db-04' }, result: VOLUMES }] },
];
const statusSteps = [
  { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] },
  { calls: [{ name: 'backup_status', args: { machine_id: 'srv-db-04' }, result: [{ machine_id: 'srv-db-04', last_success: '2026-11-30T02:00:00Z', state: 'ok' }] }] },
];
const COLUMNS = { machine_id: 'string', size_gb: 'number', last_backup: 'date' };

export const MORE_VALUE_CASES: CaseSpec[] = [
  {
    name: 'uv-clean-phone-by-digits',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a phone restated in a national form ((415) 555-0132) meets the served E.164 +14155550132',
    kind: 'clean',
    note: 'Same digits, country code aside: the number people dial is the one the tool served.',
    expect: [],
    ...customerBase,
    turns: [
      {
        user: 'How do I reach Dana Whitfield?',
        steps: [{ calls: [{ name: 'find_customer', args: { query: 'Dana Whitfield' }, result: CUSTOMER }] }],
        answer: 'Dana Whitfield (customer 40213) can be reached at (415) 555-0132 or dana.whitfield@example.com.',
      },
    ],
  },
  {
    name: 'uv-clean-hedged-rounding',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'hedged roundings ("about 38,000", "roughly 13,000") of served numbers (38200, 12750)',
    kind: 'clean',
    note: 'The answer says it rounds, and each figure is the served one rounded to the precision it states.',
    expect: [],
    ...volumesBase,
    turns: [{ user: 'How busy are the volumes of srv-db-04?', steps: volumeSteps, answer: 'vol-db-04a peaks at about 38,000 IOPS and vol-db-04b at roughly 13,000 IOPS.' }],
  },
  {
    name: 'uv-clean-earlier-turn-user-value',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a ticket id the user gave in an earlier turn, repeated after the app dropped that message from the window',
    kind: 'clean',
    note: 'The app keeps only its answers between turns; CHG-20417 came from the user in turn 1, not from the model. Turn 2 first offers backup_status while list_machines has left the window (the model fetches it again before calling), so the advisory dangling-reference is acceptable.',
    expect: [],
    acceptable: [{ check: 'dangling-reference', advisory: true }],
    ...statusBase,
    memory: 'answers-only',
    turns: [
      {
        user: 'File this under change ticket CHG-20417: which acme machines are protected?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }],
        answer: 'srv-db-04 is protected; srv-web-11 is not.',
      },
      {
        user: 'And when did srv-db-04 last back up?',
        steps: [{ calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: MACHINES }] }, statusSteps[1]!],
        answer: 'srv-db-04 last backed up successfully at 2026-11-30T02:00:00Z; I noted it under CHG-20417.',
      },
    ],
  },
  {
    name: 'uv-defect-wrong-clock-time',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'a 12-hour time (3:00 AM) that is not the served 02:00 of the same date',
    kind: 'defect',
    note: 'The date is right and the hour is not: the backup finished at 02:00 UTC.',
    expect: [{ check: 'unsupported-value', value: '3:00 AM' }],
    ...statusBase,
    turns: [{ user: 'When did srv-db-04 last back up?', steps: statusSteps, answer: 'srv-db-04 last backed up successfully on 11/30/2026 at 3:00 AM UTC.' }],
  },
  {
    name: 'uv-defect-total-does-not-add-up',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a total (2,860 GB) that is no sum of the served sizes (1,840 + 920 = 2,760)',
    kind: 'defect',
    note: 'The parts are served; the total the answer states is 100 GB off.',
    expect: [{ check: 'unsupported-value', value: '2,860', advisory: false }],
    ...volumesBase,
    turns: [{ user: 'How much storage do the volumes of srv-db-04 take in total?', steps: volumeSteps, answer: 'srv-db-04 has 2,860 GB across vol-db-04a (1,840 GB) and vol-db-04b (920 GB).' }],
  },
  {
    name: 'uv-defect-wrong-phone',
    shape: 'otel-logs',
    check: 'unsupported-value',
    class: 'a phone whose digits differ from the served one by one digit',
    kind: 'defect',
    note: 'The tool served +14155550132; the answer gives a number ending 0123.',
    expect: [{ check: 'unsupported-value', value: '(415) 555-0123' }],
    ...customerBase,
    turns: [
      {
        user: 'How do I reach Dana Whitfield?',
        steps: [{ calls: [{ name: 'find_customer', args: { query: 'Dana Whitfield' }, result: CUSTOMER }] }],
        answer: 'Dana Whitfield (customer 40213) can be reached at (415) 555-0123.',
      },
    ],
  },
  {
    name: 'rc-defect-rowsat-json-pointer',
    shape: 'vercel',
    check: 'result-columns',
    class: '`rowsAt: /data/items` (a JSON pointer) reaches the rows, and a number column holding "n/a" is reported',
    kind: 'defect',
    note: 'The API wraps rows as {"data":{"items":[…]}}; size_gb is "n/a" in one row.',
    expect: [{ check: 'result-columns', kind: 'column-type-mismatch', tool: 'storage_usage', value: 'size_gb' }],
    system: BACKUP_SYSTEM,
    tools: offer('storage_usage'),
    declarations: declarations([declare('storage_usage', { resultColumns: COLUMNS, rowsAt: '/data/items' })]),
    turns: [
      {
        user: 'How much storage does acme use per machine?',
        steps: [
          {
            calls: [
              {
                name: 'storage_usage',
                args: { customer: 'acme' },
                result: { data: { items: [{ machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z' }, { machine_id: 'srv-web-11', size_gb: 'n/a', last_backup: '2026-11-29T02:00:00Z' }] }, page: 1 },
              },
            ],
          },
        ],
        answer: 'srv-db-04 uses 1840 GB; the tool did not report a size for srv-web-11.',
      },
    ],
  },
  {
    name: 'rc-clean-rowsat-json-pointer',
    shape: 'otel-logs',
    check: 'result-columns',
    class: '`rowsAt: /result/rows` (a JSON pointer) with well-typed rows stays silent',
    kind: 'clean',
    note: 'Every declared column is present and typed under result.rows; the cursor beside them is not a row.',
    expect: [],
    system: BACKUP_SYSTEM,
    tools: offer('storage_usage'),
    declarations: declarations([declare('storage_usage', { resultColumns: COLUMNS, rowsAt: '/result/rows' })]),
    turns: [
      {
        user: 'How much storage does acme use per machine?',
        steps: [
          {
            calls: [
              {
                name: 'storage_usage',
                args: { customer: 'acme' },
                result: { result: { rows: [{ machine_id: 'srv-db-04', size_gb: 1840, last_backup: '2026-11-30T02:00:00Z' }, { machine_id: 'srv-web-11', size_gb: 96.5, last_backup: '2026-11-29T02:00:00Z' }], next_cursor: null } },
              },
            ],
          },
        ],
        answer: 'srv-db-04 uses 1840 GB and srv-web-11 uses 96.5 GB; both were backed up in the last two days.',
      },
    ],
  },
  {
    name: 'uv-defect-decimal-comma-amount-wrong',
    shape: 'traceloop',
    check: 'unsupported-value',
    class: 'a German-format gross amount "4.950,00 €" against a served JSON number gross_eur 4850',
    kind: 'defect',
    note: '"4.950,00" is one decimal-comma number, 4950; the invoice served 4850. Net and VAT are right, the gross is not.',
    expect: [{ check: 'unsupported-value', value: '4.950,00' }],
    ...supplierBase,
    turns: [
      {
        user: 'Wie hoch ist die Rechnung RE-2026-11873 von Kessler?',
        steps: invoiceSteps,
        answer: 'Rechnung RE-2026-11873 von Kessler Hydraulik AG: netto 4.075,63 €, MwSt. 774,37 €, brutto 4.950,00 €, fällig am 15.12.2026.',
      },
    ],
  },
  {
    name: 'uv-clean-decimal-comma-amounts',
    shape: 'vercel',
    check: 'unsupported-value',
    class: 'German-format amounts and weight ("4.850,00 €", "4.075,63 €", "1.234,5 kg") meeting served JSON numbers 4850, 4075.63, 1234.5',
    kind: 'clean',
    note: 'Each decimal-comma figure is the served number written the German way.',
    expect: [],
    ...supplierBase,
    turns: [
      {
        user: 'Was kostet die Lieferung RE-2026-11873 und wie schwer ist sie?',
        steps: invoiceSteps,
        answer: 'Die Rechnung RE-2026-11873 beträgt brutto 4.850,00 € (netto 4.075,63 €, MwSt. 774,37 EUR); die Lieferung wiegt 1.234,5 kg.',
      },
    ],
  },
];
