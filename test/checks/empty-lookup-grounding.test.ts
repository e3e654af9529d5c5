// Pins issue 9 §4 in `empty-lookup`: a value that is only a proper part of a token a declared
// producer served is reported as `fragment`, naming the whole token, and the message no longer
// calls it "a value the tool served"; producer results are compared JSON-decoded; the named
// `argumentsFrom` form judges only named arguments, each against its own producers.
import { describe, it, expect } from 'vitest';
import { emptyLookups, type ProducerResult } from '../../src/checks/empty-lookup.js';
import { ledgerRowOf } from '../../src/runs/ledger-row.js';
import type { ToolExecution } from '../../src/model/agent.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';

const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '9a1c2b3d4e5f6071' };
const MACHINES: ProducerResult = {
  toolName: 'list_machines',
  callId: 'call_lm_001',
  request: 1,
  text: '[{"machine_id":"srv-db-primary-04","hostname":"dbp04"},{"machine_id":"srv-web-edge-11","hostname":"web11"}]',
};
const SITES: ProducerResult = { toolName: 'list_sites', callId: 'call_ls_001', request: 1, text: '["fra-1","lon-3"]' };

function run(args: unknown, declaration: ToolDeclaration, producerResults: ProducerResult[] = [MACHINES, SITES], userTexts: string[] = []) {
  const execution: ToolExecution = {
    kind: 'tool-execution',
    span,
    convention: 'genai-semconv',
    tenant: 'acme',
    callId: 'call_bj_002',
    toolName: 'backup_jobs',
    arguments: args,
    result: '[]',
    status: 'ok',
    startTimeUnixNano: 1_790_000_000_000_000_000n,
    endTimeUnixNano: 1_790_000_000_300_000_000n,
  };
  return emptyLookups({ row: ledgerRowOf(execution, declaration, 2), declaration, producerResults, userTexts });
}

describe('empty-lookup: whole tokens and fragments', () => {
  it('a fragment of a served id names the whole token and never says the tool served the value', () => {
    const out = run({ machine_id: 'db-primary' }, { argumentsFrom: ['list_machines'] });
    expect(out.findings).toHaveLength(1);
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'empty-lookup', advisory: true, grounding: 'fragment', value: 'db-primary' });
    expect(f.message).toContain('which is only part of "srv-db-primary-04", a value \'list_machines\' served earlier');
    expect(f.message).not.toContain('machine_id = "db-primary", a value');
    expect(f.witnesses[1]).toMatchObject({ stratum: 'served', value: 'srv-db-primary-04' });
  });

  it('a producer result is compared decoded: an id behind a \\u escape is served whole', () => {
    const escaped: ProducerResult = { ...MACHINES, text: '{"body":"{\\"machine_id\\":\\"\\u0073rv-db-primary-04\\"}"}' };
    const out = run({ machine_id: 'srv-db-primary-04' }, { argumentsFrom: ['list_machines'] }, [escaped]);
    expect(out.findings.map((f) => [f.value, f.grounding])).toEqual([['srv-db-primary-04', undefined]]);
  });
});

describe('empty-lookup: argumentsFrom, named form', () => {
  const named: ToolDeclaration = { argumentsFrom: ['list_machines', 'list_sites'], argumentSources: { machine_id: ['list_machines'], site: ['list_sites'] } };

  it('judges only named arguments, each against its own producers', () => {
    const out = run({ machine_id: 'srv-web-edge-11', site: 'fra-1', query: 'srv-db-primary-04 nightly' }, named);
    // Both named arguments are judged (the free-text query is not); one finding per call, the first.
    expect(out.findings.map((f) => [f.predicate, f.subjects[1]!.id])).toEqual([['args.machine_id', 'list_machines']]);
    expect(out.tally.checked).toBe(2);
    const siteOnly = run({ machine_id: 'srv-zz-99', site: 'fra-1' }, named);
    expect(siteOnly.findings.map((f) => [f.predicate, f.subjects[1]!.id])).toEqual([['args.site', 'list_sites']]);
  });

  it('a value served only by another argument\'s producer does not count', () => {
    const out = run({ site: 'srv-web-edge-11' }, named);
    expect(out.findings).toEqual([]);
  });
});

describe('empty-lookup: empties that explain themselves', () => {
  const schema = { type: 'object', properties: { machine_id: { type: 'string' }, statuses: { type: 'array', items: { type: 'string', enum: ['ok', 'failed', 'running'] } } } };

  it('a declared enum filter on the call explains the empty result (no failed jobs is an answer)', () => {
    const decl: ToolDeclaration = { argumentsFrom: ['list_machines'], inputSchema: schema };
    expect(run({ machine_id: 'srv-db-primary-04', statuses: ['failed'] }, decl).findings).toEqual([]);
    expect(run({ machine_id: 'srv-db-primary-04', statuses: ['failed'] }, decl).tally).toMatchObject({ checked: 2, findings: 0 });
    // Without the filter the same empty lookup is a place to look.
    expect(run({ machine_id: 'srv-db-primary-04' }, decl).findings).toHaveLength(1);
  });

  it('the producer said there would be nothing: a zero count beside the value', () => {
    const none: ProducerResult = { ...MACHINES, text: '[{"machine_id":"srv-web-edge-11","protected":false,"job_count":0},{"machine_id":"srv-db-primary-04","job_count":3}]' };
    expect(run({ machine_id: 'srv-web-edge-11' }, { argumentsFrom: ['list_machines'] }, [none]).findings).toEqual([]);
    expect(run({ machine_id: 'srv-db-primary-04' }, { argumentsFrom: ['list_machines'] }, [none]).findings).toHaveLength(1);
  });
});

describe('empty-lookup: what an explained empty does not cover', () => {
  const schema = { type: 'object', properties: { machine_id: { type: 'string' }, statuses: { type: 'array', items: { type: 'string', enum: ['ok', 'failed', 'running'] } } }, required: ['machine_id'] };

  it('a required enum argument is not a narrowing filter', () => {
    const required = { ...schema, required: ['machine_id', 'statuses'] };
    expect(run({ machine_id: 'srv-db-primary-04', statuses: ['failed'] }, { argumentsFrom: ['list_machines'], inputSchema: required }).findings).toHaveLength(1);
  });

  it('a value outside the enum is not a filter of the schema', () => {
    expect(run({ machine_id: 'srv-db-primary-04', statuses: ['broken'] }, { argumentsFrom: ['list_machines'], inputSchema: schema }).findings).toHaveLength(1);
  });

  it('a non-zero count beside the value, or a zero count on another record, explains nothing', () => {
    const other: ProducerResult = { ...MACHINES, text: '[{"machine_id":"srv-web-edge-11","job_count":2},{"machine_id":"srv-db-primary-04","job_count":0}]' };
    expect(run({ machine_id: 'srv-web-edge-11' }, { argumentsFrom: ['list_machines'] }, [other]).findings).toHaveLength(1);
  });

  it('a value the user typed whole is not a fragment of the producer\'s longer token; one the user did not type is', () => {
    const replica: ProducerResult = { ...MACHINES, text: '[{"machine_id":"srv-db-04-replica"}]' };
    const decl: ToolDeclaration = { argumentsFrom: ['list_machines'] };
    const typed = run({ machine_id: 'srv-db-04' }, decl, [replica], ['Which backup jobs does srv-db-04 have?']);
    expect(typed.findings).toEqual([]);
    const notTyped = run({ machine_id: 'srv-db-04' }, decl, [replica], ['Which backup jobs does the replica have?']);
    expect(notTyped.findings.map((f) => f.grounding)).toEqual(['fragment']);
  });
});
