// Pins the Python rows of the README's compatibility table with the hand-built fixtures of
// test/fixtures/python-*/ (built by test/fixtures/python-build.mjs from the JS recordings and the
// documented differences; nothing there was recorded): the committed files are what the build
// writes; each carries the documented Python shape; every request's window is read as the model was
// sent it (tool results in Python's json.dumps spacing); and `check` gives backup-triage the same
// findings and dispositions as the matching JS stack, the clean control none, each saying what
// the stack does not record.
import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck } from '../../src/cli/check.js';
import { decodeOtlpJsonText, type DecodedDocument } from '../../src/otlp/json.js';
import { readSpan } from '../../src/conventions/registry.js';
import { groupLogsBySpan } from '../../src/conventions/log-join.js';
import { DiagnosticList } from '../../src/model/diagnostics.js';
import { spanKey, type SpanData } from '../../src/model/telemetry.js';
import { buildFrame } from '../../src/runs/frame.js';
import { readWindowAttribute } from '../../src/conventions/genai-window.js';
import { readMessagesAttribute, type GenAiScope } from '../../src/conventions/genai-parts.js';
import type { PriorWindow, WindowMemo } from '../../src/conventions/types.js';
import { DEFAULT_LIMITS, resolveLimits } from '../../src/limits.js';
import type { LlmRequest, Message, ModelEvent, ToolExecution } from '../../src/model/agent.js';
import { FIXTURES_DIR, type Expected } from '../helpers/fixtures.js';

interface PythonStack {
  folder: string;
  /** The JS recording it was derived from (same conversation, ids and times). */
  js: string;
  toolDefinitions: boolean;
  /** Library scope and schema URL the Python package writes. */
  scope: string;
  schemaUrl?: string;
  /** The LLM span's name and kind. */
  spanName: string;
  kind: number;
}

const STACKS: PythonStack[] = [
  { folder: 'python-openai-v2-logs', js: 'otel-instrumentation-openai', toolDefinitions: false, scope: 'opentelemetry.instrumentation.openai_v2', schemaUrl: 'https://opentelemetry.io/schemas/1.30.0', spanName: 'chat gpt-4o-mini', kind: 3 },
  { folder: 'python-openai-v2-latest-experimental', js: 'otel-instrumentation-openai', toolDefinitions: false, scope: 'opentelemetry.util.genai.handler', schemaUrl: 'https://opentelemetry.io/schemas/1.37.0', spanName: 'chat gpt-4o-mini', kind: 3 },
  { folder: 'python-openinference-openai', js: 'openinference-openai', toolDefinitions: true, scope: 'openinference.instrumentation.openai', spanName: 'ChatCompletion', kind: 1 },
  { folder: 'python-openllmetry-openai', js: 'traceloop-openai', toolDefinitions: true, scope: 'opentelemetry.instrumentation.openai.v1', spanName: 'openai.chat', kind: 3 },
];
const SCENARIOS = ['backup-triage', 'clean-control'] as const;
const DECL = join(FIXTURES_DIR, 'declarations.yaml');
const BUILD = join(FIXTURES_DIR, 'python-build.mjs');
const NOT_RECORDED = 'tool definitions were not recorded';

const filesOf = (dir: string, scenario: string) => readdirSync(dir).filter((f) => f === `${scenario}.otlp.json` || f === `${scenario}.logs.otlp.json`).sort().map((f) => join(dir, f));
const pyFiles = (s: PythonStack, scenario: string) => filesOf(join(FIXTURES_DIR, s.folder), scenario);
const jsFiles = (s: PythonStack, scenario: string) => filesOf(join(FIXTURES_DIR, s.js), scenario);
const sharedExpected = (scenario: string) => JSON.parse(readFileSync(join(FIXTURES_DIR, 'otel-instrumentation-openai', `${scenario}.expected.json`), 'utf8')) as Expected;

