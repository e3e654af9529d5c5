// How a check came to examine something: because an author declared it, or because the trace
// itself showed it (an inferred arming, issue "useful with no declarations"). One place states an
// inferred arming on a finding, as data (`armedBy`, `armedEvidence`) and as the closing sentence
// of its message, so every check says it the same way. Pure: no I/O, no clocks, no globals.

import type { Finding } from '../model/finding.js';

/** The sentence an inferred finding ends with. */
export function inferredSentence(evidence: string): string {
  return `This was checked on inference, not on a declaration: ${evidence}; declare the tool to confirm it, or set \`inference: false\` to turn inference off.`;
}

/** The finding, marked as armed by inference with its evidence (its message gains the sentence). */
export function armedByInference(f: Finding, evidence: string): Finding {
  return { ...f, armedBy: 'inferred', armedEvidence: evidence, message: `${f.message} ${inferredSentence(evidence)}` };
}
