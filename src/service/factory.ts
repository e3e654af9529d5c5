// The service in OpenTelemetry Collector component shape: a factory (type, default config,
// config validation, create) and a component with start()/shutdown(). Pipelines are data: the
// component derives its pipeline specs from the config and builds receivers and exporters from
// the names in them. Must never start anything before start(), never exit the process, and
// never throw at a caller over bad config: validation returns errors.

import type { AddressInfo } from 'node:net';
import { FootprintCore } from '../runs/footprint.js';
import type { Declarations } from '../declarations/types.js';
import type { DeclarationsResult } from '../declarations/schema.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { defaultServiceConfig, loadServiceConfig, type ConfigResult, type ConfigSources, type ServiceConfig } from './config.js';
import { createDownstream, type Downstream } from './downstream.js';
import { FindingsStore } from './findings-store.js';
import { GrpcReceiver } from './grpc-receiver.js';
import { HttpReceiver, type HttpReceiverDeps } from './http-receiver.js';
import { ServiceMetrics } from './metrics.js';
import { Pipeline, type CoreLike, type LogFn } from './pipeline.js';
import { ExplainStore, explainingCore, explainLinkSecret, handleExplain, handleExplainUnauthed, type ExplainServiceOptions } from './explain-routes.js';
import { bindFailureLine, startSummary } from './start-summary.js';
import { createSharedState, type SharedState } from '../state/create.js';

/** start() could not bind an address: `line` is the one line to show a person (names the flag). */
export class BindError extends Error {
  constructor(readonly line: string, cause: unknown) {
    super(line, { cause });
  }
}

export const SERVICE_TYPE = 'footprint';

export type ReceiverName = 'otlp/http' | 'otlp/grpc';
export type ExporterName = 'otlphttp/traces' | 'otlphttp/logs' | 'evaluations/logs' | 'embedded';

/** One pipeline, as data. */
export interface PipelineSpec {
  signal: 'traces' | 'logs';
  receivers: ReceiverName[];
  processors: ['footprint'];
  exporters: ExporterName[];
}

export function pipelinesFor(config: ServiceConfig): PipelineSpec[] {
  const receivers: ReceiverName[] = config.grpcListen ? ['otlp/http', 'otlp/grpc'] : ['otlp/http'];
  const ds = config.downstream;
  const logsExporters: ExporterName[] = [];
  if (ds?.logsUrl) logsExporters.push('otlphttp/logs');
  if (ds?.logsUrl && config.evaluations) logsExporters.push('evaluations/logs');
  if (!ds) logsExporters.push('embedded');
  return [
    { signal: 'traces', receivers, processors: ['footprint'], exporters: ds ? ['otlphttp/traces'] : ['embedded'] },
    // Logs are joined to their spans by the core; carriers they produce go out on the traces exporter.
    { signal: 'logs', receivers, processors: ['footprint'], exporters: logsExporters },
  ];
}

export interface ServiceSettings {
  /** Loads the declarations file named by config.declarationsPath (the CLI injects the loader). */
  loadDeclarations?: (path: string) => DeclarationsResult;
  /** Builds the core (tests inject one); default FootprintCore. */
  createCore?: (options: ConstructorParameters<typeof FootprintCore>[0]) => CoreLike;
  /** Where finding lines go in the embedded default. Default process.stdout. */
  stdout?: (line: string) => void;
  /** Service log lines. Default: one line each on stderr. */
  log?: LogFn;
}

export interface ServiceAddresses {
  /** `http://host:port` of the OTLP/HTTP receiver. */
  address: string;
  /** `host:port` of the OTLP/gRPC receiver, or null. */
  grpcAddress: string | null;
}

export interface ServiceComponent {
  readonly pipelines: PipelineSpec[];
  start(): Promise<ServiceAddresses>;
  /** What a person is told once it listens (addresses, armed checks, where findings go). */
  summary(): string[];
  shutdown(): Promise<void>;
}

const defaultLog: LogFn = (level, message) => process.stderr.write(`${new Date().toISOString()} ${level} footprint-otel: ${message}\n`);

