// The grounding of one chosen argument value against the frame of the request that chose it, in
// a fixed order: a free-text phrase by case-insensitive substring; a phone by its typed value
// (libphonenumber-js, src/values/phones.ts: any grouping, with or without a country code); an
// identifier by WHOLE served token, or by its typed key (src/values/identifiers.ts: the same
// identifier modulo case, punctuation, display grouping `DE02 2005 0550 …` and width), then
// declared enum, app-asserted external ground, a value served only by a tool that is not a
// declared producer (`wrong-producer`, advisory), a proper part of a served token (`fragment`), a
// join of whole served tokens (`composed`, a pass), a date or month that equals a served one in
// another form (`2024-05-19` for a served "May 19, 2024": served), or one derived from a served
// date and a relative expression the user or system wrote ("the next day", "last month":
// `derived`, a pass with the derivation as witness, src/values/derive.ts); else `assistant-only`
// or `nowhere`. Must never pass a fragment or call a computed date served.
// Pure: no I/O, no clocks, no globals.

import type { Frame, ServedString } from '../model/frame.js';
import type { ExternalGround } from '../model/agent.js';
import { ServedGrounds, type Place } from './argument-grounds.js';
import { composedOf, type ComposedPart } from './argument-composed.js';
import { isFragmentOf, type JudgedValue } from './argument-identity.js';
import { ServedValues, type ValueMemo } from '../values/served.js';
import { readForms } from '../values/read.js';
import { identifierKey } from '../values/identifiers.js';
import { relativeShifts, type Shift } from '../values/relative.js';
import { deriveDate, type DateDerivation } from '../values/derive.js';
import { KEY } from '../values/types.js';
import { ANY_PRODUCER } from './argument-sources.js';

/** A date argument as a bare ISO date or month (`2024-05-19`, `2024-05`, a date-time's date). */
const ISO_VALUE = /^(\d{4}-\d{2}(?:-\d{2})?)(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
/** Relative expressions read from the user's and system's words per request. */
const MAX_SHIFTS = 64;

export interface DerivedDate {
  /** The served date the value was computed from, and where it was served. */
  anchor: { date: string; served: ServedString };
  phrase: string;
  /** The arithmetic, e.g. `2025-12-01 − 7 day(s) ("last 7 days") = 2025-11-24`. */
  arithmetic: string;
}

/** Whether a JSON text holds `"<field>": "<value>"` (value compared lower-cased, as `needle`). */
export function underField(text: string, field: string, needle: string): boolean {
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`"${esc(field)}"\\s*:\\s*"?${esc(needle)}"?\\s*[,}\\]]`, 'i').test(text);
}

export type Verdict =
  | { grounding: 'served' }
  | { grounding: 'enum' }
  | { grounding: 'external'; ground: ExternalGround }
  | { grounding: 'composed'; parts: ComposedPart[] }
  | { grounding: 'wrong-producer'; served: ServedString }
  | { grounding: 'fragment'; place: Place }
  | { grounding: 'derived'; derived: DerivedDate }
  | { grounding: 'unserved' };

/** One request's frame, with what grounding needs built on first use. */
export class FrameGrounds {
  readonly served: ServedGrounds;
  private typed: { values: ServedValues; strings: ServedString[] } | undefined;
  private shifts: Shift[] | undefined;
  private externalLower: { g: ExternalGround; lower: string }[] | undefined;

  constructor(
    private readonly frame: Frame,
    values: number,
    private readonly memo?: ValueMemo,
  ) {
    this.served = new ServedGrounds(frame.served, values);
  }

  private external(): { g: ExternalGround; lower: string }[] {
    return (this.externalLower ??= this.frame.external.filter((g) => g.value.trim() !== '' && g.source.trim() !== '').map((g) => ({ g, lower: g.value.toLowerCase() })));
  }

  /** The typed values the frame served (tool schemas' text aside, examples blanked). */
  private typedValues(): { values: ServedValues; strings: ServedString[] } {
    if (!this.typed) {
      const texts = this.served.texts().filter((t) => t.served.source !== 'tool-schema');
      this.typed = { values: new ServedValues(texts.map((t) => ({ text: t.text })), this.memo), strings: texts.map((t) => t.served) };
    }
    return this.typed;
  }

