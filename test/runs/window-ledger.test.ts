// The ledger from the windows (issue 27): every recorded stack's fixtures read twice, as recorded
// and with their tool-execution spans taken out (an app that instruments only its LLM client). The
// rows, the answer's standings and the findings must be the same; only where the rows were read
// from differs, and the disposition says so. Also: a span that arrives after its window row
// replaces it (one row, counted once), and a tool declared with argumentsFrom only whose call was
// refused cannot back "the user has no …".
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { decodeOtlpJsonText, type DecodedDocument } from '../../src/otlp/json.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { tenantOfResource } from '../../src/model/tenant.js';
import { readSpan } from '../../src/conventions/registry.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { findingIdentity } from '../../src/findings/events.js';
import { canonical } from '../../src/checks/absence-reads.js';
import { declarations } from '../processor/scenario.js';
import type { SpanData } from '../../src/model/telemetry.js';
import type { LedgerRow } from '../../src/model/ledger.js';
import type { Declarations } from '../../src/declarations/types.js';
import {
  ATTR_ANSWER_REASONS,
  ATTR_ANSWER_STANDING,
  ATTR_ANSWER_STATEMENT,
  ATTR_DISPOSITION_LEDGER_SPANS,
  ATTR_DISPOSITION_LEDGER_WINDOWS,
  ATTR_DISPOSITION_SUMMARY,
  EVENT_ANSWER_STANDING,
  EVENT_DISPOSITION,
} from '../../src/findings/names.js';

function load(lib: string, scenario: string): DecodedDocument {
  let doc: DecodedDocument | undefined;
  for (const p of [join(FIXTURES_DIR, lib, `${scenario}.otlp.json`), join(FIXTURES_DIR, lib, `${scenario}.logs.otlp.json`)]) {
    if (existsSync(p)) doc = decodeOtlpJsonText(readFileSync(p, 'utf8'), p, doc);
  }
  return doc!;
}

/** Spans some convention reads as a tool execution (execute_tool, ai.toolCall, OpenInference TOOL, …). */
function isToolExecution(s: SpanData): boolean {
  const evs = readSpan(s, { limits: DEFAULT_LIMITS, diagnostics: new DiagnosticList(), tenantAttribute: 'service.name', logs: [] });
  return evs.some((e) => e.kind === 'tool-execution');
}

interface Run {
  rows: LedgerRow[];
  standings: string[];
  findings: string[];
  dispositions: { summary: string; spans: unknown; windows: unknown }[];
}

function run(spans: SpanData[], logs: DecodedDocument['logs'], decl: Declarations | undefined = declarations()): Run {
  const core = new FootprintCore(decl ? { declarations: decl } : {});
  const r = core.process({ spans, logs });
  const access = core.stateAccess();
  const rows: LedgerRow[] = [];
  const seen = new Set<unknown>();
  for (const key of access.keysOf({ spans })) {
    const s = access.peek(key);
    if (s && !seen.has(s.ledger)) {
      seen.add(s.ledger);
      rows.push(...s.ledger);
    }
  }
  const events = [...r.annotations.values()].flatMap((a) => a.events).concat(r.carriers.flatMap((c) => c.events));
  return {
    rows,
    standings: events.filter((e) => e.name === EVENT_ANSWER_STANDING).map((e) => JSON.stringify([e.attributes[ATTR_ANSWER_STANDING], e.attributes[ATTR_ANSWER_REASONS], e.attributes[ATTR_ANSWER_STATEMENT]])),
    findings: r.findings.map((f) => `${f.span.traceId} ${findingIdentity(f)}`).sort(),
    dispositions: events
      .filter((e) => e.name === EVENT_DISPOSITION)
      .map((e) => ({ summary: String(e.attributes[ATTR_DISPOSITION_SUMMARY]), spans: e.attributes[ATTR_DISPOSITION_LEDGER_SPANS], windows: e.attributes[ATTR_DISPOSITION_LEDGER_WINDOWS] })),
  };
}

