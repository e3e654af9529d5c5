import { describe, expect, it } from 'vitest';
import { effectiveDeclaration, inferRole, nameWords, roleArmedBy, sourcesFromSchema, sourcesInferred, toolRole } from '../../src/declarations/inferred.js';

describe('inferRole', () => {
  it('reads the verb of names in every case style', () => {
    expect(nameWords('getReservationDetails')).toEqual(['get', 'reservation', 'details']);
    expect(nameWords('search_direct_flight')).toEqual(['search', 'direct', 'flight']);
    expect(nameWords('orders.cancel')).toEqual(['orders', 'cancel']);
    expect(inferRole({ name: 'get_user_details' })).toEqual({ readOnly: true, evidence: "its name has the read verb 'get'" });
    expect(inferRole({ name: 'listOrders' })?.readOnly).toBe(true);
    expect(inferRole({ name: 'cancel_reservation' })).toEqual({ readOnly: false, evidence: "its name has the write verb 'cancel'" });
    expect(inferRole({ name: 'update_reservation_flights' })?.readOnly).toBe(false);
    expect(inferRole({ name: 'send_certificate' })?.readOnly).toBe(false);
  });

  it('infers nothing from a name whose verbs disagree, or that has none, unless the description opens with one', () => {
    expect(inferRole({ name: 'get_or_create_user' })).toBeUndefined();
    expect(inferRole({ name: 'think' })).toBeUndefined();
    expect(inferRole({ name: 'calculate', description: 'Calculate the result of a mathematical expression.' })).toBeUndefined();
    expect(inferRole({ name: 'employee_directory', description: 'Returns the employees of a department.' })).toEqual({
      readOnly: true,
      evidence: "its description opens with the read verb 'get'",
    });
    expect(inferRole({ name: 'ticket_tool', description: 'Creates a support ticket for the user.' })?.readOnly).toBe(false);
  });

  it('reads a role only from a verb the name opens with, never from a verb elsewhere or a phrasal verb (an unknown role only suppresses)', () => {
    expect(inferRole({ name: 'address_book' })).toBeUndefined();
    expect(inferRole({ name: 'orders.cancel' })).toBeUndefined();
    expect(inferRole({ name: 'check_in_passenger' })).toBeUndefined();
    expect(inferRole({ name: 'set_up_account' })).toBeUndefined();
    expect(inferRole({ name: 'check_availability' })?.readOnly).toBe(true);
    expect(inferRole({ name: 'book_table' })?.readOnly).toBe(false);
  });

  it('gives the role as a known reading with its evidence, or unknown', () => {
    expect(toolRole(effectiveDeclaration(undefined, { name: 'list_rooms' }, true))).toEqual({ known: true, value: 'read', evidence: "its name has the read verb 'list'" });
    expect(toolRole({ readOnly: false })).toEqual({ known: true, value: 'write', evidence: 'declared readOnly: false' });
    expect(toolRole(effectiveDeclaration(undefined, { name: 'exchange_items' }, true)).known).toBe(false);
    expect(toolRole(undefined).known).toBe(false);
  });

  it('puts MCP annotations before the name', () => {
    expect(inferRole({ name: 'update_index', annotations: { readOnlyHint: true } })).toEqual({ readOnly: true, evidence: 'its MCP annotations say readOnlyHint' });
    expect(inferRole({ name: 'get_and_purge', annotations: { destructiveHint: true } })?.readOnly).toBe(false);
    expect(inferRole({ name: 'fetch_page', annotations: { readOnlyHint: false } })?.readOnly).toBe(false);
  });
});

describe('effectiveDeclaration', () => {
  it('fills readOnly only where nothing was declared, and says so', () => {
    const inferred = effectiveDeclaration(undefined, { name: 'list_machines' }, true);
    expect(inferred).toEqual({ readOnly: true, inferred: { readOnly: "its name has the read verb 'list'" } });
    expect(roleArmedBy(inferred)).toBe('inferred');
    const declared = effectiveDeclaration({ readOnly: false }, { name: 'list_machines' }, true);
    expect(declared).toEqual({ readOnly: false });
    expect(roleArmedBy(declared)).toBe('declared');
    expect(effectiveDeclaration({ argumentsFrom: ['list_machines'] }, { name: 'backup_status' }, true)).toEqual({ argumentsFrom: ['list_machines'] });
    expect(effectiveDeclaration(undefined, { name: 'list_machines' }, false)).toBeUndefined();
  });
});

describe('sourcesFromSchema', () => {
  const schema = {
    type: 'object',
    properties: {
      machine_id: { type: 'string', description: 'Machine identifier as returned by list_machines.' },
      statuses: { type: 'array', items: { type: 'string', description: 'A status, e.g. failed.' } },
      jobs: { type: 'array', items: { type: 'string', description: 'Job names as backup_jobs lists them.' } },
      note: { type: 'string', description: 'Free text; see list_machines_archive for old ones.' },
    },
  };

  it('reads the tools a property description names, whole words only, never the tool itself', () => {
    expect(sourcesFromSchema('backup_status', schema, ['list_machines', 'backup_jobs', 'backup_status'])).toEqual({
      byArgument: { machine_id: ['list_machines'], jobs: ['backup_jobs'] },
      evidence: "the schema of 'machine_id' names 'list_machines'; the schema of 'jobs' names 'backup_jobs'",
    });
    expect(sourcesFromSchema('list_machines', schema, ['list_machines'])).toBeUndefined();
    expect(sourcesFromSchema('x', 'not a schema', ['list_machines'])).toBeUndefined();
  });

  it('completes a declaration with inferred sources and a recorded schema; declared sources win', () => {
    const sources = sourcesFromSchema('backup_status', schema, ['list_machines', 'backup_jobs'])!;
    const d = effectiveDeclaration(undefined, { name: 'backup_status', sources, inputSchema: schema }, true)!;
    expect(d.argumentsFrom).toEqual(['list_machines', 'backup_jobs']);
    expect(d.argumentSources).toEqual({ machine_id: ['list_machines'], jobs: ['backup_jobs'] });
    expect(d.inputSchema).toBe(schema);
    expect(sourcesInferred(d)).toBe(sources.evidence);
    const declared = effectiveDeclaration({ argumentsFrom: ['inventory'] }, { name: 'backup_status', sources }, true)!;
    expect(declared.argumentsFrom).toEqual(['inventory']);
    expect(sourcesInferred(declared)).toBeUndefined();
  });
});
