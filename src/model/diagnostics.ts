// Diagnostics: what could not be read, and why, said in one line each. Bad telemetry or bad config
// produces a diagnostic, never an exception that loses a batch. Bounded so garbage cannot grow it.

export type DiagnosticLevel = 'info' | 'warn' | 'error';

export interface Diagnostic {
  level: DiagnosticLevel;
  /** Stable machine-readable code, e.g. `attribute.json-invalid`. */
  code: string;
  message: string;
  traceId?: string;
  spanId?: string;
}

export interface DiagnosticSink {
  report(d: Diagnostic): void;
}

/** Collects diagnostics up to a cap; past it, counts what it dropped. */
export class DiagnosticList implements DiagnosticSink {
  readonly items: Diagnostic[] = [];
  dropped = 0;
  constructor(private readonly cap = 1000) {}
  report(d: Diagnostic): void {
    if (this.items.length < this.cap) this.items.push(d);
    else this.dropped++;
  }
}
