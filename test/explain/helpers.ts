// Test helpers for src/explain: runs the real core over a recorded trace (the demo's by default)
// and hands back the annotated record an account is built from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOtlpJsonText, type DecodedDocument } from '../../src/otlp/json.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import { annotatedSpans } from '../../src/explain/annotate.js';
import type { ExplainRecord } from '../../src/explain/record.js';
import type { Redaction } from '../../src/model/finding.js';
import type { Declarations } from '../../src/declarations/types.js';

export const ROOT = join(__dirname, '..', '..');
export const DEMO = join(ROOT, 'examples', 'backup-triage');
export const DEMO_TURN_1 = 'ab971de46025cb7d8b0b22f5b48216e6';
export const DEMO_TURN_2 = 'd9ba24c6b7ea088c36696f388411fc30';

export function demoDeclarations(): Declarations {
  const r = loadDeclarationsFile(join(DEMO, 'declarations.yaml'));
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.declarations;
}

export function decodeFiles(paths: readonly string[]): DecodedDocument {
  let doc: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  for (const p of paths) doc = decodeOtlpJsonText(readFileSync(p, 'utf8'), p, doc);
  return doc;
}

/** Runs the core over the files and returns the record of `traceId` (every span, annotated). */
export function recordOf(paths: readonly string[], traceId: string, o: { declarations?: Declarations; redaction?: Redaction } = {}): { record: ExplainRecord; declarations?: Declarations } {
  const doc = decodeFiles(paths);
  const core = new FootprintCore({ ...(o.declarations ? { declarations: o.declarations } : {}), redaction: o.redaction ?? 'quote' });
  const spans = doc.spans.map((d) => d.span);
  const result = core.process({ spans, logs: doc.logs });
  return { record: { traceId, spans: annotatedSpans(spans, result), logs: doc.logs }, ...(o.declarations ? { declarations: o.declarations } : {}) };
}

export function demoRecord(traceId = DEMO_TURN_2, redaction: Redaction = 'quote'): ExplainRecord {
  return recordOf([join(DEMO, 'trace.otlp.json'), join(DEMO, 'logs.otlp.json')], traceId, { declarations: demoDeclarations(), redaction }).record;
}

/** Markup, script URLs, bidi and control characters, and a placeholder: in every field they reach. */
export const HOSTILE = `<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2"><a href="javascript:window.__pwned=3">x</a>\u202Eevil\u202C\u2066iso\u2069\u0007\u001b[31m\u200B{{tool:code}}`;

/**
 * The demo recording with HOSTILE written into the person's message, the final answer, the call
 * id, the agent's name, the tenant (service.name) and the model name, then run through the core.
 */
export function hostileDemo(): { record: ExplainRecord; declarations: Declarations; traceId: string } {
  const enc = (s: string) => JSON.stringify(s).slice(1, -1);
  const swap = (text: string) =>
    text
      .split("What's the backup status of that machine?").join(`asked ${enc(HOSTILE)}`)
      .split('That machine has no backup record.').join(`answer ${enc(HOSTILE)}`)
      .split('call_bt_003').join(`call ${enc(HOSTILE)}`)
      .split('"backup-triage"').join(`"agent ${enc(HOSTILE)}"`)
      .split('backup-triage-agent').join(`tenant ${enc(HOSTILE)}`)
      .split('gpt-4o-mini-2024-07-18').join(`model ${enc(HOSTILE)}`);
  let doc: DecodedDocument = { spans: [], logs: [], diagnostics: [], documents: [] };
  for (const f of ['trace.otlp.json', 'logs.otlp.json']) doc = decodeOtlpJsonText(swap(readFileSync(join(DEMO, f), 'utf8')), f, doc);
  const declarations = demoDeclarations();
  const core = new FootprintCore({ declarations });
  const spans = doc.spans.map((d) => d.span);
  const result = core.process({ spans, logs: doc.logs });
  return { record: { traceId: DEMO_TURN_2, spans: annotatedSpans(spans, result), logs: doc.logs }, declarations, traceId: DEMO_TURN_2 };
}

/**
 * What jaeger-ui does with a link pattern's url (utils/stringSupplant · encodedStringSupplant): each
 * #{key} replaced by encodeURIComponent of the span event's field of that name.
 */
export function jaegerUrl(template: string, fields: Record<string, unknown>): string {
  return template.replace(/#\{([^{}]*)\}/g, (_, name: string) => (fields[name] == null ? '' : encodeURIComponent(String(fields[name]))));
}
