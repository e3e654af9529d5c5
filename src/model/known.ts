// A reading a check relies on, as known or unknown: the rule every check keeps (issue 35). A
// reading is known only on evidence (a declaration, MCP annotations, an unambiguous verb, a value
// read whole, a set shown complete, a clause that names its subject), and carries that evidence;
// otherwise it is unknown, with why. A check raises a finding only when every reading the finding
// rests on is known; an unknown reading can only suppress one (it passes, or is not applicable).
// Each check's doc (docs/checks*.md) says which of its readings can only suppress. Plain data only.

export type Known<T> = { readonly known: true; readonly value: T; readonly evidence: string } | { readonly known: false; readonly why: string };

export function known<T>(value: T, evidence: string): Known<T> {
  return { known: true, value, evidence };
}

export function unknown(why: string): Known<never> {
  return { known: false, why };
}

/** A tool's role: it only reads, or it changes something. */
export type ToolRole = 'read' | 'write';
