// The plain sentence of each finding, by kind: ONE table, a row per kind, each row picking a
// `why.*` template (templates.ts) and filling it from what the finding event wrote (tool, argument,
// value, grounding, witnesses). A kind without a row, or a row that cannot fill its template,
// falls back to `why.generic` (the kind and the event's own message): a new check only adds a row.
// Pure; must never decide anything a finding did not say, nor quote a value the event did not write.

import { render, type Var, type Vars } from './render.js';
import { argumentWords, wordsOf } from './words.js';
import type { Pointer, Sentence, WitnessView } from './types.js';

/** What the finding event wrote, as the table reads it. */
export interface FindingFacts {
  kind: string;
  advisory: boolean;
  grounding?: string;
  toolName?: string;
  predicate?: string;
  value?: string;
  message: string;
  witnesses: readonly WitnessView[];
}

type Pick = { id: string; vars: Vars } | undefined;
type Row = (f: FindingFacts) => Pick;

const lib = (value: string): Var => ({ value, source: 'library' });
const toolOfSubject = (subject: string | undefined): string | undefined => (subject?.startsWith('tool ') ? subject.slice(5) : undefined);
const witness = (f: FindingFacts, stratum: WitnessView['stratum']) => f.witnesses.find((w) => w.stratum === stratum);
/** The tool a provenance names ("tool result of backup_jobs (call …)"). */
const toolInProvenance = (p: string | undefined): string | undefined => /tool result of ([\w.:-]+)/.exec(p ?? '')?.[1];

/** tool, arg and value vars, when the finding has them. */
function base(f: FindingFacts): { tool: Var; arg: Var; value: Var } | undefined {
  const arg = argumentWords(f.predicate);
  if (!f.toolName || !arg || f.value === undefined) return undefined;
  return { tool: lib(wordsOf(f.toolName)), arg: lib(arg), value: lib(f.value) };
}

const ROWS: Record<string, Row> = {
  'unsupported-argument': (f) => {
    const v = base(f);
    if (!v) return undefined;
    const served = witness(f, 'served');
    switch (f.grounding) {
      case 'assistant-only': {
        const from = toolInProvenance(served?.provenance);
        return from ? { id: 'why.argument.assistant-only-earlier', vars: { ...v, source: lib(wordsOf(from)) } } : { id: 'why.argument.assistant-only', vars: v };
      }
      case 'nowhere':
        return { id: 'why.argument.nowhere', vars: v };
      case 'fragment':
        return served ? { id: 'why.argument.fragment', vars: { ...v, whole: lib(served.value) } } : { id: 'why.argument.other', vars: v };
      case 'wrong-producer':
        return { id: 'why.argument.wrong-producer', vars: v };
      case 'derived':
        return { id: 'why.argument.derived', vars: v };
      default:
        return { id: 'why.argument.other', vars: v };
    }
  },
  'empty-lookup': (f) => {
    const v = base(f);
    if (!v) return undefined;
    const served = witness(f, 'served');
    const from = toolOfSubject(served?.subject);
    if (f.grounding === 'fragment' && served && from) return { id: 'why.empty.fragment', vars: { ...v, whole: lib(served.value), source: lib(wordsOf(from)) } };
    return { id: 'why.empty.other', vars: { tool: v.tool, value: v.value } };
  },
  'unsupported-value': (f) => {
    if (f.value === undefined) return undefined;
    const id = f.grounding === 'assistant-only' ? 'why.value.assistant-only' : f.grounding === 'derived' ? 'why.value.derived' : 'why.value.nowhere';
    return { id, vars: { value: lib(f.value) } };
  },
  'unsupported-claim': (f) => {
    const settled = witness(f, 'result');
    if (!settled || !f.toolName) return undefined;
    const vars = { tool: lib(wordsOf(f.toolName)), settled: lib(settled.value) };
    return f.advisory || f.value === undefined ? { id: 'why.claim.leaves-out', vars } : { id: 'why.claim.contradicts', vars: { ...vars, value: lib(f.value) } };
  },
  'refusal-asserts-absence': (f) => {
    const said = witness(f, 'chosen');
    return said && f.toolName ? { id: 'why.refusal', vars: { said: lib(said.value), tool: lib(wordsOf(f.toolName)) } } : undefined;
  },
  'prior-turn-evidence': (f) => (f.value !== undefined ? { id: 'why.prior-turn', vars: { value: lib(f.value) } } : undefined),
  'dangling-reference': (f) => {
    const from = toolOfSubject(witness(f, 'absent')?.subject);
    return f.toolName && from ? { id: 'why.dangling', vars: { tool: lib(wordsOf(f.toolName)), source: lib(wordsOf(from)) } } : undefined;
  },
  'missing-column': (f) => (f.toolName && f.predicate ? { id: 'why.missing-column', vars: { tool: lib(wordsOf(f.toolName)), column: lib(wordsOf(f.predicate)) } } : undefined),
  'column-type-mismatch': (f) => {
    const declared = witness(f, 'declared');
    return f.toolName && f.predicate && declared && f.value !== undefined
      ? { id: 'why.column-type', vars: { tool: lib(wordsOf(f.toolName)), column: lib(wordsOf(f.predicate)), type: lib(declared.value), value: lib(f.value) } }
      : undefined;
  },
};

export const KIND_PHRASES: Readonly<Record<string, Row>> = Object.freeze(ROWS);

/** The finding's plain sentence: its kind's row, else the generic one. */
export function whySentence(f: FindingFacts, pointers: readonly Pointer[]): Sentence {
  const pick = Object.prototype.hasOwnProperty.call(KIND_PHRASES, f.kind) ? KIND_PHRASES[f.kind]!(f) : undefined;
  if (pick) {
    const s = render(pick.id, pick.vars, pointers);
    if (s.template.id !== 'unreadable.line') return s;
  }
  return render('why.generic', { kind: lib(wordsOf(f.kind)), message: lib(f.message) }, pointers);
}
