// Pins check `argument-schema` with the real validator (ajv + ajv-formats, src/runs/schema-validator.ts):
// a call breaking its schema (enum, required, type, additionalProperties, format, pattern) is one
// finding per call naming every violation, armed by the declared or the recorded schema; the
// fences (no schema, arguments not recorded, not JSON, `{}` where fields are required, a schema
// that cannot be compiled) never file a finding; the compile cache is bounded and a bad schema is
// reported once while cached.
import { describe, it, expect } from 'vitest';
import { argumentPath, argumentSchemas, ARGUMENTS_NOT_JSON, ARGUMENTS_RECORDED_EMPTY, type ToolSchema } from '../../src/checks/argument-schema.js';
import { createSchemaValidator } from '../../src/runs/schema-validator.js';
import { CONTENT_NOT_CAPTURED } from '../../src/checks/catalog.js';
import type { ToolCall } from '../../src/model/agent.js';

const span = { traceId: '5d0c2f6b8e1a4c7d9f3b2a1e0d4c6b8a', spanId: '7e3f1a2b4c5d6e7f' };

const BOOK = {
  type: 'object',
  properties: {
    patient_id: { type: 'string', pattern: '^P-\\d{5}$' },
    slot_id: { type: 'string' },
    visit_type: { type: 'string', enum: ['checkup', 'follow_up', 'vaccination'] },
    on: { type: 'string', format: 'date' },
    reminders: { type: 'integer', minimum: 0 },
  },
  required: ['patient_id', 'slot_id', 'visit_type'],
  additionalProperties: false,
};

function run(calls: ToolCall[], schemaOf: (name: string) => ToolSchema | undefined = () => ({ schema: BOOK, armedBy: 'inferred', source: "the request's tool definition of 'book_appointment'" }), validator = createSchemaValidator()) {
  return argumentSchemas({ span, toolCalls: calls, schemaOf, validate: (s, v) => validator.validate(s, v), quotedValueChars: 64, maxNamedViolations: 6 });
}

const call = (args: unknown, id = 'call_ap_1'): ToolCall => ({ id, name: 'book_appointment', arguments: args });

describe('argument-schema: calls that break their schema', () => {
  it('a value outside the enum is a finding naming the allowed values and the value sent', () => {
    const out = run([call({ patient_id: 'P-30418', slot_id: 'SL-1130', visit_type: 'annual_checkup' })]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 1 });
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'argument-schema', seam: 'choice', predicate: 'args.visit_type', value: 'annual_checkup', toolName: 'book_appointment', toolCallId: 'call_ap_1', armedBy: 'inferred' });
    expect(f.message).toContain(`'args.visit_type' must be one of "checkup", "follow_up", "vaccination", got "annual_checkup"`);
    expect(f.message).toContain("its input schema as the request recorded it (the request's tool definition of 'book_appointment')");
    expect(f.message).toContain('This was checked on inference, not on a declaration');
    expect(f.armedEvidence).toBe("the request recorded 'book_appointment''s input schema, which the model was shown");
    expect(f.witnesses.at(-1)).toMatchObject({ predicate: 'inputSchema', stratum: 'served' });
  });

  it('names every violation of one call in one finding: missing field, wrong type, extra property, format, pattern', () => {
    const out = run([call({ patient_id: 'p30418', visit_type: 'checkup', on: 'next Tuesday', reminders: '2', room: 'B12' })]);
    expect(out.findings).toHaveLength(1);
    const m = out.findings[0]!.message;
    expect(m).toContain("required 'args.slot_id' is missing");
    expect(m).toContain(`'args.reminders' must be integer, got a string "2"`);
    expect(m).toContain("'args.room' is not a property the schema allows");
    expect(m).toContain(`'args.on' must be in the format 'date', got "next Tuesday"`);
    expect(m).toContain(`'args.patient_id' must match the pattern "^P-\\d{5}$", got "p30418"`);
  });

  it('a declared schema arms the check as declared', () => {
    const out = run([call({ patient_id: 'P-30418', slot_id: 'SL-1130' })], () => ({ schema: BOOK, armedBy: 'declared', source: 'declared inputSchema' }));
    expect(out.findings[0]).toMatchObject({ armedBy: 'declared', predicate: 'args.visit_type' });
    expect(out.findings[0]!.message).toContain('its declared input schema (declared inputSchema)');
    expect(out.findings[0]!.witnesses.at(-1)).toMatchObject({ stratum: 'declared' });
  });

  it('reads a 2020-12 schema with its own keywords (prefixItems)', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } } };
    const out = run([call({ pair: ['a', 'b'] })], () => ({ schema, armedBy: 'inferred', source: 'recorded' }));
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.predicate).toBe('args.pair.1');
  });
});

