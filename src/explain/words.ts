// Names from telemetry in a reader's words: a tool or argument name as words ("backup_status" ->
// "backup status", "args.machine_id" -> "machine id", "getUserDetails" -> "get user details"), and
// a sentence's first letter in capitals. Presentation only: the names are data and stay escaped
// wherever they are shown. Pure; must never interpret what a name means.

/** A code name as lower-case words; '' stays ''. */
export function wordsOf(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The argument a predicate names: `args.window.days` -> "window days"; undefined when it names none. */
export function argumentWords(predicate: string | undefined): string | undefined {
  if (!predicate || !predicate.startsWith('args.')) return undefined;
  const w = wordsOf(predicate.slice('args.'.length));
  return w === '' ? undefined : w;
}

/** The text with its first letter in capitals (the rest as it is). */
export function capitalised(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const c = String.fromCodePoint(first);
  return c.toUpperCase() + s.slice(c.length);
}
