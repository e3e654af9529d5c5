// Wraps printed lines at word boundaries to a width (the terminal's, or 100 when not a terminal),
// continuing under a hanging indent. Layout only: it must never drop, cut or reorder a word; a
// word longer than the width stays whole on its own line.

/** The width text output wraps to: the terminal's columns, 100 when stdout is not a terminal. */
export const DEFAULT_WIDTH = 100;
const MIN_WIDTH = 40;

export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && typeof stream.columns === 'number' && stream.columns > 0 ? Math.max(MIN_WIDTH, stream.columns) : DEFAULT_WIDTH;
}

/** One logical line as one or more printed lines of at most `width` characters (words kept whole). */
export function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const more = `${indent}  `;
  const words = line.slice(indent.length).split(' ');
  const out: string[] = [];
  let current = indent;
  let empty = true;
  for (const word of words) {
    const candidate = empty ? current + word : `${current} ${word}`;
    if (empty || candidate.length <= width) {
      current = candidate;
      empty = false;
      continue;
    }
    out.push(current);
    current = more + word;
  }
  out.push(current);
  return out;
}

/** Every line of a text block wrapped; line breaks already there are kept. */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((l) => wrapLine(l, width))
    .join('\n');
}
