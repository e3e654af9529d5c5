// Reads the clauses of a final answer that assert negated existence ("X has no …", "there aren't
// any …", "no … were found", "none were found", "I found no …", "doesn't have any …", "zero …"),
// one clause at a time, and the words each clause is about (for attributing it to a read). A
// clause that in the same breath admits the failure ("couldn't access", "permission", "denied",
// "unable to check") or negates the negation ("that doesn't mean there are none") asserts nothing;
// a hedge also withdraws the absence of the sentence just before it, and an admission about the
// same read, in the same or the next sentence, is read by the check (absence-reads attribution). Conditionals and questions
// assert nothing. English, with the commonest forms of negated existence, admitted failure and
// hedges in German, French, Spanish, Portuguese, Italian and Dutch (agents answer in the user's
// language); rules fixed and documented (docs/checks-answer.md). Pure: no I/O, no clocks, no
// globals; telemetry text is matched, never executed or trusted.

/** One clause of the answer that asserts that something does not exist or was not found. */
export interface AbsenceClause {
  /** The clause as the answer wrote it (trimmed). */
  clause: string;
  /** Where the clause starts in the answer. */
  index: number;
  /** The absence words as written, run on through the noun they negate ("There is no backup record"). */
  said: string;
  /** The content words of the clause, folded (lower case, plural and possessive stripped): what it is about. */
  words: string[];
  /** 1-based sentence of the answer the clause is in. */
  sentence: number;
}

/** Code points of an answer read for absence clauses; the rest is not read. */
export const MAX_ANSWER_CHARS = 20_000;
/** Clauses read from one answer. */
export const MAX_CLAUSES = 400;

