// What kind of value an argument leaf is, for grounding: an identifier-like string (compared with
// WHOLE served tokens), a free-text phrase (the lenient substring rule), a phone number (compared
// by digits), or an integer that is an identifier (the schema names or describes it as an id, or
// it has 4+ digits) and so is compared with served numbers. Everything else is not judged.
// Must never judge a quantity (`limit`, `days`, `page_size`, `amount_cents`, `timeoutMs`) as an
// identifier unless its name ends in "id" or the schema describes it as one. Pure: no I/O, no clocks, no globals.

/** Trimmed string values shorter than this are never checked. */
export const MIN_CHECKED_LENGTH = 4;
/** Digits an integer needs to count as an identifier when nothing names it one. */
export const MIN_IDENTIFIER_DIGITS = 4;

export type ValueForm = 'identifier' | 'phrase' | 'phone';

export interface JudgedValue {
  /** The value as compared (an integer as its decimal digits). */
  text: string;
  form: ValueForm;
  /** True when the leaf was a JSON number. */
  integer: boolean;
}

const WHITESPACE = /\s/;
const HAS_DIGIT = /\d/;
const INNER_SEPARATOR = /[-_:/.@#]/;
const PHONE = /^\+?[\d\s().-]{7,22}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/** The digits of a phone-like value (7 to 15 digits, written with `+ ( ) - . ` or spaces), else undefined. */
export function phoneDigits(value: string): string | undefined {
  const v = value.trim();
  if (!PHONE.test(v) || ISO_DATE.test(v)) return undefined;
  const digits = v.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return undefined;
  // A bare run of digits is a number, not a phone written out.
  if (digits === v) return undefined;
  return digits;
}

/** An identifier-like string: one token (no whitespace) with a digit or an inner separator. */
export function isIdentifierLike(value: string): boolean {
  const v = value.trim();
  if (WHITESPACE.test(v)) return false;
  return HAS_DIGIT.test(v) || INNER_SEPARATOR.test(v.slice(1, -1));
}

/** Words of a quantity's name (`limit`, `amount_cents`, `timeoutMs`, `size_gb`): such a leaf is no identifier by name or size alone. */
const QUANTITY_WORDS = new Set(
  ('limit count size page pages offset top k n max min days day hours hour minutes minute seconds second secs ms millis milliseconds ' +
    'timeout retries retry depth year years month months week weeks amount amounts cents price cost total sum threshold port version ' +
    'lookback window interval bytes kb mb gb tb kib mib gib percent pct ratio rate quantity qty length width height duration ttl batch per')
    .split(' '),
);
/** Ends in id/ids: `machine_id`, `machineId`, `ID`. */
const ID_NAME = /(?:^|[_-])ids?$|[a-z0-9]Ids?$|ID$|^ids?$/;
/** Ends in number/num/no: `order_number`, `ticketNo` (weaker: a quantity word wins, `page_number`). */
const NUMBER_NAME = /(?:^|[_-])(?:number|num|no)$|[a-z](?:Number|Num|No)$/;
const ID_DESCRIPTION = /\b(?:id|ids|identifier|identifiers)\b/i;

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** The schema of one argument path (`args.a.0.b`) inside a tool's input schema, if it declares one. */
export function propertySchema(schema: unknown, path: string): Record<string, unknown> | undefined {
  const parts = path.split('.').slice(1);
  let node: unknown = schema;
  for (const p of parts) {
    if (node === null || typeof node !== 'object') return undefined;
    const n = node as Record<string, unknown>;
    if (/^\d+$/.test(p) && n['items'] !== undefined) node = n['items'];
    else {
      const props = n['properties'];
      if (props === null || typeof props !== 'object') return undefined;
      node = (props as Record<string, unknown>)[p];
    }
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/** The leaf's own name: the last path part that is not an array index. */
export function leafName(path: string): string {
  const parts = path.split('.');
  for (let i = parts.length - 1; i >= 1; i--) if (!/^\d+$/.test(parts[i]!)) return parts[i]!;
  return '';
}

/** True when an integer leaf is an identifier: named or described as one, or 4+ digits and not a quantity. */
export function isIdentifierInteger(path: string, value: number, schemas: readonly unknown[]): boolean {
  if (!Number.isSafeInteger(value) || value < 0) return false;
  const name = leafName(path);
  for (const s of schemas) {
    const description = propertySchema(s, path)?.['description'];
    if (typeof description === 'string' && ID_DESCRIPTION.test(description)) return true;
  }
  if (ID_NAME.test(name)) return true;
  if (nameWords(name).some((w) => QUANTITY_WORDS.has(w))) return false;
  if (NUMBER_NAME.test(name)) return true;
  return String(value).length >= MIN_IDENTIFIER_DIGITS;
}

/** Other names of identifiers: `order_ref`, `bookingReference`, `sku`, `iban`, `uuid`, `pnr`. */
const REF_NAME = /(?:^|[_-])(?:ref|reference|sku|iban|uuid|guid|pnr)$|[a-z0-9](?:Ref|Reference|Uuid|Guid|Sku|Iban|Pnr)$|^(?:sku|iban|uuid|guid|pnr)$/;

/**
 * Why an argument leaf is an identifier with nothing declared about it (the inferred tier of
 * unsupported-argument), or undefined when it is not one: its schema says so (a `format` such as
 * uuid, a `pattern`, a description calling it an id or identifier) or its name does (`*_id`,
 * `*Id`, `*_ref`, `*_number` that is no quantity, `sku`, `iban`); and its value is shaped like one
 * (one token with a digit or an inner separator, or an identifier integer). Free text never is.
 */
export function identifierArgumentEvidence(path: string, value: unknown, schemas: readonly unknown[]): string | undefined {
  const name = leafName(path);
  if (name === '') return undefined;
  const shaped = typeof value === 'number' ? isIdentifierInteger(path, value, schemas) : typeof value === 'string' && value.trim().length >= MIN_CHECKED_LENGTH && isIdentifierLike(value) && phoneDigits(value) === undefined;
  if (!shaped) return undefined;
  for (const schema of schemas) {
    const p = propertySchema(schema, path);
    if (!p) continue;
    if (typeof p['format'] === 'string' && /^(?:uuid|uri|iri)$/i.test(p['format'])) return `the schema of '${name}' gives it the format ${p['format']}`;
    if (typeof p['pattern'] === 'string') return `the schema of '${name}' gives it a pattern`;
    const d = p['description'];
    if (typeof d === 'string' && ID_DESCRIPTION.test(d)) return `the schema describes '${name}' as an identifier`;
  }
  if (ID_NAME.test(name) || REF_NAME.test(name)) return `the argument '${name}' is named as an identifier`;
  if (NUMBER_NAME.test(name) && !nameWords(name).some((w) => QUANTITY_WORDS.has(w))) return `the argument '${name}' is named as an identifier`;
  return undefined;
}

/** How a leaf is judged, or undefined when it is not (short strings, non-identifier numbers, booleans, null). */
export function judgedValue(path: string, value: unknown, schemas: readonly unknown[]): JudgedValue | undefined {
  if (typeof value === 'number') return isIdentifierInteger(path, value, schemas) ? { text: String(value), form: 'identifier', integer: true } : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.length < MIN_CHECKED_LENGTH) return undefined;
  if (phoneDigits(text) !== undefined) return { text, form: 'phone', integer: false };
  return { text, form: isIdentifierLike(text) ? 'identifier' : 'phrase', integer: false };
}

/**
 * Whether a value found only inside `token` counts as cut from it: at least 4 characters, and an
 * integer only from a longer number (`4521` of `45210`, never `4` of `srv-db-04`).
 */
export function isFragmentOf(value: JudgedValue, token: string): boolean {
  if (value.text.length < MIN_CHECKED_LENGTH) return false;
  return !value.integer || /^\d+$/.test(token);
}
