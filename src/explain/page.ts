// The page for a set of traces the core has just processed (the CLI's `check --html`): builds each
// agent trace's record from the annotated spans, explains it, and renders one self-contained page.
// Also the file writer the CLI calls. Must never throw at the CLI: a write failure is returned.

import { writeFileSync } from 'node:fs';
import type { LogData, SpanData } from '../model/telemetry.js';
import type { ProcessResult } from '../runs/options.js';
import type { Declarations } from '../declarations/types.js';
import type { Redaction } from '../model/finding.js';
import { annotatedSpans } from './annotate.js';
import type { Finding } from '../model/finding.js';
import { sensitiveValues, witnessValues } from '../findings/events.js';
import type { SensitiveValues } from './record.js';
import { explainTrace } from './explain.js';
import { renderPage } from './html.js';
import type { Explanation } from './types.js';

export interface PageInput {
  spans: readonly SpanData[];
  logs: readonly LogData[];
  result: Pick<ProcessResult, 'annotations' | 'carriers'> & Partial<Pick<ProcessResult, 'findings'>>;
  /** Traces to explain, in order (those the core saw an agent span of). */
  traceIds: readonly string[];
  declarations?: Declarations;
  redaction?: Redaction;
}

export function explainAll(input: PageInput): Explanation[] {
  const spans = annotatedSpans(input.spans, input.result);
  // The raw values the findings quoted, so tool-declared words that hold one are redacted whole.
  const sensitive = input.result.findings ? sensitiveOfFindings(input.result.findings) : undefined;
  return input.traceIds.map((traceId) =>
    explainTrace(
      { traceId, spans, logs: input.logs },
      { ...(input.declarations ? { declarations: input.declarations } : {}), ...(input.redaction ? { redaction: input.redaction } : {}), ...(sensitive ? { sensitive } : {}) },
    ),
  );
}

/** What a page must hide of these findings under `hash`/`omit` (values, sensitive values, witness values). */
export function sensitiveOfFindings(findings: readonly Finding[]): SensitiveValues {
  const withValue = findings.filter((f) => sensitiveValues(f).length > 0);
  return { values: withValue.flatMap(sensitiveValues), witnessValues: withValue.flatMap(witnessValues) };
}

/** Writes the page to `path`; returns a one-line reason when it cannot. */
export function writeExplainPage(path: string, input: PageInput): string | undefined {
  try {
    writeFileSync(path, renderPage(explainAll(input)));
    return undefined;
  } catch (e) {
    return `cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
}
