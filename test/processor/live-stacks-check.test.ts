// Offline half of the live stack tests: `footprint-otel check` over the fixtures the live tests
// recorded (FP_RECORD=1) from the real packages, per stack: backup-triage gives exactly the
// conversation's unsupported-argument (backup_status args.machine_id = "db-primary-full",
// call_bt_003) and the advisory empty-lookup, plus dangling-reference where the stack records tool
// definitions; clean-control gives none, and the summary says which checks could not run.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck } from '../../src/cli/check.js';
import { FIXTURES_DIR } from '../helpers/fixtures.js';
import { MASTRA_0X_NOT_READ } from '../../src/conventions/mastra-export.js';

interface Stack {
  library: string;
  /** Whether the stack records the tools offered (dangling-reference can run). */
  toolDefinitions: boolean;
  /** Whether tool executions come from the app's own execute_tool spans (an instrumentation of the client only). */
  appToolSpans: boolean;
  /** backup-triage's findings [kind, tool, call id, predicate, value, advisory] when they differ from the shared ones. */
  backupTriage?: unknown[][];
  /** Whether the refused-read pair was recorded. */
  refused?: boolean;
  /** Whether the LLM span's window keeps a tool_result's `is_error` (the request body as sent). */
  windowKeepsIsError?: boolean;
}

