// How a value from telemetry is shown to people: NFKC-normalised, control and format characters
// removed, line breaks flattened, backticks turned into apostrophes, capped in code points with
// "…". Text from spans is data: this only quotes it, never interprets it.

import { createHash } from 'node:crypto';
import type { Redaction } from '../model/finding.js';

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const LINE_BREAKS = /[\r\n\u2028\u2029]+/g;

/** Cleans and caps a value for display. `cap` counts code points, not UTF-16 units. */
export function quoteText(value: string, cap: number): string {
  const clean = value.normalize('NFKC').replace(LINE_BREAKS, ' ').replace(CONTROL_OR_FORMAT, '').replace(/`/g, "'");
  const points = Array.from(clean);
  return points.length <= cap ? clean : `${points.slice(0, cap).join('')}…`;
}

/** A stable, non-reversible stand-in for a value (redaction `hash`). */
export function hashValue(value: string): string {
  return `sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16)}`;
}

export const OMITTED = '(omitted)';

/** The value as the redaction setting lets it be written. */
export function redactValue(value: string, redaction: Redaction, cap: number): string {
  if (redaction === 'omit') return OMITTED;
  if (redaction === 'hash') return hashValue(value);
  return quoteText(value, cap);
}
