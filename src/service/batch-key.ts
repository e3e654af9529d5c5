// The key that recognises a re-sent batch (the pipeline's acked / running / replay caches) without
// a SHA-256 over every byte of a 4.5 MB request. A trace batch's key is a SHA-256 over its length,
// its first and last 4 KB, 64 evenly spaced 256-byte windows, and the trace and span id of every
// span in it, in order: two different batches share a key only if they carry the same spans in
// the same order, are the same length and agree in every sampled byte, i.e. a re-send of the same
// spans (which the core's seen-span cache treats as a retry anyway). Log batches (no unique ids)
// and small bodies are hashed whole. Must never read anything but the batch it is given.

import { createHash } from 'node:crypto';
import type { Batch } from './pipeline.js';

/** Bodies up to this size are hashed whole. */
const WHOLE_BYTES = 64 * 1024;
const EDGE_BYTES = 4096;
const WINDOWS = 64;
const WINDOW_BYTES = 256;

export function batchKey(batch: Batch): string {
  const body = batch.body;
  const h = createHash('sha256');
  if (batch.signal === 'logs' || body.byteLength <= WHOLE_BYTES) {
    h.update(body);
    return `${batch.signal}:${h.digest('hex')}`;
  }
  h.update(`${body.byteLength}:${batch.spans.length}:${batch.rejected}\n`);
  h.update(body.subarray(0, EDGE_BYTES));
  h.update(body.subarray(body.byteLength - EDGE_BYTES));
  const step = Math.floor((body.byteLength - WINDOW_BYTES) / (WINDOWS - 1));
  for (let i = 0; i < WINDOWS; i++) h.update(body.subarray(i * step, i * step + WINDOW_BYTES));
  let ids = '';
  for (const s of batch.spans) ids += `${s.span.traceId}${s.span.spanId}`;
  h.update(ids);
  return `traces~${h.digest('hex')}`;
}
