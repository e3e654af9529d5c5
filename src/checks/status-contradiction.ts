// Check `status-contradiction` (seam `answer`): the final answer says a state of an entity it
// names by a served identifier ("HAT041 is sold out", "order A-17 is paid", a flight listed under
// "Here are the available flights:"), and the latest served row of that entity carries the opposite
// value in a field of that meaning (`available_seats.economy: 0`, `status: "cancelled"`,
// `paid: false`). State words, negation and list headers are read by status-clauses.ts; rows by
// served-rows.ts. A field of that meaning: its name says the concept (avail, stock, sold_out;
// status/state; paid, payment_status; cancelled, active) and its value reads as a polarity (a flag,
// a count above or at zero, a state word). A field named for a variant (`economy` under
// `available_seats`) is the one read when the answer's words name that variant; otherwise the
// entity's own field is. Needs no declaration (armedBy inferred: the served rows). Fences: only the
// entity the words name (exactly one served identifier in the clause or list item); only fields
// the row gives; fields that disagree among themselves -> silent; a served text after the row that
// names the entity with the same state (a write's "not available" error) -> it has a source; a
// call after the row that names the entity (a write may have changed it) -> silent; a date in the
// clause that the row and its call do not hold -> another instance of the entity, silent; quantity
// talk ("not enough seats") states no state. One finding per entity and field. Detection only:
// nothing is blocked. Pure function over plain data: no I/O, no clocks, no globals.

import { CONTENT_NOT_CAPTURED } from './catalog.js';
import type { CheckOutcome, CheckTally, Finding, Witness } from '../model/finding.js';
import { newTally, addUnreachable } from '../model/finding.js';
import type { SpanRef } from '../model/telemetry.js';
import { quoteText } from '../findings/quote.js';
import { armedByInference } from './arming.js';
import { parsedResult, type ServedEntity, type ServedResult, type ServedRows } from './served-rows.js';
import { stateClaims, statesOf, type StateClaim, type StateConcept } from './status-clauses.js';
import { foldWord } from './absence-clauses.js';

export const STATUS_CONTRADICTION = 'status-contradiction';

const NOTHING_BLOCKED = 'Nothing here blocked the answer.';

export interface StatusContradictionInput {
  span: SpanRef;
  answerText: string | undefined;
  /** The tool results the conversation served up to this answer, in order (asked for only when the answer says a state). */
  served: () => readonly ServedResult[];
  /** The same results read as rows. */
  rows: () => ServedRows;
  quotedValueChars: number;
}

/** A field of a row read as a state: its concept, its polarity and the variant words it is named for. */
interface StateField {
  path: string;
  value: unknown;
  concept: StateConcept;
  positive: boolean;
  /** Words of its path that name a variant (`economy` of `available_seats.economy`). */
  variant: string[];
}

const POSITIVE_VALUES: Readonly<Record<StateConcept, ReadonlySet<string>>> = {
  availability: new Set(['available', 'in_stock', 'in stock', 'instock', 'bookable', 'open']),
  standing: new Set(['active', 'confirmed', 'valid', 'booked', 'scheduled', 'enabled', 'open', 'live']),
  payment: new Set(['paid', 'settled', 'succeeded', 'success', 'completed', 'complete', 'captured']),
};
const NEGATIVE_VALUES: Readonly<Record<StateConcept, ReadonlySet<string>>> = {
  availability: new Set(['unavailable', 'not_available', 'not available', 'sold_out', 'sold out', 'soldout', 'out_of_stock', 'out of stock', 'full', 'fully_booked', 'closed']),
  standing: new Set(['cancelled', 'canceled', 'inactive', 'void', 'voided', 'expired', 'terminated', 'suspended', 'deactivated', 'deleted', 'disabled', 'closed']),
  payment: new Set(['unpaid', 'not_paid', 'pending', 'due', 'overdue', 'outstanding', 'failed', 'declined']),
};

