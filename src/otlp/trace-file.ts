// Reads one trace file in any shape `check` accepts: OTLP/JSON (the collector's file exporter,
// the JS serializer, JSON lines), Tempo's API answers, Jaeger v2's OTLP-shaped API answers
// (`{result: {resourceSpans}}`, also streamed as JSON lines) and Jaeger's own JSON (UI
// "Download JSON", `/api/traces`). Each document's shape is detected here, Jaeger's converted to
// OTLP/JSON, and the OTLP decoders do the rest. A file mixing Jaeger's JSON with OTLP, or a
// document of no known shape, is refused with the list of the shapes that are read.
// Must never throw on garbage input.

import { decodeLogsRequest, decodeTraceRequest, parseJsonDocuments, type DecodedDocument } from './json.js';
import { jaegerToOtlp, jaegerTracesOf } from './jaeger-json.js';

/** The shapes a trace file may have, as said to a user whose file is none of them. */
export const SHAPES_READ = [
  'OTLP/JSON ExportTraceServiceRequest or ExportLogsServiceRequest (resourceSpans / resourceLogs; one document or JSON lines)',
  "Tempo's API answer (batches, or trace: {…})",
  "Jaeger v2's API answer (result: {resourceSpans})",
  "Jaeger's JSON (UI Download JSON or /api/traces: data[].spans[] with processes)",
] as const;

export type TraceFileShape = 'otlp' | 'tempo' | 'jaeger-v2' | 'jaeger';

/** Every shape one parsed document matches (more than one means the document is ambiguous). */
export function shapesOf(doc: unknown): TraceFileShape[] {
  const shapes: TraceFileShape[] = [];
  if (jaegerTracesOf(doc)) shapes.push('jaeger');
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return shapes;
  const o = doc as Record<string, unknown>;
  if (Array.isArray(o.resourceSpans) || Array.isArray(o.resourceLogs)) shapes.push('otlp');
  const trace = o.trace && typeof o.trace === 'object' ? (o.trace as Record<string, unknown>) : undefined;
  if (Array.isArray(o.batches) || (trace && (Array.isArray(trace.batches) || Array.isArray(trace.resourceSpans)))) shapes.push('tempo');
  const result = o.result && typeof o.result === 'object' ? (o.result as Record<string, unknown>) : undefined;
  if (result && (Array.isArray(result.resourceSpans) || Array.isArray(result.resourceLogs))) shapes.push('jaeger-v2');
  return shapes;
}

const family = (s: TraceFileShape): 'jaeger' | 'otlp' => (s === 'jaeger' ? 'jaeger' : 'otlp');
const shapesList = (): string => SHAPES_READ.join('; ');

/** Decodes one file's text into `into` (or a new document); refusals become error diagnostics. */
export function decodeTraceFileText(text: string, where: string, into?: DecodedDocument): DecodedDocument {
  const out: DecodedDocument = into ?? { spans: [], logs: [], diagnostics: [], documents: [] };
  const docs = parseJsonDocuments(text, where, out.diagnostics);
  const classified = docs.map((d) => ({ ...d, shapes: shapesOf(d.doc) }));
  for (const d of classified) {
    if (d.shapes.length === 0) {
      out.diagnostics.push({ level: 'error', code: 'input.shape-unknown', message: `${d.where}: not an OTLP/JSON trace or logs export, nor another shape that is read (the shapes read: ${shapesList()})` });
    } else if (new Set(d.shapes.map(family)).size > 1) {
      out.diagnostics.push({ level: 'error', code: 'input.shape-mixed', message: `${d.where}: the document is both Jaeger's JSON and OTLP (${d.shapes.join(', ')}); refused; give one shape per file (the shapes read: ${shapesList()})` });
      return out;
    }
  }
  const families = new Set(classified.flatMap((d) => d.shapes.map(family)));
  if (families.size > 1) {
    out.diagnostics.push({ level: 'error', code: 'input.shape-mixed', message: `${where}: the file mixes Jaeger's JSON with OTLP documents; refused; give one shape per file (the shapes read: ${shapesList()})` });
    return out;
  }
  for (const d of classified) {
    if (d.shapes.length === 0) continue;
    let otlp: unknown = d.doc;
    if (d.shapes[0] === 'jaeger') otlp = jaegerToOtlp(jaegerTracesOf(d.doc)!, d.where, out.diagnostics);
    else if (d.shapes[0] === 'jaeger-v2') otlp = (d.doc as { result: unknown }).result;
    out.documents.push(otlp);
    decodeTraceRequest(otlp, out, d.where);
    decodeLogsRequest(otlp, out, d.where);
  }
  return out;
}
