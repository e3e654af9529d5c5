// The runnable examples (examples/in-process-openai, examples/in-process-vercel-ai), each run as a
// child process exactly as their READMEs say (`node examples/<name>/agent.mjs`), against the stub
// OpenAI server and OTLP sink the examples ship. Loopback only; no network, no collector.
// The examples import 'footprint-otel' by name, which resolves to dist/: beforeAll builds it when
// it is missing or older than any file under src/ (scripts/dist-fresh.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD_TIMEOUT = 60_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `node <script>` from the repo root, with no OTEL_* variable of ours leaking in unless given. */
function runNode(script: string, env: Record<string, string> = {}, onStdout?: (chunk: string) => void): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      onStdout?.(c);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

// dist/ built only when older than src/, by the same script `npm run example:*` runs first.
beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dist-fresh.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building dist/ for the examples failed:\n${r.stdout}${r.stderr}`);
}, 180_000);

const EXAMPLES = [
  { name: 'in-process-openai', chatSpan: 'chat gpt-4o-mini' },
  { name: 'in-process-vercel-ai', chatSpan: 'ai.generateText.doGenerate' },
] as const;

const unsupported = (lines: readonly string[]) => lines.filter((l) => l.startsWith('footprint.finding unsupported-argument'));

interface Sink {
  url: string;
  findingLines(): string[];
  close(): Promise<void>;
}

describe('examples', () => {
  for (const ex of EXAMPLES) {
    it(`${ex.name}: prints the unsupported-argument finding on turn 2's chat span and exits 0`, async () => {
      const r = await runNode(`examples/${ex.name}/agent.mjs`);
      expect(r.signal, `killed (timeout ${CHILD_TIMEOUT} ms?)\n${r.stderr}`).toBeNull();
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      // the conversation ran to its end: turn 2's answer came from the stub's last response
      expect(lines).toContain('agent: That machine has no backup record.');
      const found = unsupported(lines);
      expect(found, r.stdout).toHaveLength(1);
      // The README's "Expected output" is this output (a line ending in "…" is a prefix of its line).
      const readme = readFileSync(join(ROOT, 'examples', ex.name, 'README.md'), 'utf8');
      const block = /## Expected output\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1]?.split('\n') ?? [];
      const printed = r.stdout.trimEnd().split('\n');
      expect(block.length, 'the README shows every line').toBe(printed.length);
      block.forEach((want, i) => (want.endsWith(' …') ? expect(printed[i]!.startsWith(want.slice(0, -2)), `${want}\n${printed[i]}`).toBe(true) : expect(printed[i]).toBe(want)));
      expect(found[0]).toContain(`turn 2, span "${ex.chatSpan}" (chatcmpl-backup-triage-004)`);
      expect(found[0]).toContain('| backup_status args.machine_id = "db-primary-full" (grounding: assistant-only)');
    }, CHILD_TIMEOUT + 30_000);

    it(`${ex.name}: with OTEL_EXPORTER_OTLP_ENDPOINT set, the spans and the finding go there`, async () => {
      // A sink in this process stands in for a collector.
      const sinkModule = pathToFileURL(join(ROOT, 'examples/stub-openai/otlp-sink.mjs')).href;
      const { startOtlpSink } = (await import(sinkModule)) as { startOtlpSink(): Promise<Sink> };
      const sink = await startOtlpSink();
      try {
        const r = await runNode(`examples/${ex.name}/agent.mjs`, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url.replace(/\/v1\/traces$/, '') });
        expect(r.code, r.stderr).toBe(0);
        expect(unsupported(r.stdout.split('\n')), 'nothing printed from a sink of its own').toEqual([]);
        expect(r.stdout).toMatch(/spans sent to http:\/\/127\.0\.0\.1:\d+; findings by kind: \{.*"unsupported-argument":1/);
        const found = unsupported(sink.findingLines());
        expect(found).toHaveLength(1);
        expect(found[0]).toContain(`span "${ex.chatSpan}" (chatcmpl-backup-triage-004)`);
        expect(found[0]).toContain('backup_status args.machine_id');
      } finally {
        await sink.close();
      }
    }, CHILD_TIMEOUT + 30_000);
  }

  it('stub-openai/server.mjs on its own: listens on 127.0.0.1, serves its script, then stops', async () => {
    let started!: (url: string) => void;
    const baseURL = new Promise<string>((resolve) => (started = resolve));
    const run = runNode('examples/stub-openai/server.mjs', {}, (c) => {
      const m = /at (http:\/\/\S+)/.exec(c);
      if (m) started(m[1]!);
    });
    const url = await baseURL;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [] }) });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { id: string }).id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5].map((n) => `chatcmpl-backup-triage-00${n}`));
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('stub: script served, stopped');
  }, CHILD_TIMEOUT);
});
