// Pins issue 9 §4, argument grounding, on realistic backup-triage frames: identifiers meet WHOLE
// served tokens (a proper part is a `fragment` naming the whole token and where it was served),
// integer identifiers meet served numbers, served text is compared JSON-decoded as well as raw,
// description examples are not grounds, joins of served tokens pass as `composed` (phones by
// digits), dates computed from a served anchor and the user's phrase are advisory `derived`, the
// named `argumentsFrom` form judges only named arguments, and a value only a non-producer served
// is advisory `wrong-producer`.
import { describe, it, expect } from 'vitest';
import { unsupportedArguments, type ChoiceCheckInput } from '../../src/checks/unsupported-argument.js';
import { validateDeclarations } from '../../src/declarations/schema.js';
import { buildFrame } from '../../src/runs/frame.js';
import type { Frame, ServedString } from '../../src/model/frame.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';
import type { LlmRequest, ToolCall } from '../../src/model/agent.js';

const span = { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' };
const SYSTEM: ServedString = { source: 'system', message: 0, text: 'You are a backup triage assistant for customer acme. Use the machine identifiers list_machines returns.' };
const USER: ServedString = { source: 'user', message: 1, text: 'Why did last night\'s backup of the primary database fail?' };
const MACHINES: ServedString = {
  source: 'tool-result',
  message: 3,
  callId: 'call_lm_001',
  toolName: 'list_machines',
  text: '[{"machine_id":"srv-db-04","hostname":"srv-db-04.prod.acme.internal","site":"fra-1","owner_phone":"+1 (415) 555-0134","asset_no":40213},{"machine_id":"srv-web-11-replica","site":"fra-1"}]',
};

function frame(served: ServedString[] = [SYSTEM, USER, MACHINES], over: Partial<Frame> = {}): Frame {
  return { served, written: [], external: [], ...over };
}

const DECL: Record<string, ToolDeclaration> = {
  backup_status: { argumentsFrom: ['list_machines'] },
  open_ticket: { argumentsFrom: ['list_machines'], inputSchema: { type: 'object', properties: { ref: { type: 'integer', description: 'Asset identifier of the machine.' } } } },
};

function run(args: unknown, f: Frame = frame(), decl: Record<string, ToolDeclaration> = DECL, name = 'backup_status', over: Partial<ChoiceCheckInput> = {}) {
  const call: ToolCall = { id: 'call_bs_002', name, arguments: args };
  return unsupportedArguments({ span, toolCalls: [call], frame: f, declarationOf: (n) => decl[n], inputCaptured: true, maxArgumentLeaves: 1000, quotedValueChars: 64, ...over });
}
const groundings = (out: ReturnType<typeof run>) => out.findings.map((f) => [f.predicate, f.grounding, f.advisory === true]);

describe('whole tokens, not substrings', () => {
  it('a proper part of a served id is a fragment finding naming the whole token and where it was served', () => {
    const out = run({ machine_id: 'srv-db' });
    expect(groundings(out)).toEqual([['args.machine_id', 'fragment', false]]);
    const f = out.findings[0]!;
    expect(f.message).toContain('only part of "srv-db-04"');
    expect(f.message).toContain('tool result of list_machines (call call_lm_001)');
    expect(f.message).toContain('Call list_machines again');
    expect(f.witnesses.map((w) => [w.stratum, w.value])).toEqual([
      ['chosen', 'srv-db'],
      ['served', 'srv-db-04'],
      ['absent', 'srv-db'],
    ]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 1 });
  });

  it('a served id with a suffix is a different machine: srv-web-11 of srv-web-11-replica is a fragment', () => {
    expect(groundings(run({ machine_id: 'srv-web-11' }))).toEqual([['args.machine_id', 'fragment', false]]);
  });

  it('whole tokens and whole runs of segments pass: ids, a host label of an FQDN, a path of a URL, an ISO date part', () => {
    expect(run({ machine_id: 'SRV-DB-04' }).findings).toEqual([]);
    expect(run({ machine_id: 'srv-db-04.prod' }).findings).toEqual([]);
    const repo: ServedString = { source: 'tool-result', message: 3, toolName: 'list_machines', text: 'Config lives at https://github.com/acme-ops/backup-config, updated 2025-11-30T02:00:00Z.' };
    expect(run({ repo: 'acme-ops/backup-config', day: '2025-11-30' }, frame([SYSTEM, USER, repo])).findings).toEqual([]);
  });
});

