// Pins FootprintCore, the one core every deployment runs: dispositions on the turn span, content
// not captured reads as unreachable (never a pass), log records that arrive after their span land
// on a carrier span, state never crosses tenants, one finding per defect per trace, bounded state.
import { CHECK_CATALOG } from '../../src/checks/catalog.js';
import { describe, it, expect } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import { tenantOfResource } from '../../src/model/tenant.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { spanKey, type SpanData } from '../../src/model/telemetry.js';
import { FIXTURES_DIR, loadFixture } from '../helpers/fixtures.js';
import { join } from 'node:path';

const decl = (() => {
  const r = loadDeclarationsFile(join(FIXTURES_DIR, 'declarations.yaml'));
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.declarations;
})();

/** Findings of the choice check only (the recorded conversations also show other, true defects). */
const ua = <T extends { kind: string }>(fs: T[]) => fs.filter((f) => f.kind === 'unsupported-argument');

function disposition(core: FootprintCore, spans: SpanData[], result: ReturnType<FootprintCore['process']>) {
  const turns = spans.filter((s) => s.name.startsWith('invoke_agent'));
  return turns.map((t) => {
    const e = result.annotations.get(spanKey(t))?.events.find((x) => x.name === 'footprint.disposition');
    return e ? { summary: e.attributes['footprint.disposition.summary'], checks: JSON.parse(String(e.attributes['footprint.disposition.checks'])) } : undefined;
  });
}

