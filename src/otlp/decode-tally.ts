// What the OTLP decoders changed while normalising a request, counted so it can be reported
// (partialSuccess error_message, metrics, a log line) instead of changed silently: containers
// nested past MAX_VALUE_NESTING cut to an empty value, lone UTF-16 surrogates replaced by U+FFFD.
// Must never hold limits (they live in src/limits.ts) or throw.

export interface DecodeTally {
  /** Attribute values or log bodies whose nesting was cut at MAX_VALUE_NESTING. */
  deepValues: number;
  /** Strings in which lone UTF-16 surrogates were replaced by U+FFFD. */
  loneSurrogates: number;
}

export function newTally(): DecodeTally {
  return { deepValues: 0, loneSurrogates: 0 };
}

/** The warning the sender is told (partialSuccess error_message), or undefined when nothing changed. */
export function tallyMessage(t: DecodeTally): string | undefined {
  const parts: string[] = [];
  if (t.deepValues) parts.push(`${t.deepValues} attribute value${t.deepValues === 1 ? '' : 's'} nested deeper than MAX_VALUE_NESTING were cut to an empty value`);
  if (t.loneSurrogates) parts.push(`${t.loneSurrogates} string${t.loneSurrogates === 1 ? '' : 's'} with lone UTF-16 surrogates had them replaced by U+FFFD`);
  return parts.length ? parts.join('; ') : undefined;
}

const LONE_SURROGATE_SOURCE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE_SOURCE);
const LONE_SURROGATES = new RegExp(LONE_SURROGATE_SOURCE, 'g');

/** The string with every lone surrogate replaced by U+FFFD; counts one per string changed. */
export function wellFormed(s: string, tally?: DecodeTally): string {
  const ok = (s as { isWellFormed?: () => boolean }).isWellFormed?.() ?? !HAS_LONE_SURROGATE.test(s);
  if (ok) return s;
  if (tally) tally.loneSurrogates++;
  return s.replace(LONE_SURROGATES, '\uFFFD');
}

/** A JSON text can hold a lone surrogate only as a \uD800–\uDFFF escape: a cheap test before a full pass. */
export function mayHoldSurrogateEscapes(text: string): boolean {
  return /\\u[dD][89a-fA-F]/.test(text);
}

/**
 * Replaces lone surrogates in every string and key of a parsed JSON value, in place where it can
 * (keys are re-inserted). Iterative, so a deeply nested document cannot overflow the stack.
 */
export function scrubSurrogates(root: unknown, tally: DecodeTally): unknown {
  if (typeof root === 'string') return wellFormed(root, tally);
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === 'string') v[i] = wellFormed(x, tally);
        else if (x && typeof x === 'object') stack.push(x);
      }
      continue;
    }
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const x = o[k];
      const fixedKey = wellFormed(k, tally);
      const fixed = typeof x === 'string' ? wellFormed(x, tally) : x;
      if (fixedKey !== k) {
        delete o[k];
        Object.defineProperty(o, fixedKey, { value: fixed, enumerable: true, writable: true, configurable: true });
      } else if (fixed !== x) o[k] = fixed;
      if (fixed && typeof fixed === 'object') stack.push(fixed);
    }
  }
  return root;
}