describe('integer identifiers', () => {
  it('an integer the schema describes as an identifier, or of 4+ digits, is compared with served numbers', () => {
    expect(run({ ref: 40213 }, frame(), DECL, 'open_ticket').findings).toEqual([]);
    expect(groundings(run({ ref: 40231 }, frame(), DECL, 'open_ticket'))).toEqual([['args.ref', 'nowhere', false]]);
    // No name or description says "id", but 4+ digits: a number cut from a served number is a fragment.
    expect(groundings(run({ asset: 4021 }))).toEqual([['args.asset', 'fragment', false]]);
  });

  it('quantities and short numbers are not identifiers', () => {
    const out = run({ limit: 5000, window: { days: 7 }, page: 1200, retries: 3 });
    expect(out.findings).toEqual([]);
    expect(out.tally.checked).toBe(0);
  });
});

describe('served text is compared decoded as well as raw', () => {
  it('\\uXXXX escapes, escaped slashes and backslashes, and a JSON string inside a JSON string', () => {
    const escaped: ServedString = { source: 'tool-result', message: 3, toolName: 'list_machines', text: '{"note":"moved to \\u0073rv-db-09","path":"fra-2\\/srv-db-10","share":"\\\\\\\\nas01\\\\srv-db-11"}' };
    const nested: ServedString = { source: 'tool-result', message: 5, toolName: 'list_machines', text: JSON.stringify({ body: JSON.stringify({ machines: [{ machine_id: 'srv-db-12' }] }) }) };
    const f = frame([SYSTEM, USER, escaped, nested]);
    expect(run({ a: 'srv-db-09', b: 'fra-2/srv-db-10', c: 'srv-db-11', d: 'srv-db-12' }, f).findings).toEqual([]);
    // Decoding never makes a fragment whole.
    expect(groundings(run({ machine_id: 'db-12' }, f))).toEqual([['args.machine_id', 'fragment', false]]);
  });
});

describe('example values of a tool description are not grounds', () => {
  it('a value offered after "e.g." / "for example" / "such as" is nowhere, with a witness saying why', () => {
    const schema: ServedString = { source: 'tool-schema', message: -1, toolName: 'backup_status', text: 'backup_status: Status of one machine (machine_id as returned by list_machines, e.g. srv-app-01). Site codes such as lon-3 are accepted.' };
    const out = run({ machine_id: 'srv-app-01', site: 'lon-3' }, frame([SYSTEM, USER, schema]));
    expect(groundings(out)).toEqual([
      ['args.machine_id', 'nowhere', false],
      ['args.site', 'nowhere', false],
    ]);
    expect(out.findings[0]!.message).toContain("The description of 'backup_status' offers it only as an example");
    expect(out.findings[0]!.witnesses.some((w) => w.provenance.includes('only as an example'))).toBe(true);
    // The rest of the description still serves: list_machines is named outside the example.
    expect(run({ source: 'list_machines' }, frame([SYSTEM, USER, schema])).findings).toEqual([]);
  });
});

describe('composed values and phones', () => {
  it('a join of whole served tokens passes as composed, with each part and where it was served', () => {
    const out = run({ target: 'fra-1/srv-db-04', key: 'acme:srv-db-04' });
    expect(out.findings).toEqual([]);
    expect(out.composed).toEqual([
      { toolName: 'backup_status', toolCallId: 'call_bs_002', path: 'args.target', value: 'fra-1/srv-db-04', parts: [{ part: 'fra-1', provenance: 'tool result of list_machines (call call_lm_001)' }, { part: 'srv-db-04', provenance: 'tool result of list_machines (call call_lm_001)' }] },
      { toolName: 'backup_status', toolCallId: 'call_bs_002', path: 'args.key', value: 'acme:srv-db-04', parts: [{ part: 'acme', provenance: 'system prompt' }, { part: 'srv-db-04', provenance: 'tool result of list_machines (call call_lm_001)' }] },
    ]);
  });

  it('a part shorter than 3 characters never composes: srv-db-04-1 is not served', () => {
    expect(groundings(run({ machine_id: 'srv-db-04-1' }))).toEqual([['args.machine_id', 'nowhere', false]]);
  });

  it('phone numbers compare by digits, with or without the country code', () => {
    expect(run({ callback: '415-555-0134', alt: '+14155550134', intl: '(415) 555 0134' }).findings).toEqual([]);
    expect(groundings(run({ callback: '415-555-0143' }))).toEqual([['args.callback', 'nowhere', false]]);
  });
});

