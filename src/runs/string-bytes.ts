// The one estimate of what a kept JS string costs, for every byte count of the core's state
// (conversations, served history, trace records). Pure; must never walk more than the one string.

/**
 * Bytes a kept string holds: V8 keeps a string whose characters are all Latin-1 at one byte a
 * character, any other at two, plus a header. Callers run it once per kept string (its first
 * sighting), not per request.
 */
const TWO_BYTE = /[^\u0000-\u00ff]/;
export function stringBytes(text: string): number {
  return (TWO_BYTE.test(text) ? 2 : 1) * text.length + 24;
}
