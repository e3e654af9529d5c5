// Two standards read from fixtures built by test/fixtures/standards-build.mjs (no package in this
// stack writes them yet): MCP `tools/call {tool}` spans per the MCP semantic conventions (no model
// call id: joined by trace and tool name, and read once when an app's tool span wraps them), and
// what the collector's genainormalizer forwards for OpenInference and OpenLLMetry recordings.
// Each is checked against the recording it was built from: the same findings on the same calls.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FootprintCore } from '../../src/runs/footprint.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { readSpan } from '../../src/conventions/registry.js';
import { resolveLimits } from '../../src/limits.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import type { Declarations } from '../../src/declarations/types.js';
import type { SpanData } from '../../src/model/telemetry.js';
import type { Finding } from '../../src/model/finding.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
// @ts-expect-error: a plain .mjs build script without types
import { genaiNormalizer, mcpSemconv } from '../fixtures/standards-build.mjs';

const BUILD = join(FIXTURES_DIR, 'standards-build.mjs');
const decl = (): Declarations => {
  const d = loadDeclarationsFile(join(FIXTURES_DIR, 'declarations.yaml'));
  if (!d.ok) throw new Error(d.errors.join('; '));
  return d.declarations;
};
const rawOf = (folder: string, scenario: string) => JSON.parse(readFileSync(join(FIXTURES_DIR, folder, `${scenario}.otlp.json`), 'utf8')) as unknown;
const spansOf = (doc: unknown): SpanData[] => decodeOtlpJsonText(JSON.stringify(doc), 'doc').spans.map((s) => s.span);
const key = (f: Finding) => `${f.kind} ${f.span.spanId} ${f.toolCallId ?? '-'} ${f.predicate}`;

function run(spans: SpanData[], declarations: Declarations = decl(), batches: SpanData[][] = [spans]) {
  const core = new FootprintCore({ declarations });
  // As in-process: each span's start is seen before any span ends (the turn's conversation id first).
  if (batches.length > 1) for (const s of [...spans].sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1))) core.noteSpanStart(s);
  const findings: Finding[] = [];
  const diagnostics: string[] = [];
  for (const b of batches) {
    const r = core.process({ spans: b });
    findings.push(...r.findings);
    diagnostics.push(...r.diagnostics.map((d) => d.code));
  }
  const traceIds = [...new Set(spans.map((s) => s.traceId))];
  return { findings, diagnostics, core, traceIds };
}