// Cues of negated existence. Each is matched on a clause folded to lower case with straight quotes.
const NO_EXCLUDED = String.raw`(?!longer\b(?!\s+exists?\b)|more\s+than\b|less\s+than\b|fewer\s+than\b|later\s+than\b|earlier\s+than\b|sooner\b|need\b|problem\b|worries\b|doubt\b|matter\b|way\b|idea\b|access\b|permission\b|response\b|reply\b|answer\b|hay\s+(?:problema|duda)\b|data\s+(?:could|was\s+returned\s+because)\b)`;
const ABSENCE_CUES: readonly RegExp[] = [
  /\b(?:there|here)(?:\s+(?:is|are|was|were|seem\s+to\s+be|appear\s+to\s+be)|'s|'re)\s+(?:no|none|nothing)\b/,
  /\bthere\s+(?:isn't|aren't|wasn't|weren't|is\s+not|are\s+not|was\s+not|were\s+not|doesn't\s+seem\s+to\s+be)\s+(?:any|a|an|one)\b/,
  /\b(?:has|have|had|holds?|contains?|shows?|lists?|returned|returns)\s+(?:no|zero)\b/,
  /\bthere\s+(?:haven't|hasn't|hadn't|have\s+not|has\s+not|had\s+not)\s+been\s+(?:any|a|an|one)\b/,
  /\b(?:has|have|had)\s+been\s+(?:no|none|nothing|zero)\b/,
  /\b(?:hasn't|haven't|hadn't|has\s+not|have\s+not|had\s+not)\s+(?:had|got|gotten|seen|recorded|logged|run|shown|returned|reported)\s+(?:any|a|an|one)\b/,
  /\b(?:isn't|aren't|wasn't|weren't|is\s+not|are\s+not|was\s+not|were\s+not)\s+any\b/,
  /\bnot\s+(?:a\s+)?single\b/,
  /\b(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|hasn't|haven't|hadn't)\s+(?:have|hold|contain|show|list|return|got)\s+(?:any|a|an)\b/,
  /\b(?:i|we)\s+(?:found|find|see|saw|located|got|get)\s+(?:no|zero|nothing|none)\b/,
  /\b(?:i|we)\s+(?:didn't|did\s+not|don't|do\s+not|couldn't|could\s+not|can't|cannot|was\s+unable\s+to|were\s+unable\s+to)\s+(?:find|see|locate|spot)\b/,
  /\b(?:couldn't|could\s+not|can't|cannot|unable\s+to)\s+(?:find|locate)\b/,
  /\bfound\s+(?:nothing|no|none|zero)\b/,
  /\bnothing\b(?!\s+(?:else\b|but\b|more\s+than\b))/,
  /\bnone\b/,
  /\bzero\s+(?=[a-z])/,
  new RegExp(String.raw`(?:^|[^\w-])no\s+${NO_EXCLUDED}(?=[a-z0-9])`),
  /\bnot\s+(?:be\s+)?found\b/,
  /\b(?:does|do|did)(?:n't|\s+not)\s+(?:seem\s+to\s+)?exist\b/,
  /\bno\s+longer\s+exists?\b/,
  /\bnon-?existent\b/,
  /\b(?:is|are|was|were)(?:n't|\s+not)\s+(?:listed|registered|on\s+record|recorded|present|in\s+(?:the\s+)?(?:inventory|system|records?|catalog|database))\b/,
  /\b(?:is|was|are|were|came\s+back|returned|looks?)\s+empty\b/,
  /\bnever\s+(?:been\s+)?(?:existed|created|recorded|run|ran|backed\s+up|restored|logged|scheduled|configured|opened|filed|issued)\b/,
  // German, French, Spanish, Portuguese, Italian, Dutch: negated existence as agents write it.
  /(?:^|[^\p{L}])(?:kein|keine|keinen|keinem|keiner|keines|nichts)(?![\p{L}])(?!\s+(?:problem|sorge|sorgen|ursache|frage|zweifel|mehr\s+als|weniger\s+als))/u,
  /(?:^|[^\p{L}])(?:nicht\s+(?:gefunden|vorhanden|vorliegend)|existiert\s+nicht|gibt\s+es\s+nicht)(?![\p{L}])/u,
  /(?:^|[^\p{L}])(?:aucun|aucune|rien|introuvable|pas\s+de|pas\s+d'|n'existe\s+pas|n'y\s+a\s+pas|introuvables)(?![\p{L}])(?!\s+(?:problème|souci|soucis|doute|plus\s+de|moins\s+de))/u,
  /(?:^|[^\p{L}])(?:ningún|ninguna|ninguno|nada|no\s+hay|no\s+existe|no\s+se\s+encontr\p{L}*|no\s+encontr\p{L}*)(?![\p{L}])(?!\s+(?:problema|duda|más\s+de|menos\s+de))/u,
  /(?:^|[^\p{L}])(?:nenhum|nenhuma|não\s+há|não\s+existe|não\s+(?:foi|foram)\s+encontrad\p{L}*)(?![\p{L}])(?!\s+(?:problema|dúvida|mais\s+de|menos\s+de))/u,
  /(?:^|[^\p{L}])(?:nessun|nessuna|nessuno|non\s+c'è|non\s+ci\s+sono|non\s+(?:è\s+stat\p{L}|sono\s+stat\p{L})\s+trovat\p{L})(?![\p{L}])(?!\s+(?:problema|dubbio|più\s+di|meno\s+di))/u,
  /(?:^|[^\p{L}])(?:geen|niet\s+gevonden|bestaat\s+niet)(?![\p{L}])(?!\s+(?:probleem|zorgen|twijfel|meer\s+dan|minder\s+dan))/u,
];

/** The clause admits that the read failed: it asserts nothing about what exists. */
const ADMITS_FAILURE: readonly RegExp[] = [
  /\b(?:couldn't|could\s+not|can't|cannot|can\s+not|unable\s+to|wasn't\s+able\s+to|was\s+not\s+able\s+to|weren't\s+able\s+to|not\s+able\s+to|failed\s+to|didn't\s+manage\s+to)\s+(?:access|check|read|reach|retrieve|query|verify|confirm|load|fetch|get|look\s+(?:at|up|into)|search|connect|determine|tell|say|open|pull|review|inspect|complete)\b/,
  /\b(?:couldn't|could\s+not|can't|cannot)\s+be\s+(?:checked|verified|accessed|retrieved|read|reached|confirmed|determined|loaded|searched)\b/,
  /\bpermissions?\b/,
  /\bdenied\b/,
  /\b(?:not\s+authori[sz]ed|unauthori[sz]ed|forbidden|unauthenticated)\b/,
  /\b(?:no|without|lacks?|lacked|lacking|don't\s+have|do\s+not\s+have|didn't\s+have|did\s+not\s+have)\s+(?:the\s+)?(?:access|permission|rights?|privileges?)\b/,
  /\b(?:refused|rejected|blocked)\b/,
  /\btimed?\s*out\b|\btimeouts?\b/,
  /\brate[\s-]?limit/,
  /\b(?:lookup|call|request|query|read|search|check|tool|api|service|endpoint|fetch)\s+(?:failed|errored|broke|was\s+down|is\s+down|was\s+unavailable|is\s+unavailable)\b/,
  /\b(?:returned|got|hit|gave|threw|raised)\s+(?:an?\s+)?(?:\d{3}\s+)?(?:error|exception|failure)\b/,
  /\b(?:unavailable|unreachable|offline)\b/,
  /\b(?:401|403|407|429|5\d\d)\b/,
  // The same admissions in German, French, Spanish, Portuguese, Italian and Dutch.
  /(?:verweigert|berechtigung|zugriff|konnte\s+nicht|fehlgeschlagen|zeitüberschreitung|nicht\s+erreichbar|nicht\s+abrufen|nicht\s+prüfen|nicht\s+verfügbar)/u,
  /(?:refusé|refus|autoris|pas\s+pu|impossible\s+de|délai|indisponible|n'ai\s+pas\s+(?:pu|accès))/u,
  /(?:denegad|permiso|no\s+(?:pude|pudimos|se\s+pudo)|imposible|tiempo\s+de\s+espera|no\s+disponible|sin\s+acceso)/u,
  /(?:negad|permissão|não\s+(?:consegui|foi\s+possível)|indisponível|sem\s+acesso)/u,
  /(?:negat|permess|non\s+(?:sono|siamo)\s+riuscit|impossibile|non\s+disponibile)/u,
  /(?:geweigerd|kon\s+niet|geen\s+(?:toegang|rechten)|niet\s+beschikbaar)/u,
];

/** The clause negates the negation or hedges it: "that doesn't mean there are none", "may still exist". */
const HEDGES: readonly RegExp[] = [
  /\b(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|isn't|is\s+not)\s+(?:necessarily\s+)?(?:mean|imply|prove|confirm|show)\b/,
  /\bnot\s+necessarily\b/,
  /\b(?:can't|cannot|can\s+not|couldn't|could\s+not)\s+(?:rule\s+out|be\s+sure|say\s+(?:for\s+sure|for\s+certain|whether|if|that|there)|tell\s+(?:whether|if))\b/,
  /\b(?:may|might|could)\s+(?:still\s+)?(?:exist|be\s+(?:some|there|missing|incomplete|partial|more|others?)|have\s+(?:some|missed))\b/,
  /\b(?:may|might|could)\s+be\s+(?:due\s+to|because|caused\s+by|a\s+result\s+of)\b/,
  // "may still be on its way" / "may still arrive" is no hedge: it says the thing is yet to come,
  // which keeps the absence (docs/checks-answer.md, hedges).
  /\b(?:may|might|could)\s+still\b(?!\s+(?:be\s+on\s+(?:its|their|the)\s+way|arrive|come\s+(?:in|through)|be\s+(?:pending|processing|in\s+transit|coming|arriving)))|\bthere\s+(?:may|might|could)\s+(?:well\s+)?be\b/,
  /\b(?:may|might)\s+not\s+be\s+(?:complete|exhaustive|accurate|the\s+full)\b/,
  /\b(?:is|are|may\s+be|might\s+be|could\s+be)\s+(?:incomplete|partial|unverified|inconclusive)\b/,
  /\bnot\s+(?:a\s+)?(?:complete|definitive|conclusive|exhaustive|confirmed)\b/,
  /\bno\s+way\s+to\s+(?:know|tell|check|confirm|verify|be\s+sure)\b/,
  /\b(?:not\s+sure|uncertain|unclear|unknown)\b/,
  /(?:heißt\s+nicht|bedeutet\s+nicht|nicht\s+unbedingt|vielleicht|möglicherweise|ne\s+signifie\s+pas|pas\s+forcément|peut-être|no\s+significa|no\s+necesariamente|quizás|tal\s+vez|não\s+significa|talvez|non\s+significa|forse|betekent\s+niet|misschien)/u,
];

/** A clause that supposes or asks asserts nothing. */
const SUPPOSES = /\b(?:if|unless|whether|in\s+case|falls|sofern|ob)\b[^]*$|(?:au\s+cas\s+où|sauf\s+si|en\s+caso\s+de|a\s+menos\s+que|a\s+meno\s+che|tenzij)[^]*$/;

/** Words a clause and a read share that say nothing about what either is about. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the this that these those there here it its it\'s they them their is are was were be been being am has have had do does did ' +
    'not no none nothing zero any some all each every one of for on in at to from by with within without about as and or but nor so ' +
    'yet i we you he she me my our your us what which who whom whose when where why how than then also only just still even ever ' +
    'never yes found find see saw located locate got get returned return record records listed list show shows came back currently ' +
    'such can could would should will shall may might must exist exists existed existing seem seems appear appears look looks called ' +
    'call calls checked check lookup looked result results match matching matched entry entries item items data turn answer tool tools ' +
    'empty backed up don\'t doesn\'t didn\'t isn\'t aren\'t wasn\'t weren\'t hasn\'t haven\'t can\'t couldn\'t cannot there\'s here\'s i\'m we\'re'
  ).split(' '),
);

function fold(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc\u2032]/g, "'").replace(/[\u201c\u201d]/g, '"').toLowerCase();
}

/** A word folded for comparison: possessive and plural stripped ("incidents" → "incident", "entries" → "entry"). */
export function foldWord(word: string): string {
  let w = fold(word).replace(/'s$/, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !/\d/.test(w)) w = w.slice(0, -1);
  return w;
}

const TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}'_\-./:@]*[\p{L}\p{N}])?/gu;

/** The content words of a text, folded, without stop words; identifiers (`srv-db-04`) kept whole. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const w = foldWord(m[0]);
    if (w === '' || STOP_WORDS.has(w) || STOP_WORDS.has(fold(m[0]))) continue;
    if (w.length < 2 && !/\d/.test(w)) continue;
    out.push(w);
  }
  return out;
}

/** The clauses of an answer with their offsets: split at sentence ends, line breaks, bullets and contrast ("but", "however", "although"). */
export function clausesOf(answer: string): { text: string; index: number; sentence: number }[] {
  const cut = answer.length > MAX_ANSWER_CHARS ? answer.slice(0, MAX_ANSWER_CHARS) : answer;
  // List markers at a line's start ("- ", "1. ") are blanked, offsets kept, so "1." ends no sentence.
  const text = cut.replace(/^([ \t]*)(\d{1,3}[.)]|[-*•])[ \t]+/gm, (m) => ' '.repeat(m.length));
  const out: { text: string; index: number; sentence: number }[] = [];
  // Sentences: ., ! or ? followed by blank space, or a line break. A dot inside a token (v1.2) does not end one.
  const pieces: { text: string; index: number }[] = [];
  let at = 0;
  const bound = /(?<=[.!?])\s+|\n+/g;
  let m: RegExpExecArray | null;
  while ((m = bound.exec(text)) !== null) {
    pieces.push({ text: text.slice(at, m.index), index: at });
    at = m.index + m[0].length;
  }
  pieces.push({ text: text.slice(at), index: at });
  let sentence = 0;
  for (const p of pieces) {
    if (p.text.trim() === '') continue;
    sentence++;
    const contrast = /(?:,|;|\s[-–—])?\s+(?:but|however|although|though|whereas|while|yet)\b,?/gi;
    let from = 0;
    let c: RegExpExecArray | null;
    const push = (end: number) => {
      const raw = p.text.slice(from, end);
      const lead = raw.length - raw.trimStart().length;
      const t = raw.trim();
      if (t !== '' && out.length < MAX_CLAUSES) out.push({ text: t, index: p.index + from + lead, sentence });
    };
    while ((c = contrast.exec(p.text)) !== null) {
      push(c.index);
      from = c.index + c[0].length;
    }
    push(p.text.length);
  }
  return out;
}

function firstCue(folded: string): RegExpExecArray | undefined {
  let best: RegExpExecArray | undefined;
  for (const re of ABSENCE_CUES) {
    const m = re.exec(folded);
    if (m && (best === undefined || m.index < best.index)) best = m;
  }
  return best;
}

/** The cue run on through the words it negates, up to a preposition, a comma or five words. */
function saidOf(clause: string, cue: RegExpExecArray): string {
  let start = cue.index;
  while (start < clause.length && /[^\p{L}\p{N}]/u.test(clause[start]!)) start++;
  const rest = clause.slice(cue.index + cue[0].length);
  // Words are separated by blanks, so the match is linear (no two ways to split one word).
  const words = rest.match(/^(?:\s*[\p{L}\p{N}][\p{L}\p{N}'_\-./]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}'_\-./]*){0,4})?/u)?.[0] ?? '';
  const stop = words.search(/\s(?:for|of|on|in|at|from|to|by|with|since|during|under|about|that|which|who|because|so|and|or|were|was|is|are|has|have)\b/i);
  const tail = stop >= 0 ? words.slice(0, stop) : words;
  return clause.slice(start, cue.index + cue[0].length + tail.length).replace(/[\s.,;:!?)\]"']+$/u, '').trim();
}

/** The clauses of an answer that assert absence, and what each is about. */
/** A clause of the answer that admits a read failed ("the incident lookup returned an error"). */
export interface AdmissionClause {
  clause: string;
  index: number;
  /** 1-based sentence of the answer. */
  sentence: number;
  words: string[];
}

/** What the answer asserts absent, and where it admits failures (to tell which read each admission is about). */
export interface AnswerReading {
  absences: AbsenceClause[];
  admissions: AdmissionClause[];
}

/** Reads an answer's absence clauses and its admissions of failure. */
export function readAnswer(answer: string): AnswerReading {
  const absences: AbsenceClause[] = [];
  const admissions: AdmissionClause[] = [];
  for (const c of clausesOf(answer)) {
    const folded = fold(c.text);
    if (HEDGES.some((re) => re.test(folded))) {
      // A hedge withdraws this clause and the absence asserted by its sentence and the one before.
      while (absences.length > 0 && absences[absences.length - 1]!.sentence >= c.sentence - 1) absences.pop();
      continue;
    }
    const words = [...new Set(contentWords(c.text))];
    if (ADMITS_FAILURE.some((re) => re.test(folded))) {
      admissions.push({ clause: c.text, index: c.index, sentence: c.sentence, words });
      continue;
    }
    const cue = firstCue(folded);
    if (!cue) continue;
    if (/\?\s*$/.test(c.text)) continue;
    if (SUPPOSES.test(folded.slice(0, cue.index))) continue;
    absences.push({ clause: c.text, index: c.index, said: saidOf(c.text, cue), words, sentence: c.sentence });
  }
  return { absences, admissions };
}

/** The clauses of an answer that assert absence, and what each is about. */
export function absenceClauses(answer: string): AbsenceClause[] {
  return readAnswer(answer).absences;
}