describe('functional: FootprintCore over recorded traces', () => {
  it('writes a disposition on each turn span, counting what was checked', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const core = new FootprintCore({ declarations: decl });
    const result = core.process({ spans });
    const d = disposition(core, spans, result);
    expect(d).toHaveLength(2);
    expect(d[1]!.summary).toMatch(/^5 checks ran on 2 LLM requests/);
    const row = (i: number, check: string) => d[i]!.checks.find((c: { check: string }) => c.check === check);
    expect(row(1, 'unsupported-argument')).toMatchObject({ seam: 'choice', checked: 1, findings: 1, unreachable: 0 });
    expect(row(1, 'dangling-reference')).toMatchObject({ seam: 'offer', findings: 1 });
    expect(row(1, 'empty-lookup')).toMatchObject({ seam: 'write', checked: 1, findings: 1 });
    // Turn 1: list_machines is not armed (not applicable); backup_jobs' machine_id was checked and passed.
    expect(row(0, 'unsupported-argument')).toMatchObject({ checked: 1, findings: 0, not_applicable: 1 });
    expect(row(0, 'result-columns')).toMatchObject({ checked: 0, findings: 0 });
  });

  it('content not captured: every content-reading check is unreachable with the reason, never a pass', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const core = new FootprintCore({ declarations: decl });
    const result = core.process({ spans, logs: [] }); // a span-only pipeline: the content was in logs
    // The chat content is gone, but the app's execute_tool spans still carry arguments and results:
    // the write seam still works (backup_status returned [] for a value backup_jobs served).
    expect(result.findings.map((f) => f.kind)).toEqual(['empty-lookup']);
    const d = disposition(core, spans, result);
    const row = (check: string) => d[1]!.checks.find((c: { check: string }) => c.check === check);
    // Thirteen checks' reasons fit the 2,000-byte bound with their zero counts left out (a missing count reads 0).
    expect(row('unsupported-argument')).toMatchObject({ unreachable: 2, unreachable_reasons: { 'message content was not captured': 2 } });
    expect(row('unsupported-argument').checked ?? 0).toBe(0);
    expect(row('unsupported-argument').findings ?? 0).toBe(0);
    expect(row('dangling-reference')).toMatchObject({ unreachable: 2 });
    expect(row('dangling-reference').checked ?? 0).toBe(0);
    expect(d[1]!.summary).toContain('could not run: message content was not captured');
  });

  it('log records arriving after their spans were forwarded: the finding comes on a carrier span', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const core = new FootprintCore({ declarations: decl });
    const first = core.process({ spans });
    expect(first.findings.map((f) => f.kind)).toEqual(['empty-lookup']);
    const late = core.process({ spans: [], logs: doc.logs });
    expect(late.findings.map((f) => f.kind)).toEqual(['unsupported-argument']);
    expect(late.annotations.size).toBe(0);
    // The finding's carrier, parented to the chat span that chose the call; the answers' standings
    // (now that their content is known) ride carriers of the final chat spans.
    const c = late.carriers.find((x) => x.events.some((e) => e.name === 'footprint.finding'))!;
    expect(c.parentSpanId).toBe(late.findings[0]!.span.spanId);
    expect(c.traceId).toBe(late.findings[0]!.span.traceId);
    expect(c.name).toBe('footprint.findings');
    // The finding, then its standard gen_ai.evaluation.result (evaluationEvents defaults to findings).
    expect(c.events.map((e) => e.name)).toEqual(['footprint.finding', 'gen_ai.evaluation.result']);
    expect(c.attributes['footprint.subject.span_id']).toBe(late.findings[0]!.span.spanId);
    expect(late.carriers.flatMap((x) => x.events.map((e) => e.name)).sort()).toEqual([
      'footprint.answer.standing',
      'footprint.answer.standing',
      'footprint.disposition',
      'footprint.disposition',
      'footprint.finding',
      'gen_ai.evaluation.result',
    ]);
    // Each turn's disposition is written again, superseding the one written without content: the
    // choice check now ran, and nothing is left counted as "not captured" (nor counted twice).
    const turnSpans = new Set(spans.filter((s) => s.name.startsWith('invoke_agent')).map((s) => s.spanId));
    const updated = late.carriers.filter((x) => turnSpans.has(x.parentSpanId!)).map((x) => x.events.find((e) => e.name === 'footprint.disposition')!);
    expect(updated).toHaveLength(2);
    const rows = updated.map((e) => (JSON.parse(String(e.attributes['footprint.disposition.checks'])) as { check: string; checked: number; unreachable: number; findings: number }[]).find((r) => r.check === 'unsupported-argument')!);
    expect(rows.map((r) => [r.checked, r.unreachable]).sort()).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect(rows.map((r) => r.findings).sort()).toEqual([0, 1]);
    expect(updated.map((e) => String(e.attributes['footprint.disposition.summary']))).toEqual([
      expect.stringMatching(/on 3 LLM requests/),
      expect.stringMatching(/on 2 LLM requests/),
    ]);
  });

  it('log records arriving before their spans are kept and joined when the spans come', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const core = new FootprintCore({ declarations: decl });
    expect(core.process({ spans: [], logs: doc.logs }).findings).toEqual([]);
    const r = core.process({ spans: doc.spans.map((s) => s.span) });
    expect(ua(r.findings)).toHaveLength(1);
    expect(r.carriers).toEqual([]);
  });

  it('a retried batch gets the same additions and is not analysed twice', () => {
    const { doc } = loadFixture('vercel-ai-v7-otel', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const core = new FootprintCore({ declarations: decl });
    const first = core.process({ spans });
    expect(first.findings.length).toBeGreaterThan(0);
    // The same batch again (an exporter retrying after a failed downstream export): the spans get
    // exactly the same additions, and nothing is analysed or reported twice.
    const requestsBefore = core.traceInfoOf(spans[0]!.traceId, tenantOfResource(spans[0]!.resource, 'service.name'))!.llmRequests;
    const again = core.process({ spans });
    expect(again.findings).toHaveLength(0);
    const sorted = (m: Map<string, unknown>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
    expect(sorted(again.annotations)).toEqual(sorted(first.annotations));
    expect(core.traceInfoOf(spans[0]!.traceId, tenantOfResource(spans[0]!.resource, 'service.name'))!.llmRequests).toBe(requestsBefore);
  });

  it('turns processed one span at a time (in-process order: starts noted, ends processed) give the same finding', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const timeline = [
      ...spans.map((s) => ({ t: s.startTimeUnixNano, end: false, s })),
      ...spans.map((s) => ({ t: s.endTimeUnixNano, end: true, s })),
    ].sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
    const core = new FootprintCore({ declarations: decl });
    const all = ua(timeline.flatMap((x) => {
      if (!x.end) {
        core.noteSpanStart(x.s);
        return [];
      }
      return core.process({ spans: [x.s] }).findings;
    }));
    expect(all.map((f) => [f.toolName, f.predicate, f.grounding])).toEqual([['backup_status', 'args.machine_id', 'assistant-only']]);
    expect(all[0]!.message).toContain('It was served earlier in this conversation');
  });

  it('isolation: state of one tenant never reaches another with the same conversation id', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const retenant = (tenant: string, turn: 1 | 2) => {
      const traces = [...new Set(spans.map((s) => s.traceId))];
      return spans.filter((s) => s.traceId === traces[turn - 1]).map((s) => ({ ...s, resource: { ...s.resource, 'service.name': tenant } }));
    };
    const core = new FootprintCore({ declarations: decl });
    core.process({ spans: retenant('tenant-a', 1) });
    const b = core.process({ spans: retenant('tenant-b', 2) });
    expect(ua(b.findings)).toHaveLength(1);
    // Nor does tenant A's ledger: with no earlier producer result, empty-lookup cannot say "served earlier".
    expect(b.findings.filter((f) => f.kind === 'empty-lookup')).toEqual([]);
    // Tenant A's turn 1 served the job name; tenant B's conversation never saw it.
    expect(b.findings[0]!.message).not.toContain('served earlier');
  });

  it('pass-through (checks off) reads but annotates nothing', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const r = new FootprintCore({ declarations: decl, checks: false }).process({ spans: doc.spans.map((s) => s.span) });
    expect(r.findings).toEqual([]);
    expect(r.annotations.size).toBe(0);
  });

  it('bounds conversation state and counts what it evicted', () => {
    const { doc } = loadFixture('traceloop-openai', 'clean-control');
    const core = new FootprintCore({ declarations: decl, limits: { maxConversations: 3 } });
    const spans = doc.spans.map((s) => s.span);
    for (let i = 0; i < 10; i++) {
      const conv = `conv-${i}`;
      const traceId = i.toString(16).padStart(32, '0');
      core.process({ spans: spans.map((s) => ({ ...s, traceId, attributes: s.attributes['gen_ai.conversation.id'] ? { ...s.attributes, 'gen_ai.conversation.id': conv } : s.attributes })) });
    }
    const st = core.stats();
    expect(st.conversations).toBeLessThanOrEqual(3);
    expect(st.evictedConversations).toBeGreaterThanOrEqual(7);
  });

  it('never throws on garbage spans', () => {
    const core = new FootprintCore({ declarations: decl });
    const bad = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'chat x', kind: 3, startTimeUnixNano: 0n, endTimeUnixNano: 0n, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': '{not json', 'gen_ai.output.messages': '[{"role":"assistant","parts":[{"type":"tool_call","name":"backup_status","arguments":{"machine_id":"x'.repeat(1) + '"}}]}]' }, events: [], status: { code: 0 as const }, resource: {}, scope: { name: 'x' } } satisfies SpanData;
    const r = core.process({ spans: [bad] });
    expect(r.diagnostics.some((d) => d.code === 'attribute.json-invalid')).toBe(true);
  });
});

