// Redaction that hides everything (issue 29): a secret machine id in every position a finding can
// quote it — served by a tool (turn 1), written by the model (its turn-1 answer), chosen as an
// argument (turn 2), absent from the window it was chosen in, last served in an earlier turn,
// inside a longer served value (a job name), in what a tool says it looked for, in the person's
// message and in the final answer — run through every output under `hash` and `omit`: the CLI's
// text and JSON, the span events and carriers `--write` adds, the `--html` page, and the
// service's exported span events, evaluation log records, /api/findings, /api/explain, the page,
// /metrics and its log lines. No output may hold any 4-character substring of the secret.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCase } from '../quality/build/render.js';
import type { CaseSpec } from '../quality/build/spec.js';
import { BACKUP_SYSTEM, declarations, declare, offer } from '../quality/build/cases/common.js';
import { runCheck } from '../../src/cli/check.js';
import { decodeOtlpJsonText } from '../../src/otlp/json.js';
import { serviceFactory, type ServiceComponent } from '../../src/service/factory.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import type { SpanData } from '../../src/model/telemetry.js';
import { CARRIER_SPAN_NAME } from '../../src/findings/names.js';
import { downstreamTo, startSink, testConfig, waitFor, type Sink } from '../service/helpers.js';

/** Capitals and a digit: no hex digest, id or English word holds 4 characters of it. */
const SECRET = 'QZWX7KJPVM';
const JOB = `nightly-${SECRET}`;

const SPEC: CaseSpec = {
  name: 'redaction-secret-everywhere',
  shape: 'otel-logs',
  check: 'unsupported-argument',
  class: 'redaction: one secret in every position',
  kind: 'defect',
  note: 'turn 1 serves the machine and its job; turn 2 calls backup_status with the machine id taken from the model\'s own answer.',
  expect: [],
  system: BACKUP_SYSTEM,
  memory: 'answers-only',
  tools: offer('list_machines', 'backup_jobs', 'backup_status'),
  declarations: declarations([declare('list_machines'), declare('backup_jobs', { argumentsFrom: ['list_machines'] }), declare('backup_status', { argumentsFrom: ['list_machines', 'backup_jobs'] })]),
  turns: [
    {
      user: `Is srv-${SECRET} one of ours, and what backs it up?`,
      steps: [
        { calls: [{ name: 'list_machines', args: { customer: 'acme' }, result: [{ machine_id: `srv-${SECRET}`, hostname: 'db-primary', protected: true }] }] },
        { calls: [{ name: 'backup_jobs', args: { machine_id: `srv-${SECRET}` }, result: [{ job: JOB, status: 'ok' }] }] },
      ],
      answer: `One machine, srv-${SECRET}, backed up by the job ${JOB} (OK).`,
    },
    {
      user: "What's the backup status of that machine?",
      steps: [{ calls: [{ name: 'backup_status', args: { machine_id: SECRET }, result: { af_absent: true, looked_for: `backup records of ${SECRET}`, checked: [{ what: 'the primary backup catalog' }], not_checked: [{ what: `the archive tier of ${SECRET}`, why: 'not indexed' }] } }] }],
      answer: `${SECRET} has no backup record.`,
    },
  ],
};

/** Every 4-character piece of the secret, case-insensitively, that a text holds. */
function pieces(text: string): string[] {
  const t = text.toLowerCase();
  const out: string[] = [];
  for (let i = 0; i + 4 <= SECRET.length; i++) if (t.includes(SECRET.slice(i, i + 4).toLowerCase())) out.push(SECRET.slice(i, i + 4));
  return out;
}

function expectHidden(what: string, text: string): void {
  expect(text.length, `${what} is not empty`).toBeGreaterThan(0);
  const found = pieces(text);
  const at = found.length ? text.toLowerCase().indexOf(found[0]!.toLowerCase()) : -1;
  expect(found, `${what} holds a piece of the secret: …${at >= 0 ? text.slice(Math.max(0, at - 120), at + 40) : ''}…`).toEqual([]);
}

/** What footprint-otel added to spans: its events and attributes, and its carrier spans. */
function footprintParts(spans: readonly SpanData[]): string {
  return JSON.stringify(
    spans.map((s) => ({
      attributes: Object.fromEntries(Object.entries(s.attributes).filter(([k]) => k.startsWith('footprint.'))),
      events: s.events.filter((e) => e.name.startsWith('footprint.')),
      ...(s.name === CARRIER_SPAN_NAME ? { carrier: s } : {}),
    })),
    (_, v) => (typeof v === 'bigint' ? String(v) : v),
  );
}

const dir = mkdtempSync(join(tmpdir(), 'fp-secret-'));
const files = renderCase(SPEC);
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
const input = [join(dir, 'trace.otlp.json'), join(dir, 'logs.otlp.json'), '--declarations', join(dir, 'declarations.yaml')];
const traceIds = [...new Set([...files['trace.otlp.json']!.matchAll(/"traceId": "([0-9a-f]{32})"/g)].map((m) => m[1]!))];