/** A standing with its statement's sentences sorted. */
function clauses(standing: string): unknown {
  const [value, reasons, statement] = JSON.parse(standing) as [string, string[], string];
  return [value, reasons, statement.split(/(?<=\.) (?=')/).sort()];
}

const rowView = (r: LedgerRow) => ({ callId: r.callId, tool: r.toolName, trace: r.traceId, request: r.request, args: canonical(r.arguments), result: canonical(r.result), outcome: r.outcome, emptiness: r.reading.emptiness });

// Stacks whose windows carry tool-call ids and whose recordings hold tool-execution spans.
const STACKS = [
  'otel-instrumentation-openai',
  'otel-instrumentation-openai-responses',
  'traceloop-openai',
  'openinference-openai',
  'vercel-ai',
  'vercel-ai-v7-otel',
  'traceloop-anthropic',
  'openinference-anthropic',
  'vercel-ai-anthropic',
  'openinference-langchain',
  'python-openllmetry-openai',
  'python-openinference-openai',
];

describe('the ledger from the windows: each stack with and without its tool-execution spans', () => {
  for (const lib of STACKS) {
    for (const scenario of ['backup-triage', 'clean-control']) {
      if (!existsSync(join(FIXTURES_DIR, lib, `${scenario}.otlp.json`))) continue;
      it(`${lib} ${scenario}: same rows, standings and findings; the rows read from the windows, and the disposition says so`, () => {
        const doc = load(lib, scenario);
        const all = doc.spans.map((d) => d.span);
        const llmOnly = all.filter((s) => !isToolExecution(s));
        expect(llmOnly.length, 'the recording has tool-execution spans to take out').toBeLessThan(all.length);
        const withSpans = run(all, doc.logs);
        const fromWindows = run(llmOnly, doc.logs);
        expect(withSpans.rows.length).toBeGreaterThan(0);
        expect(withSpans.rows.every((r) => r.source === 'span')).toBe(true);
        expect(fromWindows.rows.every((r) => r.source === 'window')).toBe(true);
        // Parallel calls: the spans' order is the order they ran, the window's the order their
        // results were sent back; the same rows either way.
        const byCall = (rows: LedgerRow[]) => rows.map(rowView).sort((a, b) => String(a.callId).localeCompare(String(b.callId)));
        expect(byCall(fromWindows.rows)).toEqual(byCall(withSpans.rows));
        // The standing's clauses follow the rows' order: the same clauses, however ordered.
        expect(fromWindows.standings.map(clauses)).toEqual(withSpans.standings.map(clauses));
        expect(fromWindows.findings).toEqual(withSpans.findings);
        const windowed = fromWindows.dispositions.filter((d) => d.windows !== undefined);
        expect(windowed.length).toBeGreaterThan(0);
        for (const d of windowed) {
          expect(d.spans).toBe(0);
          expect(d.summary).toMatch(/tool calls? read from the request windows \(no execute_tool span recorded (it|them)\)\.$/);
        }
        expect(fromWindows.dispositions.reduce((n, d) => n + Number(d.windows ?? 0), 0)).toBe(fromWindows.rows.length);
        expect(withSpans.dispositions.reduce((n, d) => n + Number(d.spans ?? 0), 0)).toBe(withSpans.rows.length);
      });
    }
  }

  it('traceloop-langchain: its chat spans record no tool call and no call id (its own execute_tool spans do): without those spans no row is read, none invented', () => {
    const doc = load('traceloop-langchain', 'backup-triage');
    const all = doc.spans.map((d) => d.span);
    expect(run(all, doc.logs).rows.length).toBe(3);
    expect(run(all.filter((s) => !isToolExecution(s)), doc.logs).rows).toEqual([]);
  });

  it('traceloop-anthropic refused-read: the failure is on the app span only (Traceloop drops is_error), so without it the window row reads as run', () => {
    const doc = load('traceloop-anthropic', 'refused-read');
    const all = doc.spans.map((d) => d.span);
    const withSpans = run(all, doc.logs);
    const fromWindows = run(all.filter((s) => !isToolExecution(s)), doc.logs);
    expect(withSpans.rows.find((r) => r.callId === 'call_rr_003')!.outcome).toBe('failed');
    expect(fromWindows.rows.find((r) => r.callId === 'call_rr_003')!.outcome).toBe('ran');
    expect(withSpans.findings.some((f) => f.includes('refusal-asserts-absence'))).toBe(true);
    expect(fromWindows.findings.some((f) => f.includes('refusal-asserts-absence'))).toBe(false);
  });

  it('openinference-anthropic refused-read: the request body keeps is_error, so the window row fails and the refusal is found without the app span', () => {
    const doc = load('openinference-anthropic', 'refused-read');
    const all = doc.spans.map((d) => d.span);
    const withSpans = run(all, doc.logs);
    const fromWindows = run(all.filter((s) => !isToolExecution(s)), doc.logs);
    const row = fromWindows.rows.find((r) => r.callId === 'call_rr_003')!;
    expect(row).toMatchObject({ source: 'window', outcome: 'failed', errorMessage: expect.stringContaining('maintenance window') });
    expect(fromWindows.findings).toEqual(withSpans.findings);
    expect(fromWindows.findings.filter((f) => f.includes('refusal-asserts-absence'))).toHaveLength(1);
  });
});

describe('a span row wins over a window row of the same call', () => {
  it('the execute_tool spans arriving in a later call than the requests replace the window rows: one row per call, each counted once', () => {
    const doc = load('traceloop-openai', 'backup-triage');
    const all = doc.spans.map((d) => d.span);
    const tools = all.filter(isToolExecution);
    const core = new FootprintCore({ declarations: declarations() });
    core.process({ spans: all.filter((s) => !isToolExecution(s)) });
    core.process({ spans: tools });
    const access = core.stateAccess();
    const state = access.peek(access.keysOf({ spans: all }).find((k) => access.peek(k)?.ledger.length)!)!;
    expect(state.ledger.map((r) => r.source)).toEqual(tools.map(() => 'span'));
    expect(new Set(state.ledger.map((r) => r.callId)).size).toBe(tools.length);
    // Each call's write-seam checks counted once: as many as with the spans in order.
    const inOrder = new FootprintCore({ declarations: declarations() });
    inOrder.process({ spans: all });
    const writes = (c: FootprintCore) =>
      [...new Set(all.map((s) => s.traceId))].flatMap((t) => c.talliesOf(t, tenantOfResource(all[0]!.resource, 'service.name'))).filter((t) => t.seam === 'write').reduce((n, t) => n + t.checked + t.notApplicable + t.unreachable, 0);
    expect(writes(core)).toBe(writes(inOrder));
  });
});