describe('regression: a conversation learned late', () => {
  it('requests kept under their trace move into the conversation when its id arrives', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const traces = [...new Set(spans.map((s) => s.traceId))];
    const core = new FootprintCore({ declarations: decl });
    // Turn 1's chat spans first (no conversation id on them), then its invoke_agent, then turn 2 whole.
    const turn1 = spans.filter((s) => s.traceId === traces[0]);
    core.process({ spans: turn1.filter((s) => !s.name.startsWith('invoke_agent')) });
    core.process({ spans: turn1.filter((s) => s.name.startsWith('invoke_agent')) });
    const r = core.process({ spans: spans.filter((s) => s.traceId === traces[1]) });
    expect(ua(r.findings)).toHaveLength(1);
    expect(ua(r.findings)[0]!.message).toContain('It was served earlier in this conversation (tool result of backup_jobs (call call_bt_002), served to request 3)');
  });
});

describe('unit: windows the core cannot judge are unreachable, with the reason', () => {
  const chat = (input: unknown[], output: unknown): SpanData => ({
    traceId: 'c'.repeat(32),
    spanId: 'd'.repeat(16),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.input.messages': JSON.stringify(input),
      'gen_ai.output.messages': JSON.stringify(output),
    },
    events: [],
    status: { code: 0 },
    resource: { 'service.name': 'agent' },
    scope: { name: 'test' },
  });
  const choose = [{ role: 'assistant', finish_reason: 'tool_call', parts: [{ type: 'tool_call', id: 'c1', name: 'backup_status', arguments: { machine_id: 'ghost-0001' } }] }];
  const user = (i: number) => ({ role: 'user', parts: [{ type: 'text', content: `message ${i}` }] });

  it('a window cut at maxMessagesPerRequest is not judged', () => {
    const core = new FootprintCore({ declarations: decl, limits: { maxMessagesPerRequest: 5 } });
    const r = core.process({ spans: [chat(Array.from({ length: 8 }, (_, i) => user(i)), choose)] });
    expect(r.findings).toEqual([]);
    const t = core.talliesOf('c'.repeat(32), 'agent')[0]!;
    expect(t.unreachable).toBe(1);
    expect(Object.keys(t.unreachableReasons)[0]).toContain('more than 5 messages');
  });
  it('the same window under the bound is judged (the fence works both ways)', () => {
    const core = new FootprintCore({ declarations: decl, limits: { maxMessagesPerRequest: 50 } });
    const r = core.process({ spans: [chat(Array.from({ length: 8 }, (_, i) => user(i)), choose)] });
    expect(r.findings.map((f) => f.grounding)).toEqual(['nowhere']);
  });
});

