// Public entry of footprint-otel: the in-process processors, the core every deployment runs, the
// declarations loader and the wire-contract names. Re-exports only; no logic lives here.

export * from './processor/index.js';
export { FootprintCore, type FootprintOptions, type ProcessInput, type ProcessResult, type SpanAnnotation, type CoreStats, type Redaction, type EvaluationEvents } from './runs/footprint.js';
export { loadDeclarationsFile, parseDeclarationsText } from './declarations/load.js';
export { validateDeclarations, type DeclarationsResult } from './declarations/schema.js';
export type { Declarations, ToolDeclaration, ClaimDeclaration, ColumnDeclaration, AnswerDeclaration } from './declarations/types.js';
export type { Finding, Witness, Seam, CheckTally } from './model/finding.js';
export type { SpanData, LogData } from './model/telemetry.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export * as names from './findings/names.js';