/**
 * Bounds log volume under a storm (a failing downstream, a sender of garbage): at most `perWindow`
 * lines per window; the rest are counted and reported in one line when the next window opens.
 */
export function rateLimitedLog(log: LogFn, perWindow = 50, windowMs = 10_000, now: () => number = Date.now): LogFn {
  let windowStart = now();
  let used = 0;
  let suppressed = 0;
  return (level, message) => {
    const t = now();
    if (t - windowStart >= windowMs) {
      if (suppressed > 0) log('warn', `${suppressed} log lines suppressed in the last ${Math.round((t - windowStart) / 1000)} s (the counters in /metrics are complete)`);
      windowStart = t;
      used = 0;
      suppressed = 0;
    }
    if (used < perWindow) {
      used++;
      log(level, message);
    } else suppressed++;
  };
}

export type CreateResult = { ok: true; service: ServiceComponent } | { ok: false; errors: string[] };

export const serviceFactory = {
  type: SERVICE_TYPE,
  createDefaultConfig: defaultServiceConfig,
  validateConfig: (sources: ConfigSources): ConfigResult => loadServiceConfig(sources),
  create(config: ServiceConfig, settings: ServiceSettings = {}): CreateResult {
    let declarations: Declarations | undefined;
    if (config.declarationsPath) {
      if (!settings.loadDeclarations) return { ok: false, errors: [`declarations: ${config.declarationsPath} given but no declarations loader was supplied`] };
      const r = settings.loadDeclarations(config.declarationsPath);
      if (!r.ok) return { ok: false, errors: r.errors };
      declarations = r.declarations;
    }
    return { ok: true, service: new FootprintService(config, settings, declarations) };
  },
};

class FootprintService implements ServiceComponent {
  readonly pipelines: PipelineSpec[];
  private readonly log: LogFn;
  private readonly rawLog: LogFn;
  private readonly core: CoreLike;
  private readonly explain: NonNullable<HttpReceiverDeps['explain']>;
  private readonly explainUnauthed: NonNullable<HttpReceiverDeps['explainUnauthed']>;
  private readonly metrics: ServiceMetrics;
  private readonly store: FindingsStore;
  private readonly downstream: Downstream | null;
  private readonly pipeline: Pipeline;
  /** The shared conversation-state store and its hook; null with `state: memory`. */
  private readonly shared: SharedState | null;
  private http: HttpReceiver | null = null;
  private grpc: GrpcReceiver | null = null;
  private state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';
  private addresses: ServiceAddresses | null = null;

  constructor(private readonly config: ServiceConfig, settings: ServiceSettings, private readonly declarations: Declarations | undefined) {
    this.pipelines = pipelinesFor(config);
    this.rawLog = settings.log ?? defaultLog;
    this.log = rateLimitedLog(this.rawLog);
    const coreOptions = {
      ...(declarations ? { declarations } : {}),
      limits: {
        maxConversations: config.limits.conversations,
        maxCallsPerConversation: config.limits.callsPerConversation,
        maxBytesPerConversation: config.limits.bytesPerConversation,
      },
      redaction: config.redaction,
      tenantAttribute: config.tenantAttribute,
      checks: config.checks,
    };
    const linkSecret = explainLinkSecret(config.explainLinks.secret, config.auth);
    const explainOptions: ExplainServiceOptions = {
      ...(declarations ? { declarations } : {}),
      redaction: config.redaction,
      tenantAttribute: config.tenantAttribute,
      publicUrl: config.publicUrl,
      auth: config.auth,
      links: linkSecret
        ? { secret: linkSecret, ttlSeconds: config.explainLinks.ttlMinutes * 60, sessionSeconds: config.explainLinks.sessionHours * 3600, secureCookie: config.publicUrl?.startsWith('https://') === true }
        : null,
    };
    const explained = new ExplainStore();
    this.explain = (req, res, url, tenants) => handleExplain(req, res, url, explained, explainOptions, tenants);
    this.explainUnauthed = (req, res, url) => handleExplainUnauthed(req, res, url, explained, explainOptions);
    const inner = settings.createCore ? settings.createCore(coreOptions) : new FootprintCore(coreOptions);
    this.core = explainingCore(inner, explained, explainOptions);
    this.metrics = new ServiceMetrics(() => this.core.stats());
    this.store = new FindingsStore(config.embedded.runs, config.redaction, DEFAULT_LIMITS.quotedValueChars);
    const exporters = new Set(this.pipelines.flatMap((p) => p.exporters));
    this.downstream = exporters.has('otlphttp/traces') && config.downstream ? createDownstream(config.downstream, config.limits.inFlightBatches) : null;
    const stdout = settings.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
    this.shared = createSharedState(config, inner, this.metrics.registry, this.log);
    this.pipeline = new Pipeline({ config, core: this.core, downstream: this.downstream, store: this.store, metrics: this.metrics, log: this.log, stdout, ...(this.shared ? { state: this.shared.sync } : {}) });
  }