describe('the secret is where the test says', () => {
  it('in the input, and quoted by the findings when nothing is redacted', () => {
    expect(files['trace.otlp.json']! + files['logs.otlp.json']!).toContain(SECRET);
    const r = runCheck([...input, '--format', 'json', '--fail-on', 'never']);
    const j = JSON.parse(r.stdout) as { findings: { kind: string; grounding: string | null; witnesses: { stratum: string; value: string }[] }[] };
    const kinds = j.findings.map((f) => f.kind);
    expect(kinds).toContain('unsupported-argument');
    expect(kinds).toContain('empty-lookup');
    const strata = new Set(j.findings.flatMap((f) => f.witnesses.filter((w) => w.value.includes(SECRET)).map((w) => w.stratum)));
    for (const s of ['chosen', 'written', 'absent', 'served']) expect(strata, s).toContain(s);
    // The longer value that holds it, and the last-served witness of an earlier turn.
    expect(JSON.stringify(j)).toContain(JOB);
    expect(r.stdout).toContain("outside this request's window");
    expect(pieces(r.stdout).length).toBeGreaterThan(0);
    // Unredacted, the page quotes it too: the person's message, the answer, what the tool looked for.
    const out = join(dir, 'page-quote.html');
    expect(runCheck([...input, '--html', out, '--fail-on', 'never']).exitCode).toBe(0);
    const html = readFileSync(out, 'utf8');
    for (const s of [`Is srv-${SECRET} one of ours`, `${SECRET} has no backup record.`, `backup records of ${SECRET}`, `the archive tier of ${SECRET}`]) expect(html).toContain(s);
  });
});

for (const redaction of ['hash', 'omit'] as const) {
  describe(`--redaction ${redaction}: no output holds any 4 characters of the secret`, () => {
    it('check: the text report and the JSON report', () => {
      const text = runCheck([...input, '--redaction', redaction, '--fail-on', 'never']);
      expect(text.stdout).toContain('unsupported-argument @ choice');
      expectHidden('text output', text.stdout + text.stderr);
      const json = runCheck([...input, '--redaction', redaction, '--format', 'json', '--fail-on', 'never']);
      expect((JSON.parse(json.stdout) as { findings: unknown[] }).findings.length).toBeGreaterThanOrEqual(2);
      expectHidden('JSON output', json.stdout + json.stderr);
    });
    it('check --write: the span events, attributes and carriers footprint-otel adds', () => {
      const out = join(dir, `written-${redaction}.json`);
      expect(runCheck([...input, '--redaction', redaction, '--write', out, '--fail-on', 'never']).exitCode).toBe(0);
      const doc = decodeOtlpJsonText(readFileSync(out, 'utf8'), out);
      const added = footprintParts(doc.spans.map((d) => d.span));
      expect(added).toContain('footprint.finding');
      expect(added).toContain('footprint.answer.standing');
      expectHidden('--write events', added);
    });
    it('check --html: the page', () => {
      const out = join(dir, `page-${redaction}.html`);
      expect(runCheck([...input, '--redaction', redaction, '--html', out, '--fail-on', 'never']).exitCode).toBe(0);
      const html = readFileSync(out, 'utf8');
      expect(html).toContain('Probably wrong');
      expectHidden('--html page', html);
    });
  });

  describe(`serve with redaction ${redaction}: no output holds any 4 characters of the secret`, () => {
    const TOKEN = 'redaction-test-token';
    const auth = { Authorization: `Bearer ${TOKEN}` };
    let sink: Sink;
    let svc: ServiceComponent;
    let base = '';
    const lines: string[] = [];
    beforeAll(async () => {
      sink = await startSink();
      const created = serviceFactory.create(
        testConfig({ declarationsPath: join(dir, 'declarations.yaml'), redaction, auth: { token: TOKEN }, downstream: downstreamTo(sink), publicUrl: 'http://127.0.0.1:1' }),
        { loadDeclarations: loadDeclarationsFile, log: (_level: string, line: string) => lines.push(line), stdout: (line: string) => lines.push(line) },
      );
      if (!created.ok) throw new Error(created.errors.join());
      svc = created.service;
      base = (await svc.start()).address;
      for (const [path, name] of [['/v1/traces', 'trace.otlp.json'], ['/v1/logs', 'logs.otlp.json']] as const) {
        const r = await fetch(`${base}${path}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: files[name]! });
        expect(r.status).toBe(200);
      }
      await waitFor(() => sink.spans.some((s) => s.events.some((e) => e.name === 'footprint.finding')) && sink.logs.length > 0);
    });
    afterAll(async () => {
      await svc?.shutdown();
      await sink?.close();
    });
    it('the exported span events and carriers, and the evaluation log records', async () => {
      await waitFor(() => sink.spans.filter((s) => s.events.some((e) => e.name === 'footprint.finding')).length >= 2);
      expectHidden('exported footprint events', footprintParts(sink.spans));
      const big = (_: string, v: unknown) => (typeof v === 'bigint' ? String(v) : v);
      const evaluations = sink.logs.filter((l) => JSON.stringify(l, big).includes('gen_ai.evaluation'));
      expect(evaluations.length).toBeGreaterThan(0);
      expectHidden('evaluation log records', JSON.stringify(evaluations, big));
    });
    it('/api/findings, /api/explain, the page (through its signed link too), /metrics and the log lines', async () => {
      const findings = await (await fetch(`${base}/api/findings`, { headers: auth })).text();
      expect(findings).toContain('unsupported-argument');
      expectHidden('/api/findings', findings);
      for (const id of traceIds) {
        const api = await fetch(`${base}/api/explain/${id}`, { headers: auth });
        expect(api.status).toBe(200);
        expectHidden(`/api/explain/${id}`, await api.text());
        const page = await fetch(`${base}/explain/${id}`, { headers: auth });
        expect(page.status).toBe(200);
        expectHidden(`/explain/${id}`, await page.text());
      }
      const link = sink.spans.flatMap((s) => s.events).find((e) => typeof e.attributes['footprint.explain.url'] === 'string')!.attributes['footprint.explain.url'] as string;
      const viaLink = await fetch(`${base}${new URL(link).pathname}`);
      expect(viaLink.status).toBe(200);
      expectHidden('the page via its link', await viaLink.text());
      expectHidden('/metrics', await (await fetch(`${base}/metrics`, { headers: auth })).text());
      expectHidden('log lines', lines.join('\n') || 'no line');
    });
  });
}