interface Out {
  findings: Record<string, unknown>[];
  summary: string;
  traces: { disposition: string }[];
}
function check(files: string[]): Out {
  const r = runCheck([...files, '--declarations', DECL, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Out;
}
const findingsOf = (out: Out) => out.findings.map((f) => [f.kind, f.toolName, f.toolCallId ?? null, f.predicate, f.value ?? null, f.advisory === true, f.grounding ?? null]);

// ---------------------------------------------------------------------------------------------
// Raw OTLP/JSON access, for the shape facts

interface KV {
  key: string;
  value: Record<string, unknown>;
}
interface RawSpan {
  name: string;
  kind: number;
  spanId: string;
  attributes: KV[];
  status: { code?: number };
}
interface RawLog {
  eventName?: string;
  timeUnixNano?: string;
  observedTimeUnixNano?: string;
  severityNumber?: number;
  attributes: KV[];
  body?: Record<string, unknown>;
  spanId: string;
}
interface RawScope<T> {
  scope: { name: string; version?: string };
  schemaUrl?: string;
  spans?: T[];
  logRecords?: T[];
}
const raw = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { resourceSpans?: { scopeSpans: RawScope<RawSpan>[] }[]; resourceLogs?: { scopeLogs: RawScope<RawLog>[] }[] };
const spanScopes = (s: PythonStack, scenario: string) => raw(join(FIXTURES_DIR, s.folder, `${scenario}.otlp.json`)).resourceSpans!.flatMap((r) => r.scopeSpans);
const logScopes = (s: PythonStack, scenario: string) => raw(join(FIXTURES_DIR, s.folder, `${scenario}.logs.otlp.json`)).resourceLogs!.flatMap((r) => r.scopeLogs);
const attr = (o: { attributes: KV[] }, key: string) => o.attributes.find((a) => a.key === key)?.value;
const sattr = (o: { attributes: KV[] }, key: string) => attr(o, key)?.stringValue as string | undefined;
const llmSpans = (s: PythonStack, scenario: string) => spanScopes(s, scenario).find((x) => x.scope.name === s.scope)!.spans!;
const toolSpans = (s: PythonStack, scenario: string) => spanScopes(s, scenario).flatMap((x) => x.spans!).filter((sp) => sp.name.startsWith('execute_tool '));

// ---------------------------------------------------------------------------------------------
// Reading through the conventions, as the core does

function readAll(files: string[]): { events: ModelEvent[]; diagnostics: DiagnosticList } {
  let doc: DecodedDocument | undefined;
  for (const f of files) doc = decodeOtlpJsonText(readFileSync(f, 'utf8'), f, doc);
  expect(doc!.diagnostics).toEqual([]);
  const diagnostics = new DiagnosticList();
  const bySpan = groupLogsBySpan(doc!.logs, DEFAULT_LIMITS, diagnostics);
  const events = doc!.spans.flatMap(({ span }) => readSpan(span, { limits: DEFAULT_LIMITS, diagnostics, tenantAttribute: 'service.name', logs: bySpan.get(spanKey(span)) ?? [] }));
  return { events, diagnostics };
}
const requestsOf = (events: ModelEvent[]) => events.filter((e): e is LlmRequest => e.kind === 'llm-request').sort((a, b) => (a.responseId! < b.responseId! ? -1 : 1));

describe('the committed Python fixtures are what python-build.mjs writes', () => {
  it('byte for byte, and no other trace file in those folders', () => {
    const out = mkdtempSync(join(tmpdir(), 'fp-python-build-'));
    execFileSync(process.execPath, [BUILD, '--out', out]);
    for (const s of STACKS) {
      const built = readdirSync(join(out, s.folder)).sort();
      const committed = readdirSync(join(FIXTURES_DIR, s.folder)).filter((f) => f.endsWith('.otlp.json')).sort();
      expect(committed).toEqual(built);
      for (const f of built) expect(readFileSync(join(FIXTURES_DIR, s.folder, f), 'utf8'), `${s.folder}/${f}`).toBe(readFileSync(join(out, s.folder, f), 'utf8'));
      const manifest = JSON.parse(readFileSync(join(FIXTURES_DIR, s.folder, 'manifest.json'), 'utf8')) as { recordedWith: string; derivedFrom: string };
      expect(manifest.recordedWith).toMatch(/^nothing: HAND-BUILT/);
      expect(manifest.derivedFrom).toContain(`test/fixtures/${s.js}/`);
    }
  });
});

describe('each fixture carries its documented Python shape', () => {
  for (const s of STACKS)
    it(`${s.folder}: scope, schema URL, LLM span name and kind; the app's spans unchanged from ${s.js}`, () => {
      for (const scenario of SCENARIOS) {
        const lib = spanScopes(s, scenario).find((x) => x.scope.name === s.scope)!;
        expect(lib.schemaUrl).toBe(s.schemaUrl);
        expect(new Set(lib.spans!.map((sp) => `${sp.name} ${sp.kind}`))).toEqual(new Set([`${s.spanName} ${s.kind}`]));
        // The same app: invoke_agent with the conversation id, execute_tool with compact JSON results.
        const jsTools = raw(join(FIXTURES_DIR, s.js, `${scenario}.otlp.json`)).resourceSpans!.flatMap((r) => r.scopeSpans).flatMap((x) => x.spans!).filter((sp) => sp.name.startsWith('execute_tool '));
        expect(toolSpans(s, scenario).map((sp) => [sp.spanId, sattr(sp, 'gen_ai.tool.call.result')])).toEqual(jsTools.map((sp) => [sp.spanId, sattr(sp, 'gen_ai.tool.call.result')]));
      }
    });

  it('official v2, default mode: the event name in the LogRecord eventName field, no timeUnixNano, no severity; the choice carries role; gen_ai.system', () => {
    const s = STACKS[0]!;
    for (const scenario of SCENARIOS) {
      const [scope] = logScopes(s, scenario);
      expect(scope!.scope.name).toBe(s.scope);
      expect(scope!.schemaUrl).toBe(s.schemaUrl);
      const logs = scope!.logRecords!;
      expect(new Set(logs.map((l) => l.eventName))).toEqual(new Set(['gen_ai.system.message', 'gen_ai.user.message', 'gen_ai.assistant.message', 'gen_ai.tool.message', 'gen_ai.choice']));
      for (const l of logs) {
        expect(attr(l, 'event.name')).toBeUndefined();
        expect(l.timeUnixNano).toBeUndefined();
        expect(l.observedTimeUnixNano).toMatch(/^\d+$/);
        expect(l.severityNumber).toBeUndefined();
      }
      for (const c of logs.filter((l) => l.eventName === 'gen_ai.choice')) expect(JSON.stringify(c.body)).toContain('{"key":"role","value":{"stringValue":"assistant"}}');
      for (const sp of llmSpans(s, scenario)) {
        expect(sattr(sp, 'gen_ai.system')).toBe('openai');
        expect(attr(sp, 'gen_ai.provider.name')).toBeUndefined();
        expect(attr(sp, 'gen_ai.input.messages')).toBeUndefined();
      }
    }
  });

  it('official v2, gen_ai_latest_experimental: GenAI JSON on the span and one details record per request with the same content as structured values', () => {
    const s = STACKS[1]!;
    for (const scenario of SCENARIOS) {
      const spans = llmSpans(s, scenario);
      const logs = logScopes(s, scenario)[0]!.logRecords!;
      expect(logs.map((l) => l.spanId)).toEqual(spans.map((sp) => sp.spanId));
      for (const sp of spans) {
        expect(sattr(sp, 'gen_ai.provider.name')).toBe('openai');
        expect(attr(sp, 'gen_ai.system')).toBeUndefined();
        const log = logs.find((l) => l.spanId === sp.spanId)!;
        expect(log.eventName).toBe('gen_ai.client.inference.operation.details');
        expect(log.body).toBeUndefined();
        expect(attr(log, 'gen_ai.input.messages')!.arrayValue).toBeDefined();
        // The finish reason stays OpenAI's own.
        expect(JSON.parse(sattr(sp, 'gen_ai.output.messages')!)[0].finish_reason).toMatch(/^(tool_calls|stop)$/);
      }
    }
  });

  it("OpenInference: llm.invocation_parameters holds only the model; the tools as llm.tools.N.tool.json_schema", () => {
    const s = STACKS[2]!;
    for (const sp of llmSpans(s, 'backup-triage')) {
      expect(sattr(sp, 'llm.invocation_parameters')).toBe('{"model": "gpt-4o-mini"}');
      expect(JSON.parse(sattr(sp, 'llm.tools.2.tool.json_schema')!).function.name).toBe('backup_status');
      expect(sattr(sp, 'session.id')).toBe('conv-backup-triage-0001');
      expect(sp.status.code).toBe(1);
    }
  });

  it('OpenLLMetry: flat tool definitions, gen_ai.openai.api_base, gen_ai.is_streaming, finish reason tool_call', () => {
    const s = STACKS[3]!;
    const [first] = llmSpans(s, 'backup-triage');
    expect(JSON.parse(sattr(first!, 'gen_ai.tool.definitions')!).map((t: Record<string, unknown>) => Object.keys(t))).toEqual([
      ['type', 'name', 'description', 'parameters'],
      ['type', 'name', 'description', 'parameters'],
      ['type', 'name', 'description', 'parameters'],
    ]);
    expect(sattr(first!, 'gen_ai.openai.api_base')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/$/);
    expect(attr(first!, 'gen_ai.is_streaming')).toEqual({ boolValue: false });
    expect(attr(first!, 'gen_ai.response.finish_reasons')).toEqual({ arrayValue: { values: [{ stringValue: 'tool_call' }] } });
  });
});

/** backup_jobs' result as the Python app sent it: json.dumps, separators ", " and ": ". */
const BACKUP_JOBS_PY = '[{"job": "nightly-db-primary-full", "status": "ok"}, {"job": "hourly-db-primary-wal", "status": "ok"}]';
const BACKUP_JOBS_JS = '[{"job":"nightly-db-primary-full","status":"ok"},{"job":"hourly-db-primary-wal","status":"ok"}]';

describe('every request is read as the model was sent it', () => {
  for (const s of STACKS)
    for (const scenario of SCENARIOS)
      it(`${s.folder} ${scenario}: one request per expected request; served and written strings, chosen calls, tools and executions`, () => {
        const expected = sharedExpected(scenario);
        const { events, diagnostics } = readAll(pyFiles(s, scenario));
        expect(diagnostics.items).toEqual([]);
        const requests = requestsOf(events);
        expect(requests.map((r) => r.responseId)).toEqual(expected.requests.map((r) => `chatcmpl-${scenario}-${String(r.request).padStart(3, '0')}`));
        requests.forEach((req, i) => {
          const exp = expected.requests[i]!;
          expect(req.inputContent).toBe('captured');
          expect(req.outputContent).toBe('captured');
          const frame = buildFrame(req);
          const served = frame.served.filter((x) => x.source !== 'tool-schema');
          expect(served.map((x) => [x.source, x.callId ?? null])).toEqual(exp.served.map((x) => [x.source, x.callId ?? null]));
          served.forEach((x, k) => {
            const e = exp.served[k]!;
            if (x.source !== 'tool-result') expect(x.text).toBe(e.text);
            else {
              // The same JSON as the JS app's, in Python's spacing (only "[]" reads the same).
              expect(JSON.parse(x.text)).toEqual(JSON.parse(e.text));
              if (e.text !== '[]') expect(x.text).not.toBe(e.text);
            }
          });
          expect(frame.written.map((w) => [w.source, w.text])).toEqual(exp.written.map((w) => [w.source, w.text]));
          expect(req.toolCalls).toEqual(exp.response.toolCalls ?? []);
          expect(req.outputText.join('')).toBe(exp.response.text ?? '');
          if (s.toolDefinitions) expect(req.toolDefinitions?.map((d) => d.name)).toEqual(['list_machines', 'backup_jobs', 'backup_status']);
          else expect(req.toolDefinitions).toBeUndefined();
        });
        // The window holds json.dumps' spacing; the execute_tool span keeps the compact JSON.
        const jobs = requests.flatMap((r) => buildFrame(r).served).find((x) => x.source === 'tool-result' && x.toolName === 'backup_jobs');
        expect(jobs?.text).toBe(BACKUP_JOBS_PY);
        const execs = events.filter((e): e is ToolExecution => e.kind === 'tool-execution');
        expect(execs.map((e) => e.callId).sort()).toEqual(expected.toolCalls.map((c) => c.id).sort());
        for (const c of expected.toolCalls) expect(execs.find((e) => e.callId === c.id)!.result).toEqual(JSON.parse(c.result));
        if (scenario === 'backup-triage') expect(toolSpans(s, scenario).map((sp) => sattr(sp, 'gen_ai.tool.call.result'))).toContain(BACKUP_JOBS_JS);
      });
});

describe("OpenLLMetry's json.dumps windows (\", \" between items) are reused by the window memo like compact ones", () => {
  it('each request reuses the messages the previous one held (same objects) and reads what a full read gives', () => {
    const limits = resolveLimits({});
    let prior: PriorWindow | undefined;
    const memo: WindowMemo = { prior: () => prior, remember: (w) => void (prior = w) };
    const reused: string[] = [];
    let last: Message[] | undefined;
    for (const sp of llmSpans(STACKS[3]!, 'backup-triage')) {
      const rawWindow = sattr(sp, 'gen_ai.input.messages')!;
      expect(rawWindow).toContain('}]}, {"role": ');
      const scope = (diagnostics: DiagnosticList): GenAiScope => ({ span: { traceId: 'ab'.repeat(16), spanId: sp.spanId, name: sp.name } as SpanData, limits, diagnostics });
      const a = new DiagnosticList();
      const b = new DiagnosticList();
      const withMemo = readWindowAttribute(rawWindow, 'gen_ai.input.messages', scope(a), memo)!;
      expect(withMemo).toEqual(readMessagesAttribute(rawWindow, 'gen_ai.input.messages', scope(b)));
      expect(a.items).toEqual([]);
      expect(b.items).toEqual([]);
      if (last && withMemo[0] === last[0]) reused.push(sattr(sp, 'gen_ai.response.id')!);
      last = withMemo;
    }
    // Every window after the first reuses the messages it shares with the one before; turn 2's
    // first window is not an extension of turn 1's last (the memory keeps only answers), but it
    // still opens with the same system message (issue 36: reuse by each message's raw JSON).
    expect(reused).toEqual(['chatcmpl-backup-triage-002', 'chatcmpl-backup-triage-003', 'chatcmpl-backup-triage-004', 'chatcmpl-backup-triage-005']);
  });
});

describe('check over the hand-built Python fixtures: the matching JS stack\'s findings and dispositions', () => {
  const DEFECT = [
    ['unsupported-argument', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', false, 'assistant-only'],
    ['empty-lookup', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', true, 'fragment'],
  ];
  const DANGLING = ['dangling-reference', 'backup_status', 'call_bt_003', 'argument-ground', null, false, null];

  for (const s of STACKS) {
    it(`${s.folder} backup-triage: ${s.toolDefinitions ? 'dangling-reference, ' : ''}unsupported-argument and the advisory empty-lookup on call_bt_003, as ${s.js} gives`, () => {
      const py = check(pyFiles(s, 'backup-triage'));
      const js = check(jsFiles(s, 'backup-triage'));
      expect(findingsOf(py)).toEqual(s.toolDefinitions ? [DANGLING, ...DEFECT] : DEFECT);
      expect(findingsOf(py)).toEqual(findingsOf(js));
      const ua = py.findings.find((f) => f.kind === 'unsupported-argument')!;
      expect(String(ua.message)).toContain('its own earlier answer');
      // Served earlier as backup_jobs' tool result (in Python's spacing), not as a user message.
      expect(String(ua.message)).toContain('It was served earlier in this conversation (tool result');
      if (s.toolDefinitions) {
        expect(py.summary).toBe('7 checks ran on 5 LLM requests in 2 traces. 3 findings.');
        expect(String(py.findings[0]!.message)).toContain("'backup_jobs' and 'backup_status' were offered");
      } else expect(py.summary).toBe(`6 checks ran on 5 LLM requests in 2 traces; 1 could not run: ${NOT_RECORDED}. 2 findings.`);
      expect(py.summary).toBe(js.summary);
      expect(py.traces.map((t) => t.disposition)).toEqual(js.traces.map((t) => t.disposition));
    });
    it(`${s.folder} clean-control: no finding; the disposition says ${s.toolDefinitions ? 'every check ran' : NOT_RECORDED}`, () => {
      const py = check(pyFiles(s, 'clean-control'));
      expect(py.findings).toEqual([]);
      expect(py.summary).toBe(s.toolDefinitions ? '7 checks ran on 3 LLM requests in 1 trace. 0 findings.' : `6 checks ran on 3 LLM requests in 1 trace; 1 could not run: ${NOT_RECORDED}. 0 findings.`);
      for (const t of py.traces) expect(t.disposition.includes(NOT_RECORDED)).toBe(!s.toolDefinitions);
      expect(py.traces.map((t) => t.disposition)).toEqual(check(jsFiles(s, 'clean-control')).traces.map((t) => t.disposition));
    });
  }

  it('official v2 default mode without its log records: the spans carry no content, and the disposition says so', () => {
    const out = check([join(FIXTURES_DIR, 'python-openai-v2-logs', 'backup-triage.otlp.json')]);
    // Only the write-seam check runs, from the app's execute_tool spans.
    expect(findingsOf(out)).toEqual([DEFECT[1]]);
    expect(out.summary).toBe('1 check ran on 5 LLM requests in 2 traces; 11 could not run: message content was not captured. 1 finding.');
  });

  it('official v2 default mode with content capture off: records with ids and names only (no body at all for text); the disposition says so, nothing is reported as broken', () => {
    const dir = join(FIXTURES_DIR, 'python-openai-v2-logs');
    const r = runCheck([join(dir, 'backup-triage.otlp.json'), join(dir, 'backup-triage.capture-off.logs.otlp.json'), '--declarations', DECL, '--format', 'json']);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as Out & { diagnostics: { level: string; code: string }[] };
    expect(findingsOf(out)).toEqual([DEFECT[1]]);
    expect(out.summary).toBe('1 check ran on 5 LLM requests in 2 traces; 11 could not run: message content was not captured. 1 finding.');
    expect(new Set(out.diagnostics.map((d) => `${d.level} ${d.code}`))).toEqual(new Set(['info content.not-captured']));
  });

  it("a non-ASCII id that Python's json.dumps escapes in the tool result (\\u00f6) still grounds the model's \"ö\"; a different letter does not", () => {
    const variant = (escaped: string) => {
      const doc = raw(join(FIXTURES_DIR, 'python-openllmetry-openai', 'clean-control.otlp.json'));
      for (const sc of doc.resourceSpans!.flatMap((r) => r.scopeSpans))
        for (const sp of sc.spans!)
          for (const a of sp.attributes) {
            const v = a.value.stringValue;
            if (typeof v !== 'string') continue;
            if (a.key !== 'gen_ai.input.messages') {
              a.value.stringValue = v.replaceAll('srv-db-04', 'srv-dö-04');
              continue;
            }
            const msgs = JSON.parse(v) as { parts: { type: string; response?: string; arguments?: unknown }[] }[];
            for (const p of msgs.flatMap((m) => m.parts)) {
              // ensure_ascii=True: the app's json.dumps writes the escape, not the letter.
              if (p.type === 'tool_call_response') p.response = p.response!.replaceAll('srv-db-04', `srv-d${escaped}-04`);
              if (p.type === 'tool_call') p.arguments = JSON.parse(JSON.stringify(p.arguments).replaceAll('srv-db-04', 'srv-dö-04'));
            }
            a.value.stringValue = JSON.stringify(msgs);
          }
      const file = join(mkdtempSync(join(tmpdir(), 'fp-python-')), 'non-ascii.otlp.json');
      writeFileSync(file, JSON.stringify(doc));
      return check([file]);
    };
    expect(variant('\\u00f6').findings).toEqual([]);
    expect(findingsOf(variant('\\u00f8'))).toEqual([
      ['unsupported-argument', 'backup_status', 'call_cc_002', 'args.machine_id', 'srv-dö-04', false, 'nowhere'],
      ['unsupported-argument', 'backup_jobs', 'call_cc_003', 'args.machine_id', 'srv-dö-04', false, 'nowhere'],
    ]);
  });

  it('latest_experimental: the same content on the span and in the log record is read once, from either', () => {
    const dir = join(FIXTURES_DIR, 'python-openai-v2-latest-experimental');
    const both = check(pyFiles(STACKS[1]!, 'backup-triage'));
    const spansOnly = check([join(dir, 'backup-triage.otlp.json')]);
    expect(findingsOf(spansOnly)).toEqual(findingsOf(both));
    expect(spansOnly.summary).toBe(both.summary);
    // Without the span attributes (capture event_only has the same record), the details record alone.
    const doc = raw(join(dir, 'backup-triage.otlp.json'));
    for (const sc of doc.resourceSpans!.flatMap((r) => r.scopeSpans)) for (const sp of sc.spans!) sp.attributes = sp.attributes.filter((a) => a.key !== 'gen_ai.input.messages' && a.key !== 'gen_ai.output.messages');
    const file = join(mkdtempSync(join(tmpdir(), 'fp-python-')), 'event-only.otlp.json');
    writeFileSync(file, JSON.stringify(doc));
    const logsOnly = check([file, join(dir, 'backup-triage.logs.otlp.json')]);
    expect(findingsOf(logsOnly)).toEqual(findingsOf(both));
    expect(logsOnly.summary).toBe(both.summary);
  });
});
