// The nearest valid name to a misspelt one (Levenshtein distance, case-folded), for error
// messages that say "did you mean …". Small and pure; returns undefined when nothing is close.

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const folded = name.toLowerCase().replace(/[_-]/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(folded, c.toLowerCase().replace(/[_-]/g, ''));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}
