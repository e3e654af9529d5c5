// Public entry of the in-process deployment: the span processor, the log-record processor, the
// one-call `footprint()` setup, and the SDK bridge helpers. Re-exports only; no logic lives here.

export { FootprintSpanProcessor, type FootprintSpanProcessorOptions, type SpanProcessorStats, type CoreLike } from './footprint-span-processor.js';
export { FootprintLogRecordProcessor, footprint, type FootprintLogRecordProcessorOptions, type FootprintSetup, type FootprintSetupOptions } from './footprint-log-processor.js';
export { PendingLogs, type PendingLogStats, type PendingLogsOptions } from './log-buffer.js';
export { toSpanData, toLogData, annotate, fromSpanData, AnnotatedSpan } from './sdk-span.js';
export { looksLikeAgentSpan, looksLikeGenAiLog } from './recognize.js';
