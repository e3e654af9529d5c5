// The grounding of one chosen argument value against the frame of the request that chose it, in
// a fixed order: a free-text phrase by case-insensitive substring; a phone by digits; an
// identifier by WHOLE served token (or by the join of a served run of display groups, `DE02 2005
// 0550 …`, grouped-values.ts), then declared enum, app-asserted external ground, a value
// served only by a tool that is not a declared producer (`wrong-producer`, advisory), a proper part
// of a served token (`fragment`), a join of whole served tokens (`composed`, a pass), a date
// (or a `YYYY-MM` month) computed from a served anchor and the user's relative phrase (`derived`,
// advisory); else
// `assistant-only` or `nowhere`. Must never pass a fragment or call a computed date served.
// Pure: no I/O, no clocks, no globals.

import type { Frame, ServedString } from '../model/frame.js';
import type { ExternalGround } from '../model/agent.js';
import { ServedGrounds, type Place } from './argument-grounds.js';
import { ServedPhones } from './argument-phones.js';
import { composedOf, type ComposedPart } from './argument-composed.js';
import { anchorsOf, derivedDate, derivedMonth, isoDateOf, isoMonthOf, spansOf, type DerivedDate } from './argument-dates.js';
import { isFragmentOf, phoneDigits, type JudgedValue } from './argument-identity.js';
import { groupedJoins, MIN_JOINED_CHARS } from './grouped-values.js';
import { ANY_PRODUCER } from './argument-sources.js';

/** Display-grouped joins read per served string (the answer-side cap of unsupported-value's forms). */
const MAX_JOINS_PER_TEXT = 2000;

export type Verdict =
  | { grounding: 'served' }
  | { grounding: 'enum' }
  | { grounding: 'external'; ground: ExternalGround }
  | { grounding: 'composed'; parts: ComposedPart[] }
  | { grounding: 'wrong-producer'; served: ServedString }
  | { grounding: 'fragment'; place: Place }
  | { grounding: 'derived'; derived: DerivedDate }
  | { grounding: 'unserved' };

/** Whether a JSON text holds `"<field>": "<value>"` (value compared lower-cased, as `needle`). */
export function underField(text: string, field: string, needle: string): boolean {
  const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`"${esc(field)}"\\s*:\\s*"?${esc(needle)}"?\\s*[,}\\]]`, 'i').test(text);
}

/** One request's frame, with what grounding needs built on first use. */
export class FrameGrounds {
  readonly served: ServedGrounds;
  private phones: ServedPhones | undefined;
  private grouped: Map<string, ServedString[]> | undefined;
  private dates: { anchors: ReturnType<typeof anchorsOf>; spans: ReturnType<typeof spansOf> } | undefined;
  private externalLower: { g: ExternalGround; lower: string }[] | undefined;

  constructor(
    private readonly frame: Frame,
    values: number,
  ) {
    this.served = new ServedGrounds(frame.served, values);
  }

  private external(): { g: ExternalGround; lower: string }[] {
    return (this.externalLower ??= this.frame.external.filter((g) => g.value.trim() !== '' && g.source.trim() !== '').map((g) => ({ g, lower: g.value.toLowerCase() })));
  }

  private phoneGrounds(): ServedPhones {
    return (this.phones ??= new ServedPhones(() => this.served.texts()));
  }

  /** The served strings holding a display-grouped run (`DE02 2005 0550 …`) that joins to `needle`. */
  private groupedServing(needle: string): ServedString[] {
    if (!this.grouped) {
      this.grouped = new Map();
      for (const { served, text } of this.served.texts()) {
        for (const g of groupedJoins(text, MAX_JOINS_PER_TEXT)) {
          const list = this.grouped.get(g.key);
          if (!list) this.grouped.set(g.key, [served]);
          else if (!list.includes(served)) list.push(served);
        }
      }
    }
    return this.grouped.get(needle) ?? [];
  }

  private dateGrounds() {
    if (!this.dates) {
      const texts = this.served.texts();
      const user = texts.filter((t) => t.served.source === 'user').map((t) => t.text);
      const spans = spansOf(user);
      this.dates = { anchors: spans.length > 0 ? anchorsOf(texts) : [], spans };
    }
    return this.dates;
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
      if (this.served.containsPhrase(needle) || this.phoneGrounds().find(phoneDigits(value.text)!)) return { grounding: 'served' };
      return this.externalOrUnserved(needle);
    }
    const fromProducer = (s: ServedString) => s.source !== 'tool-result' || s.toolName === undefined || producers.includes(s.toolName) || producers.includes(ANY_PRODUCER);
    const located = this.served.locate(needle, fromProducer);
    if (located.accepted) return { grounding: 'served' };
    // The same identifier written in display groups (the user typed `DE02 2005 0550 1015 8713 93`).
    if (needle.length >= MIN_JOINED_CHARS && !located.whole && this.groupedServing(needle).some(fromProducer)) return { grounding: 'served' };
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
    const date = isoDateOf(value.text);
    if (date !== undefined) {
      const { anchors, spans } = this.dateGrounds();
      const derived = derivedDate(date, anchors, spans);
      if (derived) return { grounding: 'derived', derived };
    }
    const month = date === undefined ? isoMonthOf(value.text) : undefined;
    if (month !== undefined) {
      const { anchors, spans } = this.dateGrounds();
      const derived = derivedMonth(month, anchors, spans);
      if (derived) return { grounding: 'derived', derived };
    }
    return { grounding: 'unserved' };
  }

  private externalOrUnserved(needle: string): Verdict {
    const external = this.external().find((e) => e.lower.includes(needle));
    return external ? { grounding: 'external', ground: external.g } : { grounding: 'unserved' };
  }
}