describe('the committed fixtures are what standards-build.mjs writes', () => {
  it('mcp-semconv/ and genainormalizer/ byte for byte', () => {
    const out = mkdtempSync(join(tmpdir(), 'fp-standards-'));
    try {
      execFileSync(process.execPath, [BUILD, '--out', out]);
      for (const folder of ['mcp-semconv', 'genainormalizer', join('genainormalizer', 'openinference-openai'), join('genainormalizer', 'traceloop-mcp')]) {
        for (const f of readdirSync(join(FIXTURES_DIR, folder)).filter((x) => x.endsWith('.json'))) {
          expect(readFileSync(join(out, folder, f), 'utf8'), `${folder}/${f}`).toBe(readFileSync(join(FIXTURES_DIR, folder, f), 'utf8'));
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('MCP tools/call spans (the MCP semantic conventions)', () => {
  it('the reader: CLIENT tools/call spans only; the CallToolResult read as its text; isError is a failed call', () => {
    const spans = spansOf(rawOf('mcp-semconv', 'backup-triage'));
    const calls = spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call');
    expect(calls.map((s) => s.name)).toEqual(['tools/call list_machines', 'tools/call backup_jobs', 'tools/call backup_status']);
    const ctx = { limits: resolveLimits({}), diagnostics: new DiagnosticList(), tenantAttribute: 'service.name' };
    const [ev] = readSpan(calls[1]!, ctx);
    expect(ev).toMatchObject({ kind: 'tool-execution', convention: 'mcp-semconv', toolName: 'backup_jobs', arguments: { machine_id: 'srv-db-04' }, status: 'unset' });
    expect(ev).not.toHaveProperty('callId');
    expect((ev as { result: unknown }).result).toEqual([{ job: 'nightly-db-primary-full', status: 'ok' }, { job: 'hourly-db-primary-wal', status: 'ok' }]);
    // The server's side of the same call is not read; nor is another method.
    expect(readSpan({ ...calls[1]!, kind: 2 }, ctx)).toEqual([]);
    expect(readSpan({ ...calls[1]!, name: 'tools/list', attributes: { 'mcp.method.name': 'tools/list' } }, ctx)).toEqual([]);
    // A result that says isError, with error.type left unset: a failed call, its text the message.
    const failed = { ...calls[2]!, attributes: { ...calls[2]!.attributes, 'gen_ai.tool.call.result': JSON.stringify({ isError: true, content: [{ type: 'text', text: 'permission denied for db-primary-full' }] }) } };
    expect(readSpan(failed, ctx)[0]).toMatchObject({ status: 'error', errorMessage: 'permission denied for db-primary-full' });
    // The convention's own error form: error.type tool_error and status ERROR, no result (it is recorded only on success).
    const { 'gen_ai.tool.call.result': _r, ...noResult } = calls[2]!.attributes;
    expect(readSpan({ ...calls[2]!, attributes: { ...noResult, 'error.type': 'tool_error' }, status: { code: 2 } }, ctx)[0]).toMatchObject({ status: 'error', errorMessage: 'tool_error', result: undefined });
    expect(ctx.diagnostics.items).toEqual([]);
  });

  it('backup-triage: the same findings on the same calls as the recording it was built from; each call joined to the model\'s by tool name', () => {
    const mcp = run(spansOf(rawOf('mcp-semconv', 'backup-triage')));
    const recorded = run(spansOf(rawOf('traceloop-mcp', 'backup-triage')));
    expect(mcp.findings.map(key).sort()).toEqual(recorded.findings.map(key).sort());
    expect(mcp.findings.map((f) => f.kind).sort()).toEqual(['dangling-reference', 'empty-lookup', 'unsupported-argument']);
    // The empty lookup rides the MCP span itself, and names the model's call it answered.
    const empty = mcp.findings.find((f) => f.kind === 'empty-lookup')!;
    expect(empty.toolCallId).toBe('call_bt_003');
    expect(spansOf(rawOf('mcp-semconv', 'backup-triage')).find((s) => s.spanId === empty.span.spanId)!.name).toBe('tools/call backup_status');
    expect(run(spansOf(rawOf('mcp-semconv', 'clean-control'))).findings).toEqual([]);
  });

  it('an app tool span wrapping each MCP call: read once, whichever arrives first (batch or span by span)', () => {
    const recorded = spansOf(rawOf('traceloop-mcp', 'backup-triage')).filter((s) => !s.scope.name.includes('instrumentation-mcp'));
    const mcpCalls = spansOf(rawOf('mcp-semconv', 'backup-triage')).filter((s) => s.attributes['mcp.method.name'] === 'tools/call');
    // Each MCP call as the child of the app's execute_tool span of the same call (a new span id).
    const children = mcpCalls.map((m) => ({ ...m, spanId: `${m.spanId.slice(0, 12)}beef`, parentSpanId: m.spanId }));
    const baseline = run(recorded).findings.map(key).sort();
    // One batch: the parent starts first, so the app's span (with its call id) is read.
    const batch = run([...recorded, ...children]);
    expect(batch.findings.map(key).sort()).toEqual(baseline);
    expect(batch.diagnostics.filter((c) => c === 'mcp.same-call')).toHaveLength(3);
    // In-process order: the child ends (and is read) before its parent, which is then not read.
    const order = [...recorded, ...children].sort((a, b) => (a.endTimeUnixNano < b.endTimeUnixNano ? -1 : a.endTimeUnixNano > b.endTimeUnixNano ? 1 : a.parentSpanId === b.spanId ? -1 : 1));
    const spanBySpan = run(order, decl(), order.map((s) => [s]));
    const call = (f: Finding) => `${f.kind} ${f.toolCallId ?? '-'} ${f.predicate}`;
    expect(spanBySpan.findings.map(call).sort()).toEqual(run(recorded).findings.map(call).sort());
    // ...and the empty lookup then rides the MCP span, the one read.
    expect(spanBySpan.findings.find((f) => f.kind === 'empty-lookup')!.span.spanId).toMatch(/beef$/);
    expect(spanBySpan.diagnostics.filter((c) => c === 'mcp.same-call')).toHaveLength(3);
  });

  it('a refused MCP read (error.type tool_error) then "no backup record": refusal-asserts-absence', () => {
    const doc = rawOf('mcp-semconv', 'backup-triage') as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string }[]; status?: unknown }[] }[] }[] };
    for (const rs of doc.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const s of ss.spans) {
          if (s.name !== 'tools/call backup_status') continue;
          s.attributes = [...s.attributes.filter((a) => a.key !== 'gen_ai.tool.call.result'), { key: 'error.type', value: { stringValue: 'tool_error' } } as never];
          s.status = { code: 2, message: 'permission denied' };
        }
      }
    }
    const declarations = { ...decl(), tools: { ...decl().tools, backup_status: { ...decl().tools.backup_status, readOnly: true } } };
    const r = run(spansOf(doc), declarations);
    expect(r.findings.map((f) => f.kind)).toContain('refusal-asserts-absence');
    expect(r.findings.map((f) => f.kind)).not.toContain('empty-lookup');
  });
});

