// Phone numbers compared by their digits: `+1 (555) 010-4477` meets `555.010.4477` and
// `15550104477` served. A served run of digits and phone punctuation counts when its digits equal the
// value's, or one is the other with a country code of at most three digits in front.
// Must never match fewer than 7 digits. Pure: no I/O, no clocks, no globals.

import type { ServedString } from '../model/frame.js';

const PHONE_RUN = /\+?\(?\d[\d\s().-]{5,21}\d/g;
const MIN_PHONE_DIGITS = 7;
const MAX_COUNTRY_CODE_DIGITS = 3;

/** Whether two digit strings are the same phone number (equal, or equal after a short country code). */
export function samePhone(a: string, b: string): boolean {
  if (a.length < MIN_PHONE_DIGITS || b.length < MIN_PHONE_DIGITS) return false;
  if (a === b) return true;
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.length - short.length <= MAX_COUNTRY_CODE_DIGITS && long.endsWith(short);
}

/** The served digit runs of a window, found once and asked many times. */
export class ServedPhones {
  private runs: { digits: string; served: ServedString }[] | undefined;
  constructor(private readonly texts: () => readonly { served: ServedString; text: string }[]) {}

  /** The first served string holding a phone number with these digits. */
  find(digits: string): ServedString | undefined {
    this.runs ??= this.texts().flatMap(({ served, text }) =>
      [...text.matchAll(PHONE_RUN)].map((m) => ({ digits: m[0].replace(/\D/g, ''), served })).filter((r) => r.digits.length >= MIN_PHONE_DIGITS),
    );
    return this.runs.find((r) => samePhone(r.digits, digits))?.served;
  }
}