describe('argument-schema: fences', () => {
  it('a valid call passes; a tool with no schema is not applicable', () => {
    const out = run([call({ patient_id: 'P-30418', slot_id: 'SL-1130', visit_type: 'checkup', on: '2026-12-09' }), { id: 'c2', name: 'list_slots', arguments: { day: 'x' } }], (n) =>
      n === 'book_appointment' ? { schema: BOOK, armedBy: 'inferred', source: 'recorded' } : undefined,
    );
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, notApplicable: 1 });
  });

  it('arguments not recorded, recorded as non-JSON text, or recorded as {} where fields are required are unreachable, said so', () => {
    const out = run([call(undefined, 'a'), call('{"patient_id": "P-304', 'b'), call({}, 'c')]);
    expect(out.findings).toEqual([]);
    expect(out.tally.unreachableReasons).toEqual({ [CONTENT_NOT_CAPTURED]: 1, [ARGUMENTS_NOT_JSON]: 1, [ARGUMENTS_RECORDED_EMPTY]: 1 });
  });

  it('{} for a tool that takes nothing required is judged (and passes)', () => {
    const out = run([call({})], () => ({ schema: { type: 'object', properties: {} }, armedBy: 'inferred', source: 'recorded' }));
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('a schema that cannot be compiled is unreachable with its reason, reported once while cached, never thrown', () => {
    const validator = createSchemaValidator();
    const bad = { type: 'object', properties: { order_id: { $ref: '#/definitions/OrderId' } } };
    const schemaOf = () => ({ schema: bad, armedBy: 'declared' as const, source: 'declared inputSchema' });
    const first = run([call({ order_id: 'FP-1' })], schemaOf, validator);
    const second = run([call({ order_id: 'FP-2' })], schemaOf, validator);
    expect(first.findings).toEqual([]);
    expect(first.tally.unreachable).toBe(1);
    expect(Object.keys(first.tally.unreachableReasons)[0]).toMatch(/^the input schema of 'book_appointment' cannot be used: .*OrderId/);
    expect(first.badSchemas).toHaveLength(1);
    expect(second.badSchemas).toEqual([]);
  });

  it('a schema that is not an object, or declares draft 2019-09, is a bad schema', () => {
    const validator = createSchemaValidator();
    expect(validator.validate('object', {})).toMatchObject({ kind: 'bad-schema', reason: 'the schema is not a JSON object' });
    expect(validator.validate({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' }, {})).toMatchObject({ kind: 'bad-schema' });
    expect(validator.validate(true, { any: 1 })).toEqual({ kind: 'valid' });
  });

  it('keeps at most maxCompiled schemas (least recently used dropped first)', () => {
    const validator = createSchemaValidator(3);
    for (let i = 0; i < 10; i++) validator.validate({ type: 'object', properties: { [`f${i}`]: { type: 'string' } } }, {});
    expect(validator.size).toBe(3);
  });

  it('argumentPath turns a JSON pointer into the dot path findings use', () => {
    expect(argumentPath('')).toBe('args');
    expect(argumentPath('/flights/0/date')).toBe('args.flights.0.date');
    expect(argumentPath('/a~1b/c~0d')).toBe('args.a/b.c~d');
  });
});
