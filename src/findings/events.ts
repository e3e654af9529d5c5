// Turns findings into `footprint.finding` span events with the attributes of the wire contract,
// values redacted by the configured setting and every attribute kept under the written-attribute
// bound (Grafana Tempo truncates above 2,048 bytes). Also the finding's stable identity and id.
// Under `hash`/`omit` every string that holds a value (message, predicate, witness value, subject
// and provenance) is redacted whole (quote.ts · textRedactor), never only in the matched part.
// Must never put an unquoted, unbounded value from telemetry into an attribute.

import * as crypto from 'node:crypto';
import type { Attributes, SpanEventData } from '../model/telemetry.js';
import type { Finding } from '../model/finding.js';
import type { Redaction } from '../model/finding.js';
import { textRedactor, type TextRedactor } from './quote.js';
import * as N from './names.js';

/** kind + seam + sorted subjects + predicate: one defect, however often it is re-detected. */
export function findingIdentity(f: Pick<Finding, 'kind' | 'seam' | 'subjects' | 'predicate'>): string {
  const subjects = f.subjects.map((s) => `${s.kind} ${s.id}`).sort().join(' + ');
  return `${f.kind} @${f.seam} [${subjects}] ${f.predicate}`;
}

/** crypto.hash where this Node has it (20.12 and later), else createHash: the same hex digest of the text's UTF-8. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Stable across runs of the same input: a hash of the trace id and the identity. `crypto.hash` is the
 * one-shot form of createHash().update().digest() (the same digest, without a Hash object a
 * finding: issue 36, ~10 µs each).
 */
export function findingId(f: Finding): string {
  return sha256Hex(`${f.span.traceId} ${findingIdentity(f)}`).slice(0, 32);
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

/** Every raw value a finding quotes: its value and `sensitive` (what `hash`/`omit` must hide). */
export function sensitiveValues(f: Pick<Finding, 'value' | 'sensitive'>): string[] {
  return [...(f.value !== undefined ? [f.value] : []), ...(f.sensitive ?? [])].filter((v) => v.trim() !== '');
}

/** The values a finding's witnesses quote (declared ones are the declarations' words, not data). */
export function witnessValues(f: Pick<Finding, 'witnesses'>): string[] {
  return f.witnesses.filter((w) => w.stratum !== 'declared').map((w) => w.value);
}

/** The redactor of one finding's texts: its values, its sensitive values and its witnesses' values. */
export function findingRedactor(f: Finding, o: Pick<EventOptions, 'redaction' | 'quotedValueChars'>): TextRedactor {
  return textRedactor(sensitiveValues(f), o.redaction, o.quotedValueChars, witnessValues(f));
}

/** Witnesses as a JSON array under the byte bound: whole witnesses are dropped from the end, and counted. */
function witnessesJson(f: Finding, o: EventOptions, r: TextRedactor): string {
  const hide = o.redaction !== 'quote';
  const items = f.witnesses.map((w) => ({
    ...w,
    ...(hide ? { subject: r.text(w.subject), predicate: r.predicate(w.predicate) } : {}),
    value: hide && w.stratum !== 'declared' ? r.value(w.value) : w.value,
    provenance: fitBytes(r.text(w.provenance), 400),
  }));
  for (let n = items.length; n >= 0; n--) {
    const kept: unknown[] = items.slice(0, n);
    if (n < items.length) kept.push({ omitted: items.length - n });
    const json = JSON.stringify(kept);
    if (Buffer.byteLength(json, 'utf8') <= o.maxAttributeBytes) return json;
  }
  return JSON.stringify([{ omitted: items.length }]);
}

export function findingToEvent(f: Finding, time: bigint, o: EventOptions): SpanEventData {
  const r = findingRedactor(f, o);
  const fit = (s: string) => fitBytes(s, o.maxAttributeBytes);
  const attributes: Attributes = {
    [N.ATTR_FINDING_KIND]: f.kind,
    [N.ATTR_FINDING_SEAM]: f.seam,
    [N.ATTR_FINDING_ID]: findingId(f),
    [N.ATTR_FINDING_PREDICATE]: fit(r.predicate(f.predicate)),
    [N.ATTR_FINDING_MESSAGE]: fit(r.text(f.message)),
    [N.ATTR_FINDING_WITNESSES]: witnessesJson(f, o, r),
  };
  if (f.value !== undefined) attributes[N.ATTR_FINDING_VALUE] = fit(r.value(f.value));
  if (f.toolName) attributes[N.ATTR_TOOL_NAME] = fit(f.toolName);
  if (f.toolCallId) attributes[N.ATTR_TOOL_CALL_ID] = fit(f.toolCallId);
  if (f.grounding) attributes[N.ATTR_FINDING_GROUNDING] = f.grounding;
  if (f.advisory) attributes[N.ATTR_FINDING_ADVISORY] = true;
  attributes[N.ATTR_FINDING_ARMED_BY] = f.armedBy ?? 'declared';
  if (f.armedEvidence) attributes[N.ATTR_FINDING_ARMED_EVIDENCE] = fit(f.armedEvidence);
  return { name: N.EVENT_FINDING, timeUnixNano: time, attributes };
}
