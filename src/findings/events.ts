// Turns findings into `footprint.finding` span events with the attributes of the wire contract,
// values redacted by the configured setting and every attribute kept under the written-attribute
// bound (Grafana Tempo truncates above 2,048 bytes). Also the finding's stable identity and id.
// Must never put an unquoted, unbounded value from telemetry into an attribute.

import { createHash } from 'node:crypto';
import type { Attributes, SpanEventData } from '../model/telemetry.js';
import type { Finding } from '../model/finding.js';
import type { Redaction } from '../model/finding.js';
import { quoteText, redactValue } from './quote.js';
import * as N from './names.js';

/** kind + seam + sorted subjects + predicate: one defect, however often it is re-detected. */
export function findingIdentity(f: Pick<Finding, 'kind' | 'seam' | 'subjects' | 'predicate'>): string {
  const subjects = f.subjects.map((s) => `${s.kind} ${s.id}`).sort().join(' + ');
  return `${f.kind} @${f.seam} [${subjects}] ${f.predicate}`;
}

/** Stable across runs of the same input: a hash of the trace id and the identity. */
export function findingId(f: Finding): string {
  return createHash('sha256').update(`${f.span.traceId} ${findingIdentity(f)}`, 'utf8').digest('hex').slice(0, 32);
}

/** Cuts a string so its UTF-8 encoding fits `maxBytes`, marking the cut with "…". */
export function fitBytes(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  const points = Array.from(s);
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (Buffer.byteLength(points.slice(0, mid).join('') + '…', 'utf8') <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return points.slice(0, lo).join('') + '…';
}

export interface EventOptions {
  redaction: Redaction;
  quotedValueChars: number;
  maxAttributeBytes: number;
}

/**
 * The value as written, and the message and witnesses with every quoted occurrence of the value
 * (and of the finding's other sensitive values) redacted too. Longest first, so a value that
 * contains another is swapped whole.
 */
function redactedTexts(f: Finding, o: EventOptions): { value?: string; message: string; witnessValue: (v: string) => string } {
  if (o.redaction === 'quote') {
    return { ...(f.value !== undefined ? { value: quoteText(f.value, o.quotedValueChars) } : {}), message: f.message, witnessValue: (v) => v };
  }
  const raw = [...(f.value !== undefined ? [f.value] : []), ...(f.sensitive ?? [])].filter((v) => v.trim() !== '');
  const pairs = [...new Set(raw)]
    .map((v) => [quoteText(v, o.quotedValueChars), redactValue(v, o.redaction, o.quotedValueChars)] as const)
    .sort((a, b) => b[0].length - a[0].length);
  const swap = (t: string) => pairs.reduce((acc, [quoted, shown]) => acc.split(quoted).join(shown), t);
  return {
    ...(f.value !== undefined ? { value: redactValue(f.value, o.redaction, o.quotedValueChars) } : {}),
    message: swap(f.message),
    witnessValue: swap,
  };
}

/** Witnesses as a JSON array under the byte bound: whole witnesses are dropped from the end, and counted. */
function witnessesJson(f: Finding, o: EventOptions, redact: (v: string) => string): string {
  const items = f.witnesses.map((w) => ({ ...w, value: redact(w.value), provenance: fitBytes(redact(w.provenance), 400) }));
  for (let n = items.length; n >= 0; n--) {
    const kept: unknown[] = items.slice(0, n);
    if (n < items.length) kept.push({ omitted: items.length - n });
    const json = JSON.stringify(kept);
    if (Buffer.byteLength(json, 'utf8') <= o.maxAttributeBytes) return json;
  }
  return JSON.stringify([{ omitted: items.length }]);
}

export function findingToEvent(f: Finding, time: bigint, o: EventOptions): SpanEventData {
  const t = redactedTexts(f, o);
  const fit = (s: string) => fitBytes(s, o.maxAttributeBytes);
  const attributes: Attributes = {
    [N.ATTR_FINDING_KIND]: f.kind,
    [N.ATTR_FINDING_SEAM]: f.seam,
    [N.ATTR_FINDING_ID]: findingId(f),
    [N.ATTR_FINDING_PREDICATE]: fit(f.predicate),
    [N.ATTR_FINDING_MESSAGE]: fit(t.message),
    [N.ATTR_FINDING_WITNESSES]: witnessesJson(f, o, t.witnessValue),
  };
  if (t.value !== undefined) attributes[N.ATTR_FINDING_VALUE] = fit(t.value);
  if (f.toolName) attributes[N.ATTR_TOOL_NAME] = fit(f.toolName);
  if (f.toolCallId) attributes[N.ATTR_TOOL_CALL_ID] = fit(f.toolCallId);
  if (f.grounding) attributes[N.ATTR_FINDING_GROUNDING] = f.grounding;
  if (f.advisory) attributes[N.ATTR_FINDING_ADVISORY] = true;
  attributes[N.ATTR_FINDING_ARMED_BY] = f.armedBy ?? 'declared';
  if (f.armedEvidence) attributes[N.ATTR_FINDING_ARMED_EVIDENCE] = fit(f.armedEvidence);
  return { name: N.EVENT_FINDING, timeUnixNano: time, attributes };
}
