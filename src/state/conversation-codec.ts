// The one codec between a conversation's in-memory state (ConversationState) and the compact
// snapshot a shared store keeps: versioned JSON, bigints and bytes tagged, the served history as
// its records (rebuilt, keyed again, on decode). `pendingChoice` is never stored: it holds a
// closure and a whole frame, and only matters to a tool declaration arriving on the same instance
// moments later.
// Must never throw at a caller: a snapshot that does not parse, or is of another version, decodes
// to undefined (the turn is then judged without that history, never with a guessed one).

import { z } from 'zod';
import type { ConversationState } from '../runs/conversations.js';
import type { EarlierServed } from '../checks/unsupported-argument.js';
import { servedKey } from '../runs/conversations.js';
import { ServedHistory } from '../runs/served-history.js';

/** Bumped whenever the snapshot's shape changes; a snapshot of another version is not read. */
// 2 (issue 11): `b` counts the state with the estimates of src/runs/conversations.ts (Latin-1
// strings at one byte a character, records' fixed parts); a version-1 entry is refused, not read
// with bytes of the old estimate.
// 3 (issue 11): the served history is held as UTF-8 with its numbers (src/runs/served-history.ts),
// `b` counts it that way, and `h` says how much of `b` the writer's history was.
// 4 (issue 31): `q`, the identity of every request counted in `r` (merges are exact and
// idempotent), `x`, why the history has a gap (an earlier turn's state was lost or unreadable), and
// ledger rows validated field by field (a malformed row makes the snapshot unreadable, never read).
export const CODEC_VERSION = 4;

/**
 * Every ConversationState field and how the codec treats it. A field added to the interface
 * without an entry here fails to compile (and the round-trip test compares the keys).
 */
export const CODEC_FIELDS: Record<keyof ConversationState, 'stored' | 'derived' | 'not-stored'> = {
  key: 'stored',
  requests: 'stored',
  requestIds: 'stored',
  served: 'stored',
  resultTools: 'stored',
  chosen: 'stored',
  ledger: 'stored',
  pendingChoice: 'not-stored',
  valueMemo: 'not-stored',
  memoBytes: 'not-stored',
  bytes: 'stored',
  incomplete: 'stored',
};

/** A ledger row as stored: every field the checks read, typed (model/ledger.ts); extra reading fields pass. */
const LedgerRowSchema = z.object({
  span: z.object({ traceId: z.string(), spanId: z.string() }).passthrough(),
  traceId: z.string(),
  request: z.number().int().positive().optional(),
  toolName: z.string(),
  callId: z.string().optional(),
  // Either may be absent (undefined is stored as absent): a result not captured.
  arguments: z.unknown().optional(),
  result: z.unknown().optional(),
  outcome: z.enum(['ran', 'refused', 'failed', 'unknown']),
  errorMessage: z.string().optional(),
  reading: z
    .object({
      emptiness: z.enum(['declared-absent', 'undeclared-empty', 'non-empty', 'unknown']),
      rows: z.number().int().nonnegative().optional(),
      shape: z.enum(['array', 'absence', 'coverage', 'described', 'rows-at', 'text', 'object', 'none']),
      objectRows: z.array(z.record(z.string(), z.unknown())).optional(),
    })
    .passthrough(),
  startTimeUnixNano: z.bigint(),
  // Where the row was read from (model/ledger.ts); a row stored before rows said so was a span's.
  source: z.enum(['span', 'window']).optional(),
});

const Snapshot = z.object({
  v: z.literal(CODEC_VERSION),
  k: z.string(),
  r: z.number().int().nonnegative(),
  q: z.array(z.number().int().nonnegative()),
  x: z.string().max(500).optional(),
  s: z.array(z.object({ source: z.string(), message: z.number(), text: z.string(), request: z.number() }).passthrough()),
  t: z.array(z.string()),
  // [call id, request, tool name] or, with the call's sole argument (src/runs/sole-argument.ts),
  // [call id, request, tool name, key, value].
  c: z.array(z.union([z.tuple([z.string(), z.number(), z.string()]), z.tuple([z.string(), z.number(), z.string(), z.string(), z.union([z.string(), z.number(), z.boolean()])])])),
  l: z.array(LedgerRowSchema),
  b: z.number().nonnegative(),
  // The bytes of `b` that were the writer's served history: the reader's own copy replaces them.
  h: z.number().nonnegative(),
  i: z.boolean(),
});

const TAG = '$fp';

function replacer(this: unknown, _k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return { [TAG]: 'n', v: v.toString() };
  if (v instanceof Uint8Array) return { [TAG]: 'u8', v: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (v === undefined) return { [TAG]: 'u' };
  return v;
}

function reviver(_k: string, v: unknown): unknown {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && TAG in v) {
    const o = v as Record<string, unknown>;
    if (o[TAG] === 'n' && typeof o.v === 'string') return BigInt(o.v);
    if (o[TAG] === 'u8' && typeof o.v === 'string') return new Uint8Array(Buffer.from(o.v, 'base64'));
    if (o[TAG] === 'u') return undefined;
  }
  return v;
}

/** The snapshot of a state, as a string for the store; `gap`: why its history is known to have a hole. */
export function encodeConversation(s: ConversationState, gap?: string): string {
  const snap = {
    v: CODEC_VERSION,
    k: s.key,
    r: s.requests,
    q: s.requestIds,
    ...(gap ? { x: gap.slice(0, 500) } : {}),
    s: s.served.all(),
    t: [...s.resultTools],
    c: [...s.chosen].map(([id, c]) => (c.soleArgument ? [id, c.request, c.toolName, c.soleArgument.key, c.soleArgument.value] : [id, c.request, c.toolName])),
    l: s.ledger,
    // The pending choice and the value memo are not stored, so neither are their bytes.
    b: s.bytes - (s.pendingChoice?.bytes ?? 0) - (s.memoBytes ?? 0),
    h: s.served.bytes,
    i: s.incomplete,
  };
  return JSON.stringify(snap, replacer);
}

/** The state a snapshot holds, or undefined when it is not one this version can read. */
export function decodeConversation(text: string): ConversationState | undefined {
  return decodeSnapshot(text)?.state;
}

/** The state a snapshot holds and the gap it records, or undefined when it is not one this version can read. */
export function decodeSnapshot(text: string): { state: ConversationState; gap?: string } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text, reviver);
  } catch {
    return undefined;
  }
  const p = Snapshot.safeParse(raw);
  if (!p.success) return undefined;
  const d = p.data;
  // Every counted request has its identity, or the merge could not be exact.
  if (d.q.length !== d.r) return undefined;
  // JSON.parse's reviver drops a key whose value revives to undefined, as the state never had it.
  const served = ServedHistory.of(d.s as unknown as EarlierServed[], servedKey);
  const state: ConversationState = {
    key: d.k,
    requests: d.r,
    requestIds: d.q,
    served,
    resultTools: new Set(d.t),
    chosen: new Map(d.c.map((c) => [c[0], c.length === 5 ? { request: c[1], toolName: c[2], soleArgument: { key: c[3], value: c[4] } } : { request: c[1], toolName: c[2] }])),
    // A row stored before rows said their source was read from its span.
    ledger: (d.l as unknown as ConversationState['ledger']).map((r) => (r.source === 'span' || r.source === 'window' ? r : { ...r, source: 'span' as const })),
    bytes: Math.max(0, d.b - d.h) + served.bytes,
    incomplete: d.i,
  };
  return d.x ? { state, gap: d.x } : { state };
}
