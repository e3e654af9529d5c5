// What grounding has read of one served string, kept with the message part the string was read
// from (issue 36): a conversation's requests share the part objects of the history their windows
// repeat (src/conventions/genai-window.ts, the window memo), so what was read of a string on one
// request is found on the next. Kept in a WeakMap by the part (a property on the part would give
// the parts new hidden classes, and every reader of parts slower access), so they go when the part
// goes. Made on first need (by src/checks/argument-grounds.ts), never a source of truth: readings
// made of another text than the part's are replaced. Their bytes are counted with the window
// memo's (src/runs/window-memo.ts). Must never hold a string it was not given, nor do I/O.

import type { Frame } from './frame.js';

export interface ServedReadings {
  readonly text: string;
  /** Some request needed the string: bits are made when another one needs it too. */
  needed?: boolean;
  /** Bits of the hashes of the runs of the text's lower case (argument-grounds.ts runBits). */
  runs?: Uint32Array;
  /** The same of its JSON-decoded text; null when decoding does not change it. */
  decodedRuns?: Uint32Array | null;
}

const kept = new WeakMap<object, ServedReadings>();

/** The readings kept with `part` for `text`, made (and kept) on first need. */
export function readingsOf(part: object, text: string): ServedReadings {
  const had = kept.get(part);
  if (had !== undefined && had.text === text) return had;
  const r: ServedReadings = { text };
  kept.set(part, r);
  return r;
}

/** A readings object and its WeakMap entry. */
const READINGS_BYTES = 64;
/** A typed array's own object and its ArrayBuffer's, beside its bytes (as src/runs/retained-bytes.ts). */
const TYPED_ARRAY_BYTES = 96;

/** Estimated bytes of the readings kept with these parts. */
export function keptReadingsBytes(parts: Iterable<object>): number {
  let bytes = 0;
  for (const p of parts) {
    const r = kept.get(p);
    if (r === undefined) continue;
    bytes += READINGS_BYTES + (r.runs !== undefined ? r.runs.byteLength + TYPED_ARRAY_BYTES : 0) + (r.decodedRuns ? r.decodedRuns.byteLength + TYPED_ARRAY_BYTES : 0);
  }
  return bytes;
}

/**
 * A frame's served strings' parts, one per served string in order (undefined for tool-schema text),
 * kept with the frame by buildFrame, not enumerable.
 */
export const FRAME_PARTS: unique symbol = Symbol('footprint.frameParts');

/** The parts buildFrame kept with a frame, if it kept them. */
export function frameParts(frame: Frame): readonly (object | undefined)[] | undefined {
  return (frame as { [FRAME_PARTS]?: (object | undefined)[] })[FRAME_PARTS];
}