describe('dates computed from a served anchor', () => {
  const today: ServedString = { source: 'system', message: 0, text: 'You are a backup triage assistant. Today is 2025-12-01.' };
  const asked = (text: string): ServedString => ({ source: 'user', message: 1, text });

  it('"last 7 days" from today\'s date passes as derived, the arithmetic kept as the witness', () => {
    const out = run({ machine_id: 'srv-db-04', since: '2025-11-24' }, frame([today, asked('Show failed backups of srv-db-04 from the last 7 days.'), MACHINES]));
    expect(out.findings).toEqual([]);
    expect(out.derived.map((d) => [d.path, d.formula, d.from])).toEqual([['args.since', '2025-12-01 − 7 day(s) ("last 7 days") = 2025-11-24', '2025-12-01, served by the system prompt']]);
    expect(out.tally).toMatchObject({ checked: 2, findings: 0 });
  });

  it('"since November 3rd" and "past 2 weeks", anchored on a served timestamp', () => {
    const stamp: ServedString = { ...MACHINES, text: '{"machine_id":"srv-db-04","checked_at":"2025-12-01T06:00:00Z"}' };
    const since = run({ from: '2025-11-03' }, frame([SYSTEM, asked('Any failures since November 3rd?'), stamp]));
    expect([since.findings, since.derived.map((d) => d.value)]).toEqual([[], ['2025-11-03']]);
    const past = run({ from: '2025-11-17T00:00:00Z' }, frame([SYSTEM, asked('What failed in the past 2 weeks?'), stamp]));
    expect([past.findings, past.derived.map((d) => d.formula)]).toEqual([[], ['2025-12-01 − 14 day(s) ("past 2 weeks") = 2025-11-17']]);
  });

  it('"the next day" and "moving it back one day" shift a date a tool served; a date off by more is still a finding', () => {
    const booking: ServedString = { ...MACHINES, text: '{"reservation_id":"HXDUBJ","flights":[{"flight_number":"HAT085","date":"2024-05-18"},{"flight_number":"HAT278","date":"2024-05-22"}]}' };
    const next = run({ date: '2024-05-19' }, frame([SYSTEM, asked('I want to change my outgoing flight to a nonstop one, and shift it to the next day.'), booking]));
    expect([next.findings, next.derived.map((d) => d.formula)]).toEqual([[], ['2024-05-18 + 1 day(s) ("next day") = 2024-05-19']]);
    const back = run({ date: '2024-05-23' }, frame([SYSTEM, asked('Also, I want to adjust my return flight by moving it back one day.'), booking]));
    expect(back.findings).toEqual([]);
    expect(groundings(run({ date: '2024-05-25' }, frame([SYSTEM, asked('Also, I want to adjust my return flight by moving it back one day.'), booking])))).toEqual([['args.date', 'nowhere', false]]);
  });

  it('a date written in another form in the user\'s words is served, not derived', () => {
    const out = run({ since: '2025-11-24' }, frame([SYSTEM, asked('Show failed backups since Nov 24, 2025.')]));
    expect([out.findings, out.derived]).toEqual([[], []]);
  });

  it('with no served anchor, or no phrase of the user, the date stays nowhere', () => {
    expect(groundings(run({ since: '2025-11-24' }, frame([SYSTEM, asked('Show failed backups from the last 7 days.')])))).toEqual([['args.since', 'nowhere', false]]);
    expect(groundings(run({ since: '2025-11-24' }, frame([today, asked('Show failed backups.')])))).toEqual([['args.since', 'nowhere', false]]);
  });
});

describe('argumentsFrom, named form', () => {
  it('validates; the union of producers stays in argumentsFrom; self-reference is still refused', () => {
    const r = validateDeclarations({ tools: { search_backups: { argumentsFrom: { machine_id: ['list_machines'], 'filters.site': ['list_sites', 'list_machines'] } } } });
    expect(r.ok && r.declarations.tools['search_backups']).toEqual({ argumentsFrom: ['list_machines', 'list_sites'], argumentSources: { machine_id: ['list_machines'], 'filters.site': ['list_sites', 'list_machines'] } });
    const self = validateDeclarations({ tools: { t: { argumentsFrom: { x: ['t'] } } } });
    expect(self.ok ? [] : self.errors).toEqual(['tools.t.argumentsFrom: a tool cannot take its arguments from its own results']);
    const empty = validateDeclarations({ tools: { t: { argumentsFrom: {} } } });
    expect(empty.ok).toBe(false);
  });

  it('judges only the named arguments: a free-text query of the same tool is not judged', () => {
    const r = validateDeclarations({ tools: { search_backups: { argumentsFrom: { machine_id: ['list_machines'] } } } });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const decl = r.declarations.tools;
    const out = run({ machine_id: 'srv-db-04', query: 'nightly full backup failed with code E_SNAPSHOT_9931' }, frame(), decl, 'search_backups');
    expect(out.findings).toEqual([]);
    expect(out.tally.checked).toBe(1);
    // The whole-tool form judges the query too.
    expect(groundings(run({ machine_id: 'srv-db-04', query: 'nightly full backup failed with code E_SNAPSHOT_9931' }, frame(), { search_backups: { argumentsFrom: ['list_machines'] } }, 'search_backups'))).toEqual([['args.query', 'nowhere', false]]);
    // A named argument that nothing served is still a finding.
    expect(groundings(run({ machine_id: 'srv-db-99' }, frame(), decl, 'search_backups'))).toEqual([['args.machine_id', 'nowhere', false]]);
  });
});

