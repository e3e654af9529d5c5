// Loads the recorded fixtures under test/fixtures (copied from the shared recordings).
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeOtlpJsonText, type DecodedDocument } from '../../src/otlp/json.js';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export const LIBRARIES = [
  'otel-instrumentation-openai',
  'otel-instrumentation-openai-responses',
  'traceloop-openai',
  'openinference-openai',
  'vercel-ai',
  'vercel-ai-v7-otel',
] as const;
export type Library = (typeof LIBRARIES)[number];
export const SCENARIOS = ['backup-triage', 'clean-control'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface Expected {
  conversationId: string;
  requests: {
    request: number;
    turn: number;
    window: unknown[];
    served: { source: string; message: number; text: string; callId?: string }[];
    written: { source: string; message: number; text: string; callId?: string }[];
    response: { toolCalls?: { id: string; name: string; arguments: unknown }[]; text?: string };
  }[];
  toolCalls: {
    request: number;
    id: string;
    name: string;
    arguments: unknown;
    result: string;
    resultEmpty: boolean;
    resultError: boolean;
    argumentLeaves: { path: string; value: unknown; checked: boolean; grounding: string }[];
  }[];
  expectedFindings: { kind: string; seam: string; toolName: string; toolCallId: string; predicate: string; value: string; grounding: string; request: number }[];
}

export function fixturePaths(lib: Library, scenario: Scenario): string[] {
  const base = join(FIXTURES_DIR, lib, scenario);
  return [`${base}.otlp.json`, `${base}.logs.otlp.json`].filter((p) => existsSync(p));
}

export function loadFixture(lib: Library, scenario: Scenario): { doc: DecodedDocument; expected: Expected; paths: string[] } {
  const paths = fixturePaths(lib, scenario);
  let doc: DecodedDocument | undefined;
  for (const p of paths) doc = decodeOtlpJsonText(readFileSync(p, 'utf8'), p, doc);
  const expected = JSON.parse(readFileSync(join(FIXTURES_DIR, lib, `${scenario}.expected.json`), 'utf8')) as Expected;
  return { doc: doc!, expected, paths };
}
