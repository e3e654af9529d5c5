// The bounded buffer between the log-record processor and the span processor: GenAI log records
// waiting, by trace + span id, for their span to end (the official OpenAI instrumentation writes
// message content only as logs), plus the few that arrive after their span already left.
// Must never grow without bound: a cap on spans waiting, records per span, late records and bytes
// held (each record counted at its real size, src/runs/retained-bytes.ts; issue 31), and an age
// limit; past a cap it evicts or drops, counts it, and says so once a minute at most via diag.

import { diag } from '@opentelemetry/api';
import type { LogData } from '../model/telemetry.js';
import type { Limits } from '../limits.js';
import { retainedBytes } from '../runs/retained-bytes.js';

export interface PendingLogStats {
  /** Spans with records waiting. */
  spans: number;
  /** Records waiting. */
  records: number;
  /** Bytes the waiting and late records hold (estimated at their real size). */
  bytes: number;
  /** Records dropped because their span already had `maxLogsPerSpan`. */
  droppedPastPerSpan: number;
  /** Spans whose waiting records were evicted (oldest first) to stay under `maxPendingLogSpans`, or for age. */
  evictedSpans: number;
  /** Records dropped with those evictions. */
  evictedRecords: number;
  /** Records for spans that had already ended, waiting for the next hand-over. */
  late: number;
  /** Late records dropped past the cap on late records. */
  droppedLate: number;
}

interface Entry {
  logs: LogData[];
  dropped: number;
  firstSeenMs: number;
  bytes: number;
}

export interface TakenLogs {
  logs: LogData[];
  /** Records of this span that were not kept (over the per-span cap). */
  dropped: number;
}

export interface PendingLogsOptions {
  limits: Pick<Limits, 'maxLogsPerSpan' | 'maxPendingLogSpans'>;
  /** Records older than this whose span never ended here are dropped. Default 10 minutes. */
  maxAgeMs?: number;
  /** Recently ended agent spans remembered so a record arriving after its span counts as late. Default 1024. */
  recentSpans?: number;
  /** Bytes the waiting records may hold in all; past it the oldest span's records go. Default DEFAULT_PENDING_LOG_BYTES. */
  maxBytes?: number;
  now?: () => number;
}

const key = (traceId: string, spanId: string): string => `${traceId}/${spanId}`;

/** Default bound of the bytes records waiting for their span may hold (64 MiB: a quarter of the core's default state bound). */
export const DEFAULT_PENDING_LOG_BYTES = 64 * 1024 * 1024;

export class PendingLogs {
  private readonly bySpan = new Map<string, Entry>();
  private readonly recentlyEnded = new Map<string, true>();
  private lateLogs: LogData[] = [];
  private lateBytes = 0;
  private records = 0;
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly recentCap: number;
  private readonly now: () => number;
  private readonly limits: PendingLogsOptions['limits'];
  /** Last time each over-bound message was said: once, then at most once a minute. */
  private readonly warned = new Map<string, number>();
  private readonly counters = { droppedPastPerSpan: 0, evictedSpans: 0, evictedRecords: 0, droppedLate: 0 };

  constructor(opts: PendingLogsOptions) {
    this.limits = opts.limits;
    this.maxAgeMs = opts.maxAgeMs ?? 10 * 60 * 1000;
    this.recentCap = opts.recentSpans ?? 1024;
    this.maxBytes = opts.maxBytes ?? DEFAULT_PENDING_LOG_BYTES;
    this.now = opts.now ?? Date.now;
  }

  /** O(1): lets the span processor skip the lookup entirely while nothing waits. */
  get size(): number {
    return this.bySpan.size + this.lateLogs.length;
  }