describe('unit: a turn with agent spans but no LLM span says the instrumentation recorded nothing', () => {
  it('request-reading checks are unreachable with the reason; the write seam still runs', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    // As with openai@7: the app's invoke_agent and execute_tool spans, and no chat span.
    const spans = doc.spans.map((s) => s.span).filter((s) => !s.name.startsWith('chat'));
    const core = new FootprintCore({ declarations: decl });
    const result = core.process({ spans });
    const d = disposition(core, spans, result);
    expect(d).toHaveLength(2);
    const row = (check: string) => d[1]!.checks.find((c: { check: string }) => c.check === check);
    expect(Object.keys(row('unsupported-argument').unreachable_reasons)[0]).toMatch(/^the turn has no LLM request span/);
    expect(row('empty-lookup')).toMatchObject({ checked: 1, findings: 1 });
    expect(d[1]!.summary).toContain('could not run');
  });
});

describe('regression: the disposition stays valid JSON under the attribute bound', () => {
  it('long unreachable reasons are shortened, never cut mid-JSON', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span).filter((s) => !s.name.startsWith('chat'));
    const core = new FootprintCore({ declarations: decl });
    const result = core.process({ spans });
    for (const t of spans.filter((s) => s.name.startsWith('invoke_agent'))) {
      const e = result.annotations.get(spanKey(t))!.events.find((x) => x.name === 'footprint.disposition')!;
      const json = String(e.attributes['footprint.disposition.checks']);
      expect(Buffer.byteLength(json)).toBeLessThanOrEqual(2000);
      expect(JSON.parse(json)).toHaveLength(CHECK_CATALOG.length);
    }
  });
});