export const RECORDED_STACKS: Stack[] = [
  { library: 'traceloop-anthropic', toolDefinitions: false, appToolSpans: true },
  { library: 'openinference-anthropic', toolDefinitions: true, appToolSpans: true, windowKeepsIsError: true },
  { library: 'vercel-ai-anthropic', toolDefinitions: true, appToolSpans: false },
  {
    library: 'openinference-langchain',
    toolDefinitions: true,
    appToolSpans: false,
    refused: false,
    // OpenInference collapses a one-argument tool's input to its bare value (the execution's
    // arguments are the string "db-primary-full"); the core joins it to the model's call with the
    // same id, {"machine_id":"db-primary-full"} (src/runs/sole-argument.ts), so empty-lookup names `args.machine_id`.
    backupTriage: [
      ['dangling-reference', 'backup_status', 'call_bt_003', 'argument-ground', null, false],
      ['unsupported-argument', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', false],
      ['empty-lookup', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', true],
    ],
  },
  // Text-only chat spans; the calls on its execute_tool spans' ToolMessages, the windows rebuilt from them (live-traceloop-langchain.test.ts).
  // The model's choice is read from the next window, so unsupported-argument is judged (and listed) after empty-lookup.
  {
    library: 'traceloop-langchain',
    toolDefinitions: false,
    appToolSpans: false,
    refused: false,
    backupTriage: [
      ['empty-lookup', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', true],
      ['unsupported-argument', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', false],
    ],
  },
  // openai + traceloop-openai, tools served over MCP (live-mcp.test.ts): the MCP spans are not read; the app's execute_tool spans are.
  { library: 'traceloop-mcp', toolDefinitions: true, appToolSpans: true, refused: false },
];

const DECL = join(FIXTURES_DIR, 'declarations.yaml');
const check = (lib: string, scenario: string, file = join(FIXTURES_DIR, lib, `${scenario}.otlp.json`)) => {
  const r = runCheck([file, '--declarations', DECL, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as { findings: Record<string, unknown>[]; summary: string };
};

describe('check over the recorded stacks', () => {
  for (const stack of RECORDED_STACKS) {
    it(`${stack.library} backup-triage: the expected findings, on the right call`, () => {
      const out = check(stack.library, 'backup-triage');
      const got = out.findings.map((f) => [f.kind, f.toolName, f.toolCallId, f.predicate, f.value ?? null, f.advisory === true]);
      expect(got).toEqual(stack.backupTriage ?? [
        ...(stack.toolDefinitions ? [['dangling-reference', 'backup_status', 'call_bt_003', 'argument-ground', null, false]] : []),
        ['unsupported-argument', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', false],
        ['empty-lookup', 'backup_status', 'call_bt_003', 'args.machine_id', 'db-primary-full', true],
      ]);
      if (stack.backupTriage?.length === 0) {
        expect(out.summary).toMatch(/^2 checks ran on 5 LLM requests in 5 traces/);
        return;
      }
      const ua = out.findings.find((f) => f.kind === 'unsupported-argument')!;
      expect(ua.grounding).toBe('assistant-only');
      expect(String(ua.message)).toContain('its own earlier answer');
      // Served earlier as backup_jobs' tool result, not as a user message.
      expect(String(ua.message)).toContain('It was served earlier in this conversation (tool result');
      expect(out.summary).toMatch(/on 5 LLM requests in 2 traces/);
    });
    it(`${stack.library} clean-control: no finding`, () => {
      const out = check(stack.library, 'clean-control');
      expect(out.findings).toEqual([]);
      expect(out.summary).toMatch(stack.backupTriage?.length === 0 ? /on 3 LLM requests in 3 traces/ : /on 3 LLM requests in 1 trace/);
      if (!stack.toolDefinitions) expect(out.summary).toContain('tool definitions were not recorded');
    });
  }

  /** Stacks recorded with the refused-read pair (a tool_result with is_error: true). */
  for (const stack of RECORDED_STACKS.filter((s) => s.refused !== false)) {
    it(`${stack.library} refused-read: refusal-asserts-absence on backup_jobs, read from the tool span (the app's execute_tool, or the SDK's ai.toolCall)`, () => {
      const out = check(stack.library, 'refused-read');
      expect(out.findings.map((f) => [f.kind, f.toolName, f.toolCallId])).toEqual([['refusal-asserts-absence', 'backup_jobs', 'call_rr_003']]);
      expect(String(out.findings[0]!.message)).toContain('locked by a maintenance window');
    });
    it(`${stack.library} refused-read-admitted: no finding`, () => {
      expect(check(stack.library, 'refused-read-admitted').findings).toEqual([]);
    });
    if (stack.appToolSpans)
      it(`${stack.library} refused-read without the app's execute_tool spans: ${stack.windowKeepsIsError ? "the window's is_error says the read failed (its row is read from the window)" : 'the instrumentation alone cannot say the read failed'}`, () => {
      // The error text states no refusal by itself: with the app's tool spans gone, only a window
      // that keeps the tool_result's is_error records the failure (OpenInference keeps the request
      // body; Traceloop's GenAI parts drop the flag).
      const doc = JSON.parse(readFileSync(join(FIXTURES_DIR, stack.library, 'refused-read.otlp.json'), 'utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
      for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) ss.spans = ss.spans.filter((sp) => !sp.name.startsWith('execute_tool '));
      const file = join(mkdtempSync(join(tmpdir(), 'fp-stacks-')), 'no-tools.otlp.json');
      writeFileSync(file, JSON.stringify(doc));
      const found = check(stack.library, 'refused-read', file).findings.map((f) => [f.kind, f.toolName, f.toolCallId]);
      expect(found).toEqual(stack.windowKeepsIsError ? [['refusal-asserts-absence', 'backup_jobs', 'call_rr_003']] : []);
      });
  }
});

// Mastra (live-mastra.test.ts): @mastra/otel-exporter 0.3.3 writes its own span shapes (gen_ai.prompt
// as Mastra's message JSON per turn, the request body cut to "[MaxDepth]" on model_step spans, no
// call ids on tool spans). No convention reads them: `check` sees the `chat` spans as LLM requests
// and says why Mastra 0.x's content cannot be read (src/conventions/mastra-export.ts), and gives no finding.
describe('check over the recorded Mastra export (not read)', () => {
  it('backup-triage: no finding; the summary says why Mastra 0.x is not read', () => {
    const out = check('mastra', 'backup-triage');
    expect(out.findings).toEqual([]);
    expect(out.summary).toBe(`0 checks ran on 2 LLM requests in 2 traces; 11 could not run: ${MASTRA_0X_NOT_READ}. 0 findings.`);
  });
  it('clean-control: no finding; the summary says why Mastra 0.x is not read', () => {
    const out = check('mastra', 'clean-control');
    expect(out.findings).toEqual([]);
    expect(out.summary).toBe(`0 checks ran on 1 LLM request in 1 trace; 11 could not run: ${MASTRA_0X_NOT_READ}. 0 findings.`);
  });
});

// OpenLLMetry LangChain's own tool calls (live-traceloop-langchain-calls.test.ts, createReactAgent
// under the app's span): each defect gives its finding from the recording alone, each control none.
describe('check over the recorded OpenLLMetry LangChain calls', () => {
  const LC: Record<string, string[][]> = {
    refund: [['unconfirmed-action', 'issue_refund', 'call_rf_002']],
    'refund-admitted': [],
    'refused-read': [['refusal-asserts-absence', 'backup_jobs', 'call_rr_002']],
    'refused-read-admitted': [],
    'declared-absence': [['empty-lookup', 'backup_status', 'call_da_003'], ['unsupported-argument', 'backup_status', 'call_da_003']],
    'declared-absence-clean': [],
  };
  for (const [scenario, expected] of Object.entries(LC))
    it(`traceloop-langchain ${scenario}: ${expected.length === 0 ? 'no finding' : expected.map((f) => f[0]).join(', ')}`, () => {
      const out = check('traceloop-langchain', scenario);
      expect(out.findings.map((f) => [f.kind, f.toolName, f.toolCallId]).sort()).toEqual(expected);
      if (scenario === 'refund') expect(String(out.findings[0]!.message)).toContain('payment provider refused the refund');
      if (scenario === 'refused-read') expect(String(out.findings[0]!.message)).toContain('permission denied');
    });
});
