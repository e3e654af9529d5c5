// Phone numbers, found and read by libphonenumber-js: `+1 (415) 555-0132`, `415.555.0132` and a
// served `14155550132` are one number, keyed by its national significant number (`p:4155550132`),
// so a country code or a trunk prefix written or left out does not matter, nor the grouping.
// Numbers without a country code are read as North American, then as a trunk-prefix (`0…`)
// number. Only numbers libphonenumber-js finds valid are read. Pure: no I/O, no clocks.

import { findPhoneNumbersInText, type CountryCode, type PhoneNumber } from 'libphonenumber-js';
import { KEY, type TypedValue } from './types.js';

/** Default countries tried for numbers written without `+`: NANP, then a trunk-0 plan. */
const DEFAULT_COUNTRIES: readonly CountryCode[] = ['US', 'GB'];
/** A run of 7 or more digits with only a phone's punctuation between them, not an ISO date: a quick pre-test. */
const PHONE_RUN = /\+?\(?\d[\d \t().-]{5,}\d/g;
function mayHoldPhone(text: string): boolean {
  for (const m of text.matchAll(PHONE_RUN)) {
    const run = m[0];
    if (/^\d{4}-\d{2}-\d{2}/.test(run) && run.replace(/\D/g, '').length <= 8) continue;
    if (run.replace(/\D/g, '').length >= 7) return true;
  }
  return false;
}

const groups = (s: string) => s.replace(/\D/g, ' ').trim().split(/\s+/).map((g) => g.length).join(',');
function groupedAsFormatted(raw: string, n: PhoneNumber): boolean {
  const written = groups(raw);
  return [n.formatNational(), n.formatInternational()].some((f) => groups(f) === written || groups(f).endsWith(`,${written}`));
}

/** The phones of an NFKC text, in text order, at most `max`. */
export function readPhones(text: string, max: number): TypedValue[] {
  const out: TypedValue[] = [];
  if (!mayHoldPhone(text)) return out;
  for (const country of DEFAULT_COUNTRIES) {
    let found: ReturnType<typeof findPhoneNumbersInText>;
    try {
      found = findPhoneNumbersInText(text, { defaultCountry: country });
    } catch {
      continue;
    }
    for (const f of found) {
      if (out.length >= max) return out;
      if (out.some((o) => f.startsAt < o.end && f.endsAt > o.start)) continue;
      const raw = text.slice(f.startsAt, f.endsAt);
      // A bare run of digits inside a longer number or an id is not a phone.
      if (/^\d+$/.test(raw) && raw.length < 10) continue;
      // Digits split by blanks only, or by dots, are a phone when they are grouped as the number's
      // country groups it (libphonenumber-js's national or international format): numbers in a
      // table row are not, nor a range of two prices (`128.00-214.00`); `415.555.0132` is.
      if (((/^[\d ]+$/.test(raw) && raw.includes(' ')) || raw.includes('.')) && !groupedAsFormatted(raw, f.number)) continue;
      const key = KEY.phone + f.number.nationalNumber;
      out.push({ kind: 'phone', raw, start: f.startsAt, end: f.endsAt, keys: [key], key });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