describe('unit: past its bounds the state says it is incomplete instead of guessing', () => {
  it('an empty lookup whose producers were not kept is unreachable because the state was cut', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    // So small that the producers' results of turn 1 are not kept.
    const core = new FootprintCore({ declarations: decl, limits: { maxBytesPerConversation: 300 } });
    const result = core.process({ spans });
    expect(result.findings.filter((f) => f.kind === 'empty-lookup')).toEqual([]);
    const d = disposition(core, spans, result);
    const row = d[1]!.checks.find((c: { check: string }) => c.check === 'empty-lookup');
    expect(Object.keys(row.unreachable_reasons)).toEqual([expect.stringMatching(/^the conversation's state was cut at its bound/)]);
    // The request-local check does not depend on that history: it still finds the fragment.
    expect(result.findings.filter((f) => f.kind === 'unsupported-argument')).toHaveLength(1);
  });
});

describe('zero delta: inference off and nothing declared', () => {
  it('every recorded trace gains only its dispositions: no finding, no standing, nothing else', () => {
    for (const lib of ['otel-instrumentation-openai', 'otel-instrumentation-openai-responses', 'traceloop-openai', 'openinference-openai', 'vercel-ai', 'vercel-ai-v7-otel'] as const) {
      for (const scenario of ['backup-triage', 'clean-control'] as const) {
        const { doc } = loadFixture(lib, scenario);
        const result = new FootprintCore({ declarations: { tools: {}, inference: false } }).process({ spans: doc.spans.map((s) => s.span), logs: doc.logs });
        expect(result.findings, `${lib} ${scenario}`).toEqual([]);
        expect(result.carriers).toEqual([]);
        const names = [...result.annotations.values()].flatMap((a) => a.events.map((e) => e.name));
        expect(names.every((n) => n === 'footprint.disposition' || n === 'footprint.answer.standing'), `${lib} ${scenario}`).toBe(true);
        expect(names, `${lib} ${scenario}`).toContain('footprint.disposition');
        for (const a of result.annotations.values()) expect(a.attributes).toEqual({});
      }
    }
  });
});

describe('with no declarations: inference arms checks on every recorded instrumentation', () => {
  it('backup-triage gives the fragment id, armed by inference; clean-control gives nothing', () => {
    for (const lib of ['otel-instrumentation-openai', 'otel-instrumentation-openai-responses', 'traceloop-openai', 'openinference-openai', 'vercel-ai', 'vercel-ai-v7-otel'] as const) {
      const triage = loadFixture(lib, 'backup-triage').doc;
      const found = new FootprintCore().process({ spans: triage.spans.map((s) => s.span), logs: triage.logs }).findings;
      // Where tool definitions are recorded, "as returned by list_machines" in the schema also arms dangling-reference.
      const definitions = !lib.startsWith('otel-instrumentation-openai');
      expect(found.map((f) => [f.kind, f.value, f.armedBy]), lib).toEqual([
        ...(definitions ? [['dangling-reference', undefined, 'inferred']] : []),
        ['unsupported-argument', 'db-primary-full', 'inferred'],
      ]);
      const clean = loadFixture(lib, 'clean-control').doc;
      expect(new FootprintCore().process({ spans: clean.spans.map((s) => s.span), logs: clean.logs }).findings, lib).toEqual([]);
    }
  });

  it('the disposition names the checks inference armed; with declarations, only those beyond them', () => {
    const { doc } = loadFixture('traceloop-openai', 'backup-triage');
    const inferredOf = (core: FootprintCore) =>
      [...core.process({ spans: doc.spans.map((s) => s.span), logs: doc.logs }).annotations.values()]
        .flatMap((a) => a.events)
        .filter((e) => e.name === 'footprint.disposition')
        .map((e) => e.attributes['footprint.disposition.inferred']);
    expect(new Set(inferredOf(new FootprintCore()))).toEqual(
      new Set(['dangling-reference, unsupported-argument, argument-schema, repeated-call, empty-lookup, unsupported-value, prior-turn-evidence, refusal-asserts-absence, count-mismatch, status-contradiction, unconfirmed-action']),
    );
    // The fixture's declarations carry input schemas (argument-schema is declared); no tool is declared a write.
    expect(new Set(inferredOf(new FootprintCore({ declarations: decl })))).toEqual(new Set(['repeated-call, unsupported-value, prior-turn-evidence, count-mismatch, status-contradiction, unconfirmed-action']));
  });
});

describe('regression: a request that ends after its turn span', () => {
  it('gets the turn disposition written again on a carrier, counting every request', () => {
    // In the official-instrumentation recording, turn 1's third chat span ends after its invoke_agent.
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const byEnd = [...spans].sort((a, b) => (a.endTimeUnixNano < b.endTimeUnixNano ? -1 : 1));
    const core = new FootprintCore({ declarations: decl });
    for (const s of spans) core.noteSpanStart(s);
    const carriers = byEnd.flatMap((s) => {
      const logs = doc.logs.filter((l) => l.spanId === s.spanId);
      return core.process({ spans: [s], logs }).carriers;
    });
    const turn1 = spans.find((s) => s.name.startsWith('invoke_agent') && s.endTimeUnixNano < spans.find((c) => c.name.startsWith('chat') && c.traceId === s.traceId && c.endTimeUnixNano > s.endTimeUnixNano)!.endTimeUnixNano)!;
    const again = carriers.filter((c) => c.parentSpanId === turn1.spanId).flatMap((c) => c.events.filter((e) => e.name === 'footprint.disposition'));
    expect(again).toHaveLength(1);
    expect(String(again[0]!.attributes['footprint.disposition.summary'])).toMatch(/on 3 LLM requests/);
  });
});
