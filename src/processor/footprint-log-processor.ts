// The log side of the in-process deployment: a LogRecordProcessor that copies GenAI log records
// (the official OpenAI instrumentation's message content) into the buffer the span processor reads
// when their span ends, and passes every record on to its own `next` unchanged. Plus `footprint()`,
// which hands out both processors sharing one core and one buffer.
// Must never alter, hold back or drop a record on its way to `next`, never throw out of onEmit,
// and never keep more than the buffer's bounds allow.

import { diag, TraceFlags, type Context } from '@opentelemetry/api';
import type { LogRecordProcessor, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import { resolveLimits } from '../limits.js';
import { toLogData } from './sdk-span.js';
import { looksLikeGenAiLog } from './recognize.js';
import { PendingLogs } from './log-buffer.js';
import { FootprintSpanProcessor, type FootprintSpanProcessorOptions } from './footprint-span-processor.js';

export interface FootprintLogRecordProcessorOptions {
  /** The buffer the span processor reads (FootprintSpanProcessor#pendingLogs). */
  pendingLogs: PendingLogs;
  /** Where every record goes on, unchanged (e.g. a BatchLogRecordProcessor with an OTLP log exporter). Optional. */
  next?: LogRecordProcessor;
}

export class FootprintLogRecordProcessor implements LogRecordProcessor {
  private readonly pending: PendingLogs;
  private readonly next: LogRecordProcessor | undefined;

  constructor(options: FootprintLogRecordProcessorOptions) {
    this.pending = options.pendingLogs;
    this.next = options.next;
  }

  onEmit(logRecord: ReadWriteLogRecord, context?: Context): void {
    try {
      const sc = logRecord.spanContext;
      // Only records tied to a sampled span can meet that span in onEnd.
      if (sc && (sc.traceFlags & TraceFlags.SAMPLED) !== 0 && looksLikeGenAiLog(logRecord.eventName, logRecord.attributes)) {
        this.pending.add(toLogData(logRecord));
      }
    } catch (e) {
      diag.warn(`footprint-otel: copying a log record failed; it is not joined: ${(e as Error)?.message ?? String(e)}`);
    }
    if (!this.next) return;
    try {
      this.next.onEmit(logRecord, context);
    } catch (e) {
      diag.warn(`footprint-otel: next.onEmit threw: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  async forceFlush(): Promise<void> {
    await this.next?.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.next?.shutdown();
  }
}

export interface FootprintSetupOptions extends Omit<FootprintSpanProcessorOptions, 'pendingLogs'> {
  /** Where log records go on, unchanged. Default: nowhere (add your own exporter processor beside it). */
  logsNext?: LogRecordProcessor;
}

export interface FootprintSetup {
  spanProcessor: FootprintSpanProcessor;
  logRecordProcessor: FootprintLogRecordProcessor;
}

/**
 * One call, both processors: `spanProcessors: [fp.spanProcessor]` on the TracerProvider and
 * `processors: [fp.logRecordProcessor]` on the LoggerProvider, sharing one core and one buffer.
 */
export function footprint(options: FootprintSetupOptions): FootprintSetup {
  const { logsNext, ...spanOptions } = options;
  const pendingLogs = new PendingLogs({ limits: resolveLimits(options.limits) });
  const spanProcessor = new FootprintSpanProcessor({ ...spanOptions, pendingLogs });
  const logRecordProcessor = new FootprintLogRecordProcessor(logsNext ? { pendingLogs, next: logsNext } : { pendingLogs });
  return { spanProcessor, logRecordProcessor };
}