  async start(): Promise<ServiceAddresses> {
    if (this.state !== 'new') throw new Error(`start() called on a service that is ${this.state}`);
    this.state = 'starting';
    const receivers = new Set(this.pipelines.flatMap((p) => p.receivers));
    try {
      // The shared state store: connected before listening when it answers in time; else the
      // service starts anyway (turns judged without shared history until it connects).
      if (this.shared) {
        await this.shared.store.connect(2000);
        const r = this.shared.store.ready();
        this.rawLog(r.ok ? 'info' : 'warn', `state store ${r.detail}${r.ok ? '' : '; starting without it (turns are judged without shared history until it connects)'}`);
      }
      let address = '';
      if (receivers.has('otlp/http')) {
        this.http = new HttpReceiver({ config: this.config, pipeline: this.pipeline, metrics: this.metrics, store: this.store, log: this.log, isReady: () => this.state === 'running', explain: this.explain, explainUnauthed: this.explainUnauthed, ...(this.shared ? { stateReady: () => this.shared!.store.ready() } : {}) });
        const a: AddressInfo = await this.http.start().catch((e: unknown) => {
          throw new BindError(bindFailureLine('http', this.config.listen.host, this.config.listen.port, e), e);
        });
        address = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
      }
      let grpcAddress: string | null = null;
      if (receivers.has('otlp/grpc')) {
        this.grpc = new GrpcReceiver({ config: this.config, pipeline: this.pipeline, metrics: this.metrics, log: this.log });
        const hp = this.config.grpcListen!;
        const g = await this.grpc.start().catch((e: unknown) => {
          throw new BindError(bindFailureLine('grpc', hp.host, hp.port, e), e);
        });
        grpcAddress = `${g.host.includes(':') ? `[${g.host}]` : g.host}:${g.port}`;
      }
      this.state = 'running';
      const ds = this.config.downstream;
      this.rawLog('info', `listening on ${address}${grpcAddress ? ` and grpc ${grpcAddress}` : ''}; ${ds ? `exporting traces to ${ds.tracesUrl} (${ds.protocol}), logs to ${ds.logsUrl ?? '(nowhere: no logs endpoint)'}` : 'no downstream: embedded default (findings printed and kept at /api/findings; spans are not exported)'}`);
      this.addresses = { address, grpcAddress };
      return { address, grpcAddress };
    } catch (e) {
      await this.shutdown();
      throw e;
    }
  }

  summary(): string[] {
    if (!this.addresses) return [];
    return startSummary(this.config, this.declarations, this.addresses.address, this.addresses.grpcAddress);
  }

  async shutdown(): Promise<void> {
    if (this.state === 'stopped' || this.state === 'stopping') return;
    this.state = 'stopping';
    const http = this.http;
    const grpc = this.grpc;
    // Stop taking new connections, answer what is in flight, then close the exporter.
    const closing = Promise.all([http?.stop(), grpc?.stop()]);
    await this.pipeline.drain((this.config.downstream?.timeoutMs ?? 1000) + 2000);
    await closing;
    await this.shared?.sync.flush(1000);
    await this.shared?.store.close();
    await this.downstream?.shutdown();
    this.state = 'stopped';
  }
}