/** Words of a field path that say what it measures, not which variant: dropped from its variant words. */
const MEASURE_WORDS: ReadonlySet<string> = new Set([
  'available', 'availability', 'avail', 'stock', 'instock', 'sold', 'out', 'bookable', 'seat', 'count', 'qty', 'quantity', 'number', 'left',
  'remaining', 'total', 'status', 'state', 'is', 'has', 'flag', 'amount', 'paid', 'payment', 'cancelled', 'canceled', 'active', 'enabled',
  'deleted', 'void', 'unavailable', 'in', 'of', 'num', 'n',
]);

function conceptOfKey(path: string): { concept: StateConcept; inverse: boolean } | 'status' | undefined {
  const key = path.toLowerCase();
  const last = key.split('.').pop() ?? key;
  if (/(?:^|[_\s-])(?:status|state)$/.test(last)) return 'status';
  if (/sold_?out|unavail|out_?of_?stock/.test(key)) return { concept: 'availability', inverse: true };
  if (/avail|in_?stock|(?:^|[._])stock|bookable/.test(key)) return { concept: 'availability', inverse: false };
  if (/(?:^|[._])(?:is_?)?paid$|payment_?status/.test(key)) return { concept: 'payment', inverse: false };
  if (/(?:^|[._])(?:is_?)?(?:cancell?ed|deleted|void(?:ed)?|disabled|inactive)$/.test(key)) return { concept: 'standing', inverse: true };
  if (/(?:^|[._])(?:is_?)?(?:active|enabled)$/.test(key)) return { concept: 'standing', inverse: false };
  return undefined;
}

function polarityOfString(v: string, concept?: StateConcept): { concept: StateConcept; positive: boolean } | undefined {
  const s = v.trim().toLowerCase();
  const concepts: StateConcept[] = concept ? [concept] : ['availability', 'standing', 'payment'];
  for (const c of concepts) {
    if (POSITIVE_VALUES[c].has(s)) return { concept: c, positive: true };
    if (NEGATIVE_VALUES[c].has(s)) return { concept: c, positive: false };
  }
  return undefined;
}

/** The fields of a row (two levels deep, not into lists) that read as states. */
export function stateFields(row: Record<string, unknown>): StateField[] {
  const out: StateField[] = [];
  const visit = (v: unknown, path: string, depth: number) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      if (depth >= 2) return;
      for (const [k, x] of Object.entries(v).slice(0, 64)) visit(x, path === '' ? k : `${path}.${k}`, depth + 1);
      return;
    }
    if (path === '') return;
    const kind = conceptOfKey(path);
    if (!kind) return;
    // Variant words as written (lower case), for matching the answer's words; measure words, folded or not, are no variant.
    const variant = path
      .split(/[._\s-]+|(?<=[a-z])(?=[A-Z])/)
      .map((w) => w.toLowerCase())
      .filter((w) => w !== '' && !MEASURE_WORDS.has(w) && !MEASURE_WORDS.has(foldWord(w)));
    if (kind === 'status') {
      if (typeof v !== 'string') return;
      const p = polarityOfString(v);
      if (p) out.push({ path, value: v, ...p, variant });
      return;
    }
    let positive: boolean | undefined;
    if (typeof v === 'boolean') positive = v;
    else if (typeof v === 'number' && kind.concept === 'availability') positive = v > 0;
    else if (typeof v === 'string') {
      const p = polarityOfString(v, kind.concept);
      if (p) positive = p.positive;
      else if (/^(?:true|yes)$/i.test(v.trim())) positive = true;
      else if (/^(?:false|no)$/i.test(v.trim())) positive = false;
    }
    if (positive === undefined) return;
    out.push({ path, value: v, concept: kind.concept, positive: kind.inverse ? !positive : positive, variant });
  };
  visit(row, '', 0);
  return out;
}