describe('wrong producer', () => {
  const tickets: ServedString = { source: 'tool-result', message: 5, callId: 'call_st_003', toolName: 'search_tickets', text: '[{"ticket":"INC-2231","machine":"srv-db-07"}]' };

  it('a value only a tool that is not a declared producer served is advisory wrong-producer', () => {
    const out = run({ machine_id: 'srv-db-07' }, frame([SYSTEM, USER, MACHINES, tickets]));
    expect(groundings(out)).toEqual([['args.machine_id', 'wrong-producer', true]]);
    expect(out.findings[0]!.message).toContain('only the tool result of search_tickets (call call_st_003) served');
    expect(out.findings[0]!.message).toContain('declared to come from list_machines');
    expect(out.tally.findings).toBe(0);
  });

  it('served by another tool under the argument\'s own field name: the same kind of identifier, a pass', () => {
    const jobs: ServedString = { ...tickets, toolName: 'backup_jobs', text: '[{"job":"legacy-weekly","machine_id":"srv-db-07"}]' };
    const out = run({ machine_id: 'srv-db-07' }, frame([SYSTEM, USER, MACHINES, jobs]));
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
    // Another field's value (`machine` for `machine_id`) stays of unknown standing.
    expect(groundings(run({ machine_id: 'srv-db-07' }, frame([SYSTEM, USER, MACHINES, tickets])))).toEqual([['args.machine_id', 'wrong-producer', true]]);
  });

  it('a producer, the user, or an unnamed tool result serving it too is a plain pass', () => {
    expect(run({ machine_id: 'srv-db-07' }, frame([SYSTEM, { ...USER, text: 'Check srv-db-07 please.' }, tickets])).findings).toEqual([]);
    expect(run({ machine_id: 'srv-db-07' }, frame([SYSTEM, USER, { ...tickets, toolName: undefined }])).findings).toEqual([]);
  });

  it('the frame names a tool result by the call with its id, so the producer can be told', () => {
    const request = {
      kind: 'llm-request',
      span,
      convention: 'genai-semconv',
      tenant: 'acme',
      startTimeUnixNano: 0n,
      endTimeUnixNano: 0n,
      inputContent: 'captured',
      outputContent: 'captured',
      input: [
        { role: 'user', parts: [{ type: 'text', text: 'Which machine is INC-2231 about?' }] },
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_st_003', name: 'search_tickets', arguments: { q: 'INC-2231' } }] },
        { role: 'tool', parts: [{ type: 'tool-result', id: 'call_st_003', result: '[{"ticket":"INC-2231","machine":"srv-db-07"}]' }] },
      ],
      outputText: [],
      toolCalls: [],
    } satisfies LlmRequest;
    const built = buildFrame(request);
    expect(built.served.find((s) => s.source === 'tool-result')?.toolName).toBe('search_tickets');
    expect(groundings(run({ machine_id: 'srv-db-07' }, built))).toEqual([['args.machine_id', 'wrong-producer', true]]);
  });
});

describe('dates: calendar periods', () => {
  const today: ServedString = { source: 'system', message: 0, text: 'You are a backup triage assistant. Today is 2026-11-30.' };
  it('"this week" reads as the rolling week or the calendar week so far; "this month" as its first day (derived, a pass)', () => {
    const asked = (text: string): ServedString => ({ source: 'user', message: 1, text });
    // 2026-11-30 is a Monday: the calendar week starts that day, the rolling week on 11-23.
    const week = run({ since: '2026-11-23' }, frame([today, asked('Any failed backups on srv-db-04 this week?')]));
    expect([week.findings, week.derived.map((d) => d.value)]).toEqual([[], ['2026-11-23']]);
    expect(run({ since: '2026-11-30' }, frame([today, asked('Any failed backups on srv-db-04 this week?')])).findings).toEqual([]);
    const month = run({ since: '2026-11-01' }, frame([today, asked('How many runs failed this month?')]));
    expect([month.findings, month.derived.map((d) => d.value)]).toEqual([[], ['2026-11-01']]);
    expect(groundings(run({ since: '2026-10-01' }, frame([today, asked('How many runs failed this month?')])))).toEqual([['args.since', 'nowhere', false]]);
  });
});

describe('integer identifiers: quantity names', () => {
  it('a quantity name (amount_cents, timeoutMs, size_gb, page_number) is never an identifier; a name ending in id always is', () => {
    const out = run({ amount_cents: 12999, timeoutMs: 30000, size_gb: 2048, page_number: 1200, lookback_days: 3650 });
    expect(out.findings).toEqual([]);
    expect(out.tally.checked).toBe(0);
    expect(groundings(run({ page_id: 77, order_number: 918273 }))).toEqual([
      ['args.page_id', 'nowhere', false],
      ['args.order_number', 'nowhere', false],
    ]);
  });
});
