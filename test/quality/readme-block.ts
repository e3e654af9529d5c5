// Renders the quality block of docs/quality.md (between the quality:begin / quality:end markers):
// the measured table, the targets and one line per case class, grouped by check. Pure: returns
// text; quality.ts --write-floor splices it into docs/quality.md, beside the corpus's description.

import { renderTable, type QualityResults } from './score.js';
import { CHECK_IDS } from './build/spec.js';

export const BEGIN = '<!-- quality:begin (written by npm run quality -- --write-floor) -->';
export const END = '<!-- quality:end -->';

export function readmeBlock(r: QualityResults, classes: { name: string; check: string; kind: string; class: string; shape: string }[]): string {
  const lines = [BEGIN, '', renderTable(r).trimEnd(), '', '**Targets:** precision ≥ 0.95 and recall ≥ 0.90 for every check; advisory findings nobody expected are counted apart (advisory FP).', ''];
  lines.push('Case classes (one line each; `defect` must fire, `clean` must stay silent):', '');
  for (const check of CHECK_IDS) {
    lines.push(`- **${check}**`);
    for (const c of classes.filter((x) => x.check === check)) lines.push(`  - ${c.kind} · ${c.class} (\`${c.name}\`, ${c.shape})`);
  }
  lines.push('', END);
  return lines.join('\n');
}

/** README text with the block replaced (or unchanged when the markers are missing). */
export function spliceReadme(readme: string, block: string): string {
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) return readme;
  return readme.slice(0, a) + block + readme.slice(b + END.length);
}