describe('genainormalizer output (OpenInference and OpenLLMetry rewritten into gen_ai.*)', () => {
  it('openinference-openai, originals removed: the same findings; tool definitions still read (left as llm.tools.*)', () => {
    const normalised = spansOf(rawOf(join('genainormalizer', 'openinference-openai'), 'backup-triage'));
    expect(normalised.some((s) => s.attributes['openinference.span.kind'] !== undefined)).toBe(false);
    expect(normalised.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')).toHaveLength(5);
    const r = run(normalised);
    const recorded = run(spansOf(rawOf('openinference-openai', 'backup-triage')));
    expect(r.findings.map(key).sort()).toEqual(recorded.findings.map(key).sort());
    expect(r.findings.map((f) => f.kind)).toContain('dangling-reference'); // needs the tool definitions
    expect(run(spansOf(rawOf(join('genainormalizer', 'openinference-openai'), 'clean-control'))).findings).toEqual([]);
  });

  it('originals kept (the processor\'s default): both forms on each span, the original read, the same findings', () => {
    for (const folder of ['openinference-openai', 'traceloop-mcp']) {
      const both = spansOf(genaiNormalizer(rawOf(folder, 'backup-triage'), { removeOriginals: false }));
      expect(both.some((s) => s.attributes['gen_ai.operation.name'] === 'chat' && s.attributes['openinference.span.kind'] === 'LLM') || folder !== 'openinference-openai').toBe(true);
      const recorded = run(spansOf(rawOf(folder, 'backup-triage')));
      const r = run(both);
      // The traceloop-mcp session's tool spans now say execute_tool: read in their own trace too.
      const inTurns = (x: typeof r) => x.findings.filter((f) => x.core.traceInfoOf(f.span.traceId, f.tenant!)!.llmRequests > 0).map(key).sort();
      expect(inTurns(r)).toEqual(recorded.findings.map(key).sort());
    }
  });

  it('traceloop-mcp, originals removed: the turns\' findings as recorded; the session\'s MCP tool spans read in their own trace', () => {
    const normalised = spansOf(rawOf(join('genainormalizer', 'traceloop-mcp'), 'backup-triage'));
    const r = run(normalised);
    const recorded = run(spansOf(rawOf('traceloop-mcp', 'backup-triage')));
    const turns = new Set(recorded.findings.map((f) => f.span.traceId));
    expect(r.findings.filter((f) => turns.has(f.span.traceId)).map(key).sort()).toEqual(recorded.findings.map(key).sort());
    // traceloop-mcp parents its calls under the session span (its own trace, no LLM request): the
    // normaliser makes them execute_tool spans, named from the span, arguments and result from
    // traceloop.entity.input / .output; the empty lookup is found there as well, on the MCP span.
    const session = r.findings.filter((f) => !turns.has(f.span.traceId));
    expect(session.map((f) => [f.kind, f.toolName, f.value])).toEqual([['empty-lookup', 'backup_status', 'db-primary-full']]);
    expect(normalised.find((s) => s.spanId === session[0]!.span.spanId)!.name).toBe('backup_status.tool');
    expect(run(spansOf(rawOf(join('genainormalizer', 'traceloop-mcp'), 'clean-control'))).findings).toEqual([]);
  });
});