  /** The served string that holds one of these typed keys, if one does. */
  private typedServing(keys: readonly string[]): ServedString | undefined {
    const { values, strings } = this.typedValues();
    const hit = values.lookupAny(keys);
    return hit ? strings[hit.at] : undefined;
  }

  private relative(): Shift[] {
    return (this.shifts ??= relativeShifts(
      this.frame.served.filter((s) => s.source === 'user' || s.source === 'system').map((s) => s.text),
      MAX_SHIFTS,
    ));
  }

  /**
   * Grounds one judged value. `producers` are the declared producers of its argument; `enums` the
   * tool's declared enum values (lower-cased).
   */
  ground(value: JudgedValue, producers: readonly string[], enums: ReadonlySet<string>, argName?: string): Verdict {
    const needle = value.text.toLowerCase();
    if (enums.has(needle)) return { grounding: 'enum' };
    if (value.form === 'phrase') {
      if (this.served.containsPhrase(needle)) return { grounding: 'served' };
      return this.externalOrUnserved(needle);
    }
    if (value.form === 'phone') {
      const phone = readForms(value.text.normalize('NFKC'), 4, false).find((v) => v.kind === 'phone');
      if (this.served.containsPhrase(needle) || (phone && this.typedServing(phone.keys))) return { grounding: 'served' };
      return this.externalOrUnserved(needle);
    }
    const fromProducer = (s: ServedString) => s.source !== 'tool-result' || s.toolName === undefined || producers.includes(s.toolName) || producers.includes(ANY_PRODUCER);
    const located = this.served.locate(needle, fromProducer);
    if (located.accepted) return { grounding: 'served' };
    // The same identifier in another writing: case, punctuation, display groups (`DE02 2005 0550 …`), width.
    const id = located.whole ? undefined : (identifierKey(value.text) ?? (/^\d{10,}$/.test(value.text) ? KEY.identifier + value.text : undefined));
    const sameId = id ? this.typedServing([id]) : undefined;
    if (sameId && fromProducer(sameId)) return { grounding: 'served' };
    const external = this.external().find((e) => e.lower.includes(needle));
    if (external) return { grounding: 'external', ground: external.g };
    // Served by a tool the declaration did not list, but under the argument's own field name
    // (`"payment_id": "gift_card_…"` in a reservation's payment history for `payment_id`): the same
    // kind of identifier, typed by its field, so served.
    if (located.whole && argName !== undefined && underField(located.whole.text, argName, needle)) return { grounding: 'served' };
    if (located.whole) return { grounding: 'wrong-producer', served: located.whole };
    if (located.fragment && isFragmentOf(value, located.fragment.token ?? '')) return { grounding: 'fragment', place: located.fragment };
    const parts = composedOf(needle, (part) => this.served.locate(part).whole);
    if (parts) return { grounding: 'composed', parts };
    const iso = ISO_VALUE.exec(value.text.trim())?.[1];
    if (iso !== undefined) {
      // The same date served in another form ("May 19, 2024"), or derived from a served one.
      if (this.typedServing([(iso.length === 7 ? KEY.month : KEY.date) + iso])) return { grounding: 'served' };
      const derived = this.derived(iso);
      if (derived) return { grounding: 'derived', derived };
    }
    return { grounding: 'unserved' };
  }

  private derived(iso: string): DerivedDate | undefined {
    if (this.relative().length === 0) return undefined;
    const { values, strings } = this.typedValues();
    // An expression that counts from today is anchored on a date the user or system wrote ("Today
    // is …"); where they wrote none, on any served date (the latest tool timestamp stands for now).
    const said = (a: { at: number }) => strings[a.at]!.source === 'user' || strings[a.at]!.source === 'system';
    const anchors = values.dates();
    const anySaid = anchors.some(said);
    const d: DateDerivation | undefined = deriveDate(iso, anchors, this.relative(), (a) => !anySaid || said(a));
    return d ? { anchor: { date: d.anchor.date, served: strings[d.anchor.at]! }, phrase: d.shift.phrase, arithmetic: d.formula } : undefined;
  }

  private externalOrUnserved(needle: string): Verdict {
    const external = this.external().find((e) => e.lower.includes(needle));
    return external ? { grounding: 'external', ground: external.g } : { grounding: 'unserved' };
  }
}
