// The two recorded conversations (backup-triage, clean-control) as live scripts: the stub's
// responses, the tools' results, the app's agent loop around a real `openai` client, and the
// checks on what `next` received. Ground truth comes from the fixtures' expected.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { FIXTURES_DIR, loadFixture, type Expected } from '../helpers/fixtures.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import type { Declarations } from '../../src/declarations/types.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { ATTR_FINDINGS_COUNT, ATTR_FINDING_KIND, ATTR_FINDING_PREDICATE, ATTR_TOOL_NAME, EVENT_FINDING } from '../../src/findings/names.js';
import { traceAgentTurn, traceTool } from '../../src/trace/index.js';
import type { ScriptedResponse } from './stub-openai.js';

export type ScenarioName = 'backup-triage' | 'clean-control';

export const DECLARATIONS_PATH = join(FIXTURES_DIR, 'declarations.yaml');

export function declarations(): Declarations {
  const r = loadDeclarationsFile(DECLARATIONS_PATH);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.declarations;
}

interface ExpectedFull extends Expected {
  agentName: string;
  turns: { turn: number; user: string; answer: string }[];
}

export function expectedOf(scenario: ScenarioName): ExpectedFull {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, 'otel-instrumentation-openai', `${scenario}.expected.json`), 'utf8')) as ExpectedFull;
}

export function scriptOf(scenario: ScenarioName): ScriptedResponse[] {
  return expectedOf(scenario).requests.map((r) => {
    const id = `chatcmpl-${scenario}-${String(r.request).padStart(3, '0')}`;
    return r.response.toolCalls ? { id, toolCalls: r.response.toolCalls } : { id, text: r.response.text ?? '' };
  });
}

export const MODEL = 'gpt-4o-mini';

/** The three tools, as the recordings offered them (OpenAI Chat Completions form). */
export const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'list_machines',
      description: "List the customer's machines and whether each is protected by a backup plan.",
      parameters: { type: 'object', properties: { customer: { type: 'string', description: 'Customer account name.' } }, required: ['customer'], additionalProperties: false },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'backup_jobs',
      description: 'List the backup jobs configured for one machine.',
      parameters: {
        type: 'object',
        properties: {
          machine_id: { type: 'string', description: 'Machine identifier as returned by list_machines.' },
          statuses: { type: 'array', description: 'Only jobs whose last run has one of these statuses.', items: { type: 'string', enum: ['ok', 'failed', 'running'] } },
        },
        required: ['machine_id'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'backup_status',
      description: 'Latest backup status records for one machine.',
      parameters: {
        type: 'object',
        properties: {
          machine_id: { type: 'string', description: 'Machine identifier as returned by list_machines.' },
          window: { type: 'object', description: 'Look-back window.', properties: { days: { type: 'integer', minimum: 1, maximum: 90 } }, additionalProperties: false },
        },
        required: ['machine_id'],
        additionalProperties: false,
      },
    },
  },
];

/** The tools' results, as the recordings served them, by the model's call id. */
export function toolResult(scenario: ScenarioName, callId: string): string {
  const call = expectedOf(scenario).toolCalls.find((c) => c.id === callId);
  if (!call) throw new Error(`no scripted result for ${callId}`);
  return call.result;
}

/** The minimum of `openai`'s client this loop uses. */
export interface ChatClient {
  chat: { completions: { create(body: Record<string, unknown>): Promise<{ choices: { message: { content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] } }[] }> } };
}

/**
 * The recording app: one `invoke_agent` per turn (via the helpers), one `execute_tool` per call;
 * between turns it keeps only the system prompt and the final answers.
 */