  add(log: LogData): void {
    if (!log.traceId || !log.spanId) return;
    const k = key(log.traceId, log.spanId);
    const size = retainedBytes(log);
    if (this.recentlyEnded.has(k)) {
      if (this.lateLogs.length >= this.limits.maxLogsPerSpan || this.lateBytes + size > this.maxBytes / 4) {
        this.counters.droppedLate++;
        this.warnOnce(`a log record arrived after its span ended and the late-record buffer is full (${this.limits.maxLogsPerSpan} records or ${Math.floor(this.maxBytes / 4)} bytes); it is not joined`);
        return;
      }
      this.lateLogs.push(log);
      this.lateBytes += size;
      return;
    }
    let e = this.bySpan.get(k);
    if (!e) {
      this.expire();
      if (this.bySpan.size >= this.limits.maxPendingLogSpans) this.evictOldest(`more than ${this.limits.maxPendingLogSpans} spans have log records waiting (limits.maxPendingLogSpans); the oldest span's records were dropped`);
      e = { logs: [], dropped: 0, firstSeenMs: this.now(), bytes: 0 };
      this.bySpan.set(k, e);
    }
    if (e.logs.length >= this.limits.maxLogsPerSpan) {
      e.dropped++;
      this.counters.droppedPastPerSpan++;
      this.warnOnce(`a span has more than ${this.limits.maxLogsPerSpan} log records waiting (limits.maxLogsPerSpan); later ones are not joined and that span's content is incomplete`);
      return;
    }
    e.logs.push(log);
    e.bytes += size;
    this.bytes += size;
    this.records++;
    // The byte bound: the oldest spans' records go first (this one's last).
    while (this.bytes > this.maxBytes && this.bySpan.size > 0) {
      this.evictOldest(`log records waiting for their spans passed ${this.maxBytes} bytes; the oldest span's records were dropped`);
    }
  }

  /** Removes and returns the records waiting for a span, and remembers that the span has ended. */
  take(traceId: string, spanId: string): TakenLogs {
    const k = key(traceId, spanId);
    this.rememberEnded(k);
    const e = this.bySpan.get(k);
    if (!e) return { logs: [], dropped: 0 };
    this.bySpan.delete(k);
    this.records -= e.logs.length;
    this.bytes -= e.bytes;
    return { logs: e.logs, dropped: e.dropped };
  }

  /** Drops what waits for a span that turned out not to be an agent span. */
  discard(traceId: string, spanId: string): void {
    const k = key(traceId, spanId);
    const e = this.bySpan.get(k);
    if (!e) return;
    this.bySpan.delete(k);
    this.records -= e.logs.length;
    this.bytes -= e.bytes;
  }

  /** Records that arrived after their span left; the caller hands them to the core (carriers). */
  takeLate(): LogData[] {
    if (this.lateLogs.length === 0) return [];
    const out = this.lateLogs;
    this.lateLogs = [];
    this.lateBytes = 0;
    return out;
  }

  clear(): void {
    this.bySpan.clear();
    this.recentlyEnded.clear();
    this.lateLogs = [];
    this.lateBytes = 0;
    this.records = 0;
    this.bytes = 0;
    this.warned.clear();
  }

  stats(): PendingLogStats {
    return { spans: this.bySpan.size, records: this.records, bytes: this.bytes + this.lateBytes, late: this.lateLogs.length, ...this.counters };
  }

  private rememberEnded(k: string): void {
    if (this.recentlyEnded.has(k)) return;
    if (this.recentlyEnded.size >= this.recentCap) {
      const oldest = this.recentlyEnded.keys().next();
      if (!oldest.done) this.recentlyEnded.delete(oldest.value);
    }
    this.recentlyEnded.set(k, true);
  }

  /** Map order is insertion order, so the first entries are the oldest. */
  private expire(): void {
    const cutoff = this.now() - this.maxAgeMs;
    for (const [k, e] of this.bySpan) {
      if (e.firstSeenMs > cutoff) break;
      this.bySpan.delete(k);
      this.records -= e.logs.length;
      this.bytes -= e.bytes;
      this.counters.evictedSpans++;
      this.counters.evictedRecords += e.logs.length;
    }
  }

  private evictOldest(reason: string): void {
    const first = this.bySpan.entries().next();
    if (first.done) return;
    const [k, e] = first.value;
    this.bySpan.delete(k);
    this.records -= e.logs.length;
    this.bytes -= e.bytes;
    this.counters.evictedSpans++;
    this.counters.evictedRecords += e.logs.length;
    this.warnOnce(reason);
  }

  private warnOnce(message: string): void {
    const now = this.now();
    const last = this.warned.get(message);
    if (last !== undefined && now - last < 60_000) return;
    this.warned.set(message, now);
    diag.warn(`footprint-otel: ${message}`);
  }
}
