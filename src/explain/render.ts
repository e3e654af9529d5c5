// Fills a template of the closed table (templates.ts) into a typed sentence: parts with sources,
// its plain text, its voucher and its pointers. Filling is NON-recursive: the template's text is
// scanned once and a value is inserted as it is, so a tool that writes "{{x}}" gets "{{x}}"
// printed. A missing var or unknown template gives the `unreadable.line` sentence, never a throw.
// Pure; must never produce HTML.

import { templateOf } from './templates.js';
import { weakest } from './voucher.js';
import type { Part, Pointer, Sentence, SentenceStatus, Source } from './types.js';

/** Characters of one string var; longer values are cut with "…". */
export const MAX_VAR_CHARS = 2000;
/** Pointers kept per sentence. */
export const MAX_POINTERS = 12;

export interface Var {
  value: string | number | readonly string[];
  source: Source;
}

export type Vars = Record<string, Var>;

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

function clip(s: string): string {
  const points = Array.from(s);
  return points.length <= MAX_VAR_CHARS ? s : `${points.slice(0, MAX_VAR_CHARS).join('')}…`;
}

function asText(v: Var['value']): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return clip(v);
  return clip(v.join(', '));
}

class Missing extends Error {}

function fillParts(text: string, vars: Vars, used: Set<string>): Part[] {
  const parts: Part[] = [];
  let last = 0;
  const pushText = (t: string) => {
    if (t === '') return;
    const prev = parts[parts.length - 1];
    if (prev && 'text' in prev) prev.text += t;
    else parts.push({ text: t });
  };
  for (const m of text.matchAll(PLACEHOLDER)) {
    pushText(text.slice(last, m.index));
    last = m.index! + m[0].length;
    const spec = m[1]!;
    if (spec.startsWith('plural:')) {
      const [name, one, many] = spec.slice('plural:'.length).split('|');
      const v = vars[name!];
      if (!v || typeof v.value !== 'number') throw new Missing(name);
      used.add(name!);
      pushText(`${v.value} ${v.value === 1 ? one : many}`);
      continue;
    }
    const [name, format] = spec.split(':') as [string, string | undefined];
    const v = vars[name];
    if (!v) throw new Missing(name);
    used.add(name);
    const value = asText(v.value);
    if (format === 'code') parts.push({ code: value, source: v.source });
    else if (format === 'quote') parts.push({ quote: value, source: v.source });
    else if (format === 'label') parts.push({ label: value, source: v.source });
    else pushText(value);
  }
  pushText(text.slice(last));
  return parts;
}

export function partText(p: Part): string {
  if ('text' in p) return p.text;
  if ('code' in p) return p.code;
  if ('quote' in p) return `"${p.quote}"`;
  return p.label;
}

export function render(id: string, vars: Vars = {}, pointers: readonly Pointer[] = [], status: SentenceStatus = 'recorded'): Sentence {
  const t = templateOf(id);
  if (!t) return unreadable(pointers);
  const used = new Set<string>();
  let parts: Part[];
  try {
    parts = fillParts(t.text, vars, used);
  } catch (e) {
    if (e instanceof Missing) return unreadable(pointers);
    throw e;
  }
  const own: Source = t.voucher === 'tool' ? (vars.tool ? (`tool:${asText(vars.tool.value)}` as Source) : 'app') : t.voucher;
  // Presentation vars (named *Label) do not decide truth.
  const sources = [own, ...[...used].filter((n) => !n.endsWith('Label')).map((n) => vars[n]!.source)];
  return {
    text: parts.map(partText).join(''),
    parts,
    template: { id: t.id, version: t.version },
    source: weakest(sources),
    status,
    pointers: pointers.slice(0, MAX_POINTERS),
  };
}

function unreadable(pointers: readonly Pointer[]): Sentence {
  const t = templateOf('unreadable.line')!;
  return { text: t.text, parts: [{ text: t.text }], template: { id: t.id, version: t.version }, source: 'library', status: 'not-recorded', pointers: pointers.slice(0, MAX_POINTERS) };
}
