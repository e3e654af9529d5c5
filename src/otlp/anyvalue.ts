// OTLP AnyValue <-> plain values, for the JSON encoding (protobuf decoders produce the same
// shapes). Decoding never throws: an unknown or broken value decodes to null; a container nested
// past MAX_VALUE_NESTING decodes to null and is counted in the tally.

import type { AttrValue, Attributes } from '../model/telemetry.js';
import { MAX_VALUE_NESTING } from '../limits.js';
import type { DecodeTally } from './decode-tally.js';

/** Decodes one OTLP/JSON AnyValue. `{}` (an empty AnyValue) is null, as the JS serializer writes it. */
export function decodeAnyValue(v: unknown, depth = 0, tally?: DecodeTally): AttrValue {
  if (v === null || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if ('stringValue' in o) return typeof o.stringValue === 'string' ? o.stringValue : String(o.stringValue ?? '');
  if ('boolValue' in o) return o.boolValue === true || o.boolValue === 'true';
  if ('intValue' in o) return decodeInt(o.intValue);
  if ('doubleValue' in o) {
    const d = typeof o.doubleValue === 'number' ? o.doubleValue : Number(o.doubleValue);
    return Number.isNaN(d) && typeof o.doubleValue === 'string' ? o.doubleValue : d;
  }
  if ('arrayValue' in o || 'kvlistValue' in o) {
    if (depth >= MAX_VALUE_NESTING) {
      if (tally) tally.deepValues++;
      return null;
    }
  }
  if ('arrayValue' in o) {
    const values = (o.arrayValue as { values?: unknown } | null)?.values;
    return Array.isArray(values) ? values.map((x) => decodeAnyValue(x, depth + 1, tally)) : [];
  }
  if ('kvlistValue' in o) {
    const values = (o.kvlistValue as { values?: unknown } | null)?.values;
    return decodeKeyValues(values, depth + 1, tally);
  }
  if ('bytesValue' in o) {
    return typeof o.bytesValue === 'string' ? Uint8Array.from(Buffer.from(o.bytesValue, 'base64')) : new Uint8Array();
  }
  return null;
}

function decodeInt(v: unknown): number | string {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  return 0;
}

/** Decodes an OTLP KeyValue list into an object; later duplicate keys win. */
export function decodeKeyValues(list: unknown, depth = 0, tally?: DecodeTally): { [key: string]: AttrValue } {
  const out: { [key: string]: AttrValue } = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!kv || typeof kv !== 'object') continue;
    const key = (kv as { key?: unknown }).key;
    if (typeof key !== 'string') continue;
    const value = decodeAnyValue((kv as { value?: unknown }).value, depth, tally);
    // '__proto__' is an ordinary attribute key in OTLP: an assignment would set the prototype (or be ignored).
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

/** Encodes a plain value as an OTLP/JSON AnyValue. */
export function encodeAnyValue(v: AttrValue | undefined): Record<string, unknown> {
  if (v === null || v === undefined) return {};
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (v instanceof Uint8Array) return { bytesValue: Buffer.from(v).toString('base64') };
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x) => encodeAnyValue(x)) } };
  return { kvlistValue: { values: encodeKeyValues(v) } };
}

export function encodeKeyValues(attrs: Attributes): { key: string; value: Record<string, unknown> }[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: encodeAnyValue(value) }));
}
