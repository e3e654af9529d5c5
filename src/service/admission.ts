// Admission by decoded cost (issue 31): what a batch costs the process is not its request bytes but
// what it holds once decoded, its body with it. One budget (limits.queuedBytes) covers the batches
// waiting and in flight (their decoded cost) and the bodies being read or received (their cost
// before decoding, reserved from their declared or framed length), shared by the HTTP and gRPC
// receivers, so a refusal is given before a body is read (HTTP, from Content-Length) or decoded
// (gRPC, from the message length), at once. A batch bigger than the whole budget still runs when
// nothing else is held. The factors are measured (bench/admission-flood.mjs and the note of issue
// 31): an 18.5 MB protobuf request of recorded agent spans decoded to 29 MB of heap (1.6x); one of
// 5,500 small plain spans (0.88 MB) to 5.9 MB (about 1 KB a span); OTLP/JSON to about its size.
// Pure accounting: must never throw and never go negative.

/** Cost of a batch once decoded: its body (kept for the onward export) twice over, and per span or record. */
export const DECODED_BYTES_PER_BODY_BYTE = 2;
export const DECODED_BYTES_PER_ITEM = 2048;
/** Cost reserved for a body before it is decoded (its items not known yet): this many times its length. */
export const COST_BEFORE_DECODE_PER_BYTE = 3;

export const decodedCost = (bodyBytes: number, items: number): number => bodyBytes * DECODED_BYTES_PER_BODY_BYTE + items * DECODED_BYTES_PER_ITEM;
export const costBeforeDecode = (bodyBytes: number): number => bodyBytes * COST_BEFORE_DECODE_PER_BYTE;

/** A body being read or received: its reservation grows with what arrives; released once the batch is submitted (or refused). */
export interface Reservation {
  /** Grows the reservation to `cost`; false when that passes the budget (the body is then refused). */
  grow(cost: number): boolean;
  release(): void;
}

export class AdmissionBudget {
  private readingCost = 0;
  private readersCount = 0;

  constructor(
    private readonly budget: () => number,
    /** Decoded cost held by batches waiting and in flight. */
    private readonly held: () => number,
  ) {}

  /** Bodies being read or received. */
  get readers(): number {
    return this.readersCount;
  }

  /** Cost reserved by bodies being read or received. */
  get reading(): number {
    return this.readingCost;
  }

  /** True, or why a new body of `cost` would pass the budget now. */
  fits(cost: number, what: string): true | string {
    const held = this.readingCost + this.held();
    if (held > 0 && held + cost > this.budget()) return `${held} bytes (decoded cost) being read or held; ${what} would add ${cost} and pass limits.queuedBytes (${this.budget()}); retry later`;
    return true;
  }

  reserve(cost: number): Reservation {
    let mine = Math.max(0, cost);
    let released = false;
    this.readersCount++;
    this.readingCost += mine;
    return {
      grow: (next: number) => {
        if (released || next <= mine) return true;
        const others = this.readingCost - mine + this.held();
        this.readingCost += next - mine;
        mine = next;
        // A body bigger than the whole budget still streams when nothing else is read or held.
        return others === 0 || others + next <= this.budget();
      },
      release: () => {
        if (released) return;
        released = true;
        this.readersCount--;
        this.readingCost -= mine;
      },
    };
  }
}