export async function runOpenAIConversation(
  client: ChatClient,
  scenario: ScenarioName,
  wrapTurn: <T>(turn: number, fn: () => Promise<T>) => Promise<T> = (_t, fn) => fn(),
  /** When given, each tool's declaration is carried on its execute_tool span (traceTool options). */
  helperDeclarations?: Declarations,
): Promise<string[]> {
  const exp = expectedOf(scenario);
  const system = (exp.requests[0]!.window[0] as { content: string }).content;
  const memory: Record<string, unknown>[] = [{ role: 'system', content: system }];
  const answers: string[] = [];
  for (const turn of exp.turns) {
    const answer = await wrapTurn(turn.turn, () =>
      traceAgentTurn({ agentName: exp.agentName, conversationId: exp.conversationId, model: MODEL, provider: 'openai' }, async () => {
        const messages: Record<string, unknown>[] = [...memory, { role: 'user', content: turn.user }];
        for (let step = 0; step < 8; step++) {
          const resp = await client.chat.completions.create({ model: MODEL, messages, tools: TOOLS });
          const msg = resp.choices[0]!.message;
          if (msg.tool_calls && msg.tool_calls.length > 0) {
            messages.push({ role: 'assistant', content: null, tool_calls: msg.tool_calls.map((c) => ({ id: c.id, type: 'function', function: c.function })) });
            for (const c of msg.tool_calls) {
              const d = helperDeclarations?.tools[c.function.name];
              const result = await traceTool(c.function.name, c.function.arguments, async () => toolResult(scenario, c.id), {
                callId: c.id,
                ...(d?.argumentsFrom ? { argumentsFrom: d.argumentsFrom } : {}),
                ...(d?.readOnly !== undefined ? { readOnly: d.readOnly } : {}),
              });
              messages.push({ role: 'tool', tool_call_id: c.id, content: result });
            }
            continue;
          }
          return msg.content ?? '';
        }
        throw new Error('agent loop did not finish');
      }),
    );
    memory.push({ role: 'assistant', content: answer });
    answers.push(answer);
  }
  return answers;
}

/** The response id a chat span recorded, in whichever convention. */
export function responseIdOf(span: ReadableSpan): string | undefined {
  const a = span.attributes;
  for (const k of ['gen_ai.response.id', 'ai.response.id']) if (typeof a[k] === 'string') return a[k] as string;
  if (typeof a['output.value'] === 'string') {
    try {
      return (JSON.parse(a['output.value'] as string) as { id?: string }).id;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function findingEvents(span: ReadableSpan) {
  return span.events.filter((e) => e.name === EVENT_FINDING);
}

/**
 * The core is ready when it finds the recorded defect in the recorded contrib fixture. Until it
 * does, the finding assertions are skipped (the pass-through assertions always run).
 */
export const coreReady: boolean = (() => {
  try {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    const core = new FootprintCore({ declarations: declarations() });
    const r = core.process({ spans: doc.spans.map((d) => d.span), logs: doc.logs });
    return r.findings.some((f) => f.kind === 'unsupported-argument');
  } catch {
    return false;
  }
})();

/**
 * backup-triage: exactly one `unsupported-argument` finding in the whole conversation, on
 * args.machine_id, on the LLM span that chose backup_status in turn 2 (request 4). Findings of
 * other kinds (e.g. the advisory empty-lookup on the execute_tool span) are allowed; the core
 * owns them.
 */
export function assertBackupTriageFinding(received: readonly ReadableSpan[]): void {
  const chooser = received.find((s) => responseIdOf(s) === 'chatcmpl-backup-triage-004');
  expect(chooser, 'the LLM span of request 4 reached next').toBeDefined();
  const unsupported = received.flatMap((s) => findingEvents(s).filter((e) => e.attributes?.[ATTR_FINDING_KIND] === 'unsupported-argument').map((e) => ({ span: s, e })));
  expect(unsupported.map((u) => u.span.name)).toEqual([chooser!.name]);
  expect(unsupported[0]!.span).toBe(chooser);
  expect(unsupported[0]!.e.attributes).toMatchObject({ [ATTR_FINDING_KIND]: 'unsupported-argument', [ATTR_FINDING_PREDICATE]: 'args.machine_id', [ATTR_TOOL_NAME]: 'backup_status' });
  expect(chooser!.attributes[ATTR_FINDINGS_COUNT]).toBe(findingEvents(chooser!).length);
}

export function assertNoFindings(received: readonly ReadableSpan[]): void {
  const withFindings = received.filter((s) => findingEvents(s).length > 0);
  expect(withFindings.map((s) => `${s.name}: ${JSON.stringify(findingEvents(s).map((e) => e.attributes))}`)).toEqual([]);
}
