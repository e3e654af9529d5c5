// The service's Prometheus metrics, on a registry of its own (never prom-client's global one, so
// several services or a host application never collide). Gauges that mirror the core's state are
// read from core.stats() at scrape time. Must never throw at a caller: metric updates are
// fire-and-forget, and a failing stats() read leaves the last value.

import { CHECK_CATALOG } from '../checks/catalog.js';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CoreStats } from '../runs/footprint.js';
import * as N from './names.js';

export type Signal = 'traces' | 'logs';
export type Transport = 'http' | 'grpc';

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly spansReceived: Counter<'transport'>;
  readonly spansForwarded: Counter;
  readonly spansRejected: Counter<'reason'>;
  readonly spansUnanalysed: Counter<'reason'>;
  readonly carrierSpans: Counter;
  readonly logsReceived: Counter<'transport'>;
  readonly logsForwarded: Counter;
  readonly logsRejected: Counter<'reason'>;
  readonly logsUnjoined: Counter<'reason'>;
  readonly batches: Counter<'signal' | 'transport' | 'outcome'>;
  readonly exportFailures: Counter<'signal' | 'reason'>;
  readonly exportRetries: Counter<'signal'>;
  readonly retryResponses: Counter<'status'>;
  readonly findings: Counter<'kind' | 'seam'>;
  readonly evaluations: Counter<'outcome'>;
  readonly valuesNormalised: Counter<'reason'>;
  readonly inFlight: Gauge;
  readonly downstreamMisconfigured: Counter<'signal' | 'status'>;
  readonly connectionsClosed: Counter<'transport' | 'reason'>;
  /** Open connections by transport, read at scrape time from the receivers (set by them). */
  readonly openConnections = new Map<Transport, () => number>();
  readonly requestSeconds: Histogram<'route' | 'status'>;

  constructor(stats: () => CoreStats) {
    const r = [this.registry];
    this.spansReceived = new Counter({ name: N.M_SPANS_RECEIVED, help: 'Spans received, by transport.', labelNames: ['transport'], registers: r });
    this.spansForwarded = new Counter({ name: N.M_SPANS_FORWARDED, help: 'Spans accepted downstream (or kept by the embedded default), carrier spans included.', registers: r });
    this.spansRejected = new Counter({ name: N.M_SPANS_REJECTED, help: 'Spans not forwarded, by reason.', labelNames: ['reason'], registers: r });
    this.spansUnanalysed = new Counter({ name: N.M_SPANS_UNANALYSED, help: 'Spans forwarded without analysis, by reason (e.g. past limits.spansPerBatch).', labelNames: ['reason'], registers: r });
    this.carrierSpans = new Counter({ name: N.M_CARRIER_SPANS, help: 'Carrier spans written for findings whose subject span had already passed.', registers: r });
    this.logsReceived = new Counter({ name: N.M_LOGS_RECEIVED, help: 'Log records received, by transport.', labelNames: ['transport'], registers: r });
    this.logsForwarded = new Counter({ name: N.M_LOGS_FORWARDED, help: 'Log records accepted downstream.', registers: r });
    this.logsRejected = new Counter({ name: N.M_LOGS_REJECTED, help: 'Log records not forwarded, by reason.', labelNames: ['reason'], registers: r });
    this.logsUnjoined = new Counter({ name: N.M_LOGS_UNJOINED, help: 'Log records not joined to the span they name, by reason (span-of-another-tenant: the span belongs to another tenant); they are forwarded unchanged.', labelNames: ['reason'], registers: r });
    this.logsUnjoined.labels({ reason: 'span-of-another-tenant' }).inc(0);
    this.batches = new Counter({ name: N.M_BATCHES, help: 'Export requests handled, by signal, transport and outcome.', labelNames: ['signal', 'transport', 'outcome'], registers: r });
    this.exportFailures = new Counter({ name: N.M_EXPORT_FAILURES, help: 'Downstream exports that failed (the batch was answered 503 and stays with the sender).', labelNames: ['signal', 'reason'], registers: r });
    this.exportRetries = new Counter({ name: N.M_EXPORT_RETRIES, help: 'Batches re-sent by a client after a failed export (recognised by content), answered from the replay cache.', labelNames: ['signal'], registers: r });
    this.retryResponses = new Counter({ name: N.M_RETRY_RESPONSES, help: 'Answers with Retry-After (429 queue full, 503 downstream failure).', labelNames: ['status'], registers: r });
    this.findings = new Counter({ name: N.M_FINDINGS, help: 'Findings written, by kind and seam.', labelNames: ['kind', 'seam'], registers: r });
    // Every kind's series exists from the start at 0, so `increase()` sees the first finding.
    for (const c of CHECK_CATALOG) for (const kind of c.kinds ?? [c.id]) this.findings.labels({ kind, seam: c.seam }).inc(0);
    this.evaluations = new Counter({ name: N.M_EVALUATIONS, help: 'gen_ai.evaluation.result log records, by outcome.', labelNames: ['outcome'], registers: r });
    this.valuesNormalised = new Counter({ name: N.M_VALUES_NORMALISED, help: 'Values changed at decode so they can be forwarded, by reason (nesting-cut, lone-surrogate); the sender is told in partialSuccess.', labelNames: ['reason'], registers: r });
    this.inFlight = new Gauge({ name: N.M_QUEUE, help: 'Batches being processed or exported, plus those waiting.', registers: r });
    this.requestSeconds = new Histogram({
      name: N.M_REQUEST_SECONDS,
      help: 'Request latency (receipt to answer, downstream export included), by route and status.',
      labelNames: ['route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: r,
    });
    this.downstreamMisconfigured = new Counter({ name: N.M_DOWNSTREAM_MISCONFIGURED, help: 'Downstream exports answered 401, 403 or 404 (a wrong token or path: the operator can fix it, so the batch stays with the sender and is retried).', labelNames: ['signal', 'status'], registers: r });
    this.connectionsClosed = new Counter({ name: N.M_CONNECTIONS_CLOSED, help: 'Connections closed by the receiver, by transport and reason (evicted-idle: to make room at limits.connections; refused: over the limit; reserved-busy: a reserved slot used by a non-probe).', labelNames: ['transport', 'reason'], registers: r });
    const open = this.openConnections;
    new Gauge({
      name: N.M_CONNECTIONS_OPEN,
      help: 'Open connections, by transport.',
      labelNames: ['transport'],
      registers: r,
      collect() {
        for (const [t, f] of open) this.set({ transport: t }, f());
      },
    });
    let last: CoreStats = { conversations: 0, stateBytes: 0, evictedConversations: 0, findingsByKind: {} };
    const read = (): CoreStats => {
      try {
        last = stats();
      } catch {
        /* keep the last value */
      }
      return last;
    };
    new Gauge({ name: N.M_CONVERSATIONS, help: 'Conversations whose state is held.', registers: r, collect() { this.set(read().conversations); } });
    new Gauge({ name: N.M_STATE_BYTES, help: 'Bytes of conversation state held (core estimate).', registers: r, collect() { this.set(read().stateBytes); } });
    new Gauge({ name: N.M_EVICTED, help: 'Conversations evicted since start (LRU or idle).', registers: r, collect() { this.set(read().evictedConversations); } });
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
