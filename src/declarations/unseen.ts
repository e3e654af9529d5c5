// Declared tools the traces never name: a declaration for a tool no tool definition, call or
// execution of the input mentions arms nothing, most often because of a misspelt or renamed tool.
// Says which, with the nearest name that was seen. Pure: names in, sentences out.

import { editDistance, nearest } from './nearest.js';

export interface UnseenTool {
  tool: string;
  /** The seen name closest to it (case and `_`/`-` folded), when any name was seen. */
  nearest?: string;
  /** Whether that name is close enough to be a misspelling (nearest.ts's bound). */
  close: boolean;
}

const fold = (s: string) => s.toLowerCase().replace(/[_-]/g, '');

/** Declared tools not among the seen names, each with the nearest seen name. Empty when nothing was seen (nothing to compare with). */
export function unseenDeclaredTools(declared: Iterable<string>, seen: ReadonlySet<string>): UnseenTool[] {
  if (seen.size === 0) return [];
  const names = [...seen];
  const out: UnseenTool[] = [];
  for (const tool of declared) {
    if (seen.has(tool)) continue;
    const close = nearest(tool, names);
    if (close !== undefined) {
      out.push({ tool, nearest: close, close: true });
      continue;
    }
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const n of names) {
      const d = editDistance(fold(tool), fold(n));
      if (d < bestDistance || (d === bestDistance && best !== undefined && n < best)) {
        best = n;
        bestDistance = d;
      }
    }
    out.push({ tool, ...(best !== undefined ? { nearest: best } : {}), close: false });
  }
  return out;
}

/** One sentence per unseen tool, for a report's notes or a startup warning. */
export function unseenToolSentence(u: UnseenTool): string {
  const hint = u.nearest === undefined ? '.' : u.close ? `; did you mean '${u.nearest}'?` : `; the nearest name seen is '${u.nearest}'.`;
  return `Declared tool '${u.tool}' never appears in these traces (no tool definition, call or execution names it), so its declaration arms nothing${hint}`;
}