function foldText(t: string): string {
  return ` ${t.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
}

/** The fields a claim is about: those whose variant the words name (longest first), else the entity's own. */
function fieldsFor(fields: readonly StateField[], concept: StateConcept, text: string): StateField[] {
  const ofConcept = fields.filter((f) => f.concept === concept);
  // Longest variant first; its words are taken out, so "basic economy" does not also name "economy".
  let words = foldText(text);
  const named: StateField[] = [];
  for (const f of ofConcept.filter((x) => x.variant.length > 0).sort((x, y) => y.variant.length - x.variant.length)) {
    const phrase = ` ${f.variant.join(' ')} `;
    if (!words.includes(phrase) && !named.some((g) => g.variant.join(' ') === f.variant.join(' '))) continue;
    named.push(f);
    words = words.split(phrase).join(' ');
  }
  if (named.length > 0) return named;
  return ofConcept.filter((f) => f.variant.length === 0);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Month-day keys of the dates a text names ("2024-05-13", "May 13"). */
function datesOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b\d{4}-(\d{2})-(\d{2})(?!\d)/g)) out.add(`${Number(m[1])}-${Number(m[2])}`);
  const months = MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?\\.?`).join('|');
  for (const m of text.toLowerCase().matchAll(new RegExp(`\\b(${months})\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'g'))) {
    const month = MONTHS.findIndex((x) => m[1]!.startsWith(x.slice(0, 3))) + 1;
    out.add(`${month}-${Number(m[2])}`);
  }
  return out;
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/** Whether a served identifier looks like one: a digit, an underscore or hyphen, or 3+ capitals (not a date or a number). */
function identifierLike(raw: string): boolean {
  if (raw.length < 3 || !(/\d/.test(raw) || /[_-]/.test(raw) || /^[A-Z]{3,}$/.test(raw))) return false;
  return !/^\d{4}-\d{2}-\d{2}/.test(raw) && !/^-?\d+(?:\.\d+)?$/.test(raw);
}

/** The tokens of a text, lower case (identifiers keep their inner `_`, `-` and `.`). */
function tokensOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}](?:[\p{L}\p{N}_\-.]*[\p{L}\p{N}])?/gu)) out.add(m[0].toLowerCase());
  return out;
}

/** The served entities named by the given tokens, by identifier (only identifiers that look like ones). */
function identifierIndex(entities: readonly ServedEntity[], wanted: ReadonlySet<string>): Map<string, ServedEntity[]> {
  const index = new Map<string, ServedEntity[]>();
  for (const e of entities) {
    for (const id of e.ids) {
      if (!wanted.has(id)) continue;
      const raw = Object.values(e.object).find((v) => (typeof v === 'string' || typeof v === 'number') && String(v).trim().toLowerCase() === id);
      if (raw === undefined || !identifierLike(String(raw).trim())) continue;
      const list = index.get(id) ?? [];
      if (!list.includes(e)) list.push(e);
      index.set(id, list);
    }
  }
  return index;
}

function mentioned(text: string, index: ReadonlyMap<string, ServedEntity[]>): string[] {
  return [...tokensOf(text)].filter((t) => index.has(t));
}

export function statusContradictions(input: StatusContradictionInput): CheckOutcome {
  const tally: CheckTally = newTally(STATUS_CONTRADICTION, 'answer');
  const findings: Finding[] = [];
  if (input.answerText === undefined) {
    addUnreachable(tally, CONTENT_NOT_CAPTURED);
    return { findings, tally };
  }
  // Only a claim whose words hold something shaped like an identifier can name a served entity.
  const claims = stateClaims(input.answerText).filter((c) => [...c.text.matchAll(/[\p{L}\p{N}](?:[\p{L}\p{N}_\-.]*[\p{L}\p{N}])?/gu)].some((m) => identifierLike(m[0])));
  const rows = claims.length > 0 ? input.rows() : undefined;
  if (!rows || rows.entities.length === 0) {
    tally.notApplicable = 1;
    return { findings, tally };
  }
  const served = input.served();
  const wanted = new Set<string>();
  for (const c of claims) for (const t of tokensOf(c.text)) wanted.add(t);
  const index = identifierIndex(rows.entities, wanted);
  const cap = input.quotedValueChars;
  const reported = new Set<string>();
  for (const claim of claims) {
    const ids = mentioned(claim.text, index);
    if (ids.length !== 1) {
      tally.notApplicable++;
      continue;
    }
    const id = ids[0]!;
    const found = judge(claim, id, index.get(id)!, served);
    if (found === undefined) {
      tally.notApplicable++;
      continue;
    }
    tally.checked++;
    if (found === 'consistent') continue;
    const { entity, field } = found;
    const key = `${id}\u0000${field.path}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const name = quoteText(String(Object.values(entity.object).find((v) => String(v).trim().toLowerCase() === id) ?? id), cap);
    const tool = quoteText(entity.source.toolName ?? 'a tool', cap);
    const call = entity.source.callId ? ` (call ${quoteText(entity.source.callId, cap)})` : '';
    const valueText = quoteText(textOf(field.value), cap);
    const said = quoteText(claim.said, cap);
    const where = claim.header ? `lists ${name} under "${quoteText(claim.header, cap * 2)}", calling it "${said}"` : `says "${quoteText(claim.text, cap * 2)}", calling ${name} "${said}"`;
    const witnesses: Witness[] = [
      { subject: 'answer final', predicate: `${claim.concept} of ${name}`, value: said, stratum: 'chosen', provenance: `the final answer ${where}` },
      { subject: `entity ${name}`, predicate: field.path, value: valueText, stratum: 'result', provenance: `the latest row ${tool} served for it${call}` },
    ];
    tally.findings++;
    const finding: Finding = {
      kind: STATUS_CONTRADICTION,
      seam: 'answer',
      subjects: [{ kind: 'entity', id: name }],
      predicate: field.path,
      value: claim.said,
      sensitive: [textOf(field.value)],
      message: `The answer ${where}, but the row ${tool} served for ${name}${call} has ${quoteText(field.path, cap)} = ${valueText}: one of them is wrong; check the answer against that row. ${NOTHING_BLOCKED}`,
      witnesses,
      span: input.span,
      ...(entity.source.toolName ? { toolName: entity.source.toolName } : {}),
      ...(entity.source.callId ? { toolCallId: entity.source.callId } : {}),
    };
    findings.push(armedByInference(finding, `the run served ${name}'s row with a field '${quoteText(field.path, cap)}' of that meaning`));
  }
  return { findings, tally };
}

/** The latest row of the entity with a field of the claim's meaning, and whether that field agrees. */
function judge(claim: StateClaim, id: string, entities: readonly ServedEntity[], served: readonly ServedResult[]): 'consistent' | { entity: ServedEntity; field: StateField } | undefined {
  let chosen: { entity: ServedEntity; fields: StateField[] } | undefined;
  for (let i = entities.length - 1; i >= 0 && !chosen; i--) {
    const fields = fieldsFor(stateFields(entities[i]!.object), claim.concept, claim.text);
    if (fields.length > 0) chosen = { entity: entities[i]!, fields };
  }
  if (!chosen) return undefined;
  const { entity, fields } = chosen;
  if (fields.some((f) => f.positive !== fields[0]!.positive)) return undefined;
  if (fields[0]!.positive === claim.positive) return 'consistent';
  // Another instance of the entity (another date's flight): the row and its call hold none of the claim's dates.
  const dates = datesOf(`${claim.text}\n${claim.context ?? ''}`);
  if (dates.size > 0) {
    const rowDates = datesOf(`${textOf(entity.object)}\n${textOf(entity.source.arguments)}`);
    if (![...dates].some((d) => rowDates.has(d))) return undefined;
  }
  for (const later of served.filter((r) => r.order > entity.source.order)) {
    // A call after the row that names the entity may have changed it.
    if (later.arguments !== undefined && foldText(textOf(later.arguments)).includes(` ${foldText(id).trim()} `)) return undefined;
    // A later served text that names the entity with the same state is the claim's source.
    const text = typeof later.result === 'string' && parsedResult(later.result) === undefined ? later.result : undefined;
    if (text !== undefined && foldText(text).includes(` ${foldText(id).trim()} `) && statesOf(text).some((s) => s.concept === claim.concept && s.positive === claim.positive)) return undefined;
  }
  return { entity, field: fields[0]! };
}
