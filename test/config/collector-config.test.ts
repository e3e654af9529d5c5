// The shipped deployment files, checked without Docker or a collector binary: every YAML file in
// collector-config/ and docker/ parses; every OpenTelemetry Collector config among them resolves
// (each pipeline's components are defined, every defined component is used, connectors are used
// on both sides with compatible signals, no two listeners share a port, the enriched data cannot
// loop back into footprint-otel); the count connector counts the wire contract's own event and
// attribute names; docker-compose.yml references files that exist and ports that match the
// configs it mounts; the Dockerfile runs the service on the addresses the compose file expects.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { ATTR_FINDING_KIND, EVENT_FINDING } from '../../src/findings/names.js';
import { defaultServiceConfig, loadServiceConfig, parseStateSetting } from '../../src/service/config.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIRS = ['collector-config', 'docker'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out.sort();
}

const FILES = DIRS.flatMap((d) => yamlFiles(join(ROOT, d)));
const rel = (p: string) => relative(ROOT, p);
const load = (p: string): unknown => parseYaml(readFileSync(p, 'utf8'));

const SECTIONS = ['receivers', 'processors', 'exporters', 'connectors', 'extensions'] as const;
type Section = (typeof SECTIONS)[number];
type Signal = 'traces' | 'metrics' | 'logs';

/** Component types these configs may use, and the signals each accepts (as receiver/processor/exporter). */
// Jaeger v2 is an OpenTelemetry Collector too: docker/jaeger/config.yaml uses its components.
const KNOWN: Record<Section, Record<string, readonly Signal[]>> = {
  receivers: { otlp: ['traces', 'metrics', 'logs'], jaeger: ['traces'], zipkin: ['traces'] },
  processors: { memory_limiter: ['traces', 'metrics', 'logs'], batch: ['traces', 'metrics', 'logs'], deltatocumulative: ['metrics'] },
  exporters: {
    otlp: ['traces', 'metrics', 'logs'],
    otlphttp: ['traces', 'metrics', 'logs'],
    loadbalancing: ['traces', 'metrics', 'logs'],
    prometheus: ['metrics'],
    debug: ['traces', 'metrics', 'logs'],
    jaeger_storage_exporter: ['traces'],
  },
  // count: consumes traces/logs/metrics (as an exporter), produces metrics (as a receiver).
  connectors: { count: ['traces', 'metrics', 'logs'] },
  extensions: { health_check: [], healthcheckv2: [], jaeger_storage: [], jaeger_query: [], remote_sampling: [], expvar: [] },
};
const CONNECTOR_OUTPUT: Record<string, readonly Signal[]> = { count: ['metrics'] };

const typeOf = (id: string) => id.split('/')[0]!;
const signalOf = (pipeline: string) => pipeline.split('/')[0] as Signal;

interface Pipeline {
  receivers: string[];
  processors: string[];
  exporters: string[];
}

interface CollectorConfig {
  file: string;
  doc: Obj;
  defined: Record<Section, string[]>;
  pipelines: Record<string, Pipeline>;
  extensionsUsed: string[];
}

function asCollector(file: string, doc: unknown): CollectorConfig | null {
  if (!isObj(doc) || !isObj(doc.service) || !isObj(doc.service.pipelines)) return null;
  const defined = Object.fromEntries(SECTIONS.map((s) => [s, isObj(doc[s]) ? Object.keys(doc[s] as Obj) : []])) as Record<Section, string[]>;
  const pipelines: Record<string, Pipeline> = {};
  for (const [name, p] of Object.entries(doc.service.pipelines)) {
    const list = (k: string): string[] => (isObj(p) && Array.isArray(p[k]) ? (p[k] as unknown[]).map(String) : []);
    pipelines[name] = { receivers: list('receivers'), processors: list('processors'), exporters: list('exporters') };
  }
  const ext = doc.service.extensions;
  return { file, doc, defined, pipelines, extensionsUsed: Array.isArray(ext) ? ext.map(String) : [] };
}

/** Every problem in one collector config, one line each (empty when it resolves). */
function problems(c: CollectorConfig): string[] {
  const out: string[] = [];
  const has = (s: Section, id: string) => c.defined[s].includes(id);
  const pipelineNames = Object.keys(c.pipelines);
  if (pipelineNames.length === 0) out.push('no pipelines');

  for (const [name, p] of Object.entries(c.pipelines)) {
    const signal = signalOf(name);
    if (!['traces', 'metrics', 'logs'].includes(signal)) out.push(`pipeline ${name}: unknown signal "${signal}"`);
    if (p.receivers.length === 0) out.push(`pipeline ${name}: no receivers`);
    if (p.exporters.length === 0) out.push(`pipeline ${name}: no exporters`);
    for (const r of p.receivers) {
      if (has('receivers', r)) {
        if (!(KNOWN.receivers[typeOf(r)] ?? []).includes(signal)) out.push(`pipeline ${name}: receiver ${r} does not produce ${signal}`);
      } else if (has('connectors', r)) {
        if (!(CONNECTOR_OUTPUT[typeOf(r)] ?? []).includes(signal)) out.push(`pipeline ${name}: connector ${r} does not produce ${signal}`);
      } else out.push(`pipeline ${name}: receiver ${r} is not defined under receivers or connectors`);
    }
    for (const pr of p.processors) {
      if (!has('processors', pr)) out.push(`pipeline ${name}: processor ${pr} is not defined`);
      else if (!(KNOWN.processors[typeOf(pr)] ?? []).includes(signal)) out.push(`pipeline ${name}: processor ${pr} does not take ${signal}`);
    }
    if (new Set(p.processors).size !== p.processors.length) out.push(`pipeline ${name}: a processor is listed twice`);
    for (const e of p.exporters) {
      const section: Section | null = has('exporters', e) ? 'exporters' : has('connectors', e) ? 'connectors' : null;
      if (!section) out.push(`pipeline ${name}: exporter ${e} is not defined under exporters or connectors`);
      else if (!(KNOWN[section][typeOf(e)] ?? []).includes(signal)) out.push(`pipeline ${name}: ${e} does not take ${signal}`);
    }
  }

  const used = (k: keyof Pipeline) => new Set(Object.values(c.pipelines).flatMap((p) => p[k]));
  const usedR = used('receivers');
  const usedP = used('processors');
  const usedE = used('exporters');
  for (const r of c.defined.receivers) if (!usedR.has(r)) out.push(`receiver ${r} is defined but in no pipeline`);
  for (const p of c.defined.processors) if (!usedP.has(p)) out.push(`processor ${p} is defined but in no pipeline`);
  for (const e of c.defined.exporters) if (!usedE.has(e)) out.push(`exporter ${e} is defined but in no pipeline`);
  for (const k of c.defined.connectors) {
    if (!usedE.has(k)) out.push(`connector ${k} is never an exporter (nothing feeds it)`);
    if (!usedR.has(k)) out.push(`connector ${k} is never a receiver (its output goes nowhere)`);
  }
  for (const x of c.defined.extensions) if (!c.extensionsUsed.includes(x)) out.push(`extension ${x} is defined but not in service.extensions`);
  for (const x of c.extensionsUsed) if (!c.defined.extensions.includes(x)) out.push(`service.extensions lists ${x}, which is not defined`);

  for (const s of SECTIONS) {
    for (const id of c.defined[s]) if (!(typeOf(id) in KNOWN[s])) out.push(`${s}: ${id} has a type this check does not know (typo?)`);
  }

  const ports = new Map<number, string>();
  for (const [where, endpoint] of listeners(c)) {
    const m = /:(\d+)$/.exec(endpoint);
    if (!m) {
      out.push(`${where}: endpoint "${endpoint}" has no port`);
      continue;
    }
    const port = Number(m[1]);
    if (ports.has(port)) out.push(`port ${port} is used by both ${ports.get(port)} and ${where}`);
    else ports.set(port, where);
  }
  return out;
}

/** The addresses a collector config listens on: receivers' protocols, the prometheus exporter, extensions. */
function listeners(c: CollectorConfig): [string, string][] {
  const out: [string, string][] = [];
  const section = (s: Section): Obj => (isObj(c.doc[s]) ? (c.doc[s] as Obj) : {});
  for (const [id, cfg] of Object.entries(section('receivers'))) {
    if (!isObj(cfg)) continue;
    if (typeof cfg.endpoint === 'string') out.push([id, cfg.endpoint]);
    if (isObj(cfg.protocols)) {
      for (const [proto, pc] of Object.entries(cfg.protocols)) {
        // An otlp protocol with no endpoint listens on its default port.
        const dflt = proto === 'grpc' ? 'localhost:4317' : proto === 'http' ? 'localhost:4318' : null;
        const ep = isObj(pc) && typeof pc.endpoint === 'string' ? pc.endpoint : dflt;
        if (ep) out.push([`${id}.${proto}`, ep]);
      }
    }
  }
  for (const [id, cfg] of Object.entries(section('exporters'))) {
    if (typeOf(id) === 'prometheus' && isObj(cfg) && typeof cfg.endpoint === 'string') out.push([id, cfg.endpoint]);
  }
  for (const [id, cfg] of Object.entries(section('extensions'))) {
    if (isObj(cfg) && typeof cfg.endpoint === 'string') out.push([id, cfg.endpoint]);
  }
  return out;
}

const collectors = FILES.map((f) => asCollector(f, load(f))).filter((c): c is CollectorConfig => c !== null);
const byName = (name: string): CollectorConfig => {
  const c = collectors.find((x) => rel(x.file) === name);
  if (!c) throw new Error(`${name} is not a collector config`);
  return c;
};
const component = (c: CollectorConfig, s: Section, id: string): Obj => {
  const v = (c.doc[s] as Obj | undefined)?.[id];
  if (!isObj(v)) throw new Error(`${rel(c.file)}: ${s}.${id} missing`);
  return v;
};
const portOf = (endpoint: string): number => Number(/:(\d+)(?:\/.*)?$/.exec(endpoint)?.[1]);

describe('every YAML file in collector-config/ and docker/ parses', () => {
  it('finds the shipped files', () => {
    const names = FILES.map(rel);
    for (const f of ['collector-config/pipeline.yaml', 'collector-config/findings-metrics.yaml', 'collector-config/scale-out.yaml', 'docker/docker-compose.yml', 'docker/tempo.yaml', 'docker/prometheus/alerts.yaml', 'docker/prometheus/prometheus.yml']) {
      expect(names).toContain(f);
    }
  });
  it.each(FILES.map(rel))('%s', (f) => {
    const docs = parseAllDocuments(readFileSync(join(ROOT, f), 'utf8'));
    const list = Array.isArray(docs) ? docs : [docs];
    for (const d of list) {
      expect(d.errors.map((e) => e.message)).toEqual([]);
      expect(d.warnings.map((e) => e.message)).toEqual([]);
    }
  });
});

describe('collector configs resolve', () => {
  it('every collector config in collector-config/ is recognised as one', () => {
    const inDir = FILES.filter((f) => rel(f).startsWith('collector-config/'));
    expect(collectors.map((c) => rel(c.file)).sort()).toEqual(expect.arrayContaining(inDir.map(rel)));
  });

  it.each(collectors.map((c) => [rel(c.file), c] as const))('%s: pipelines, definitions, connectors, ports', (_name, c) => {
    expect(problems(c)).toEqual([]);
  });

  it('the checker itself catches each kind of problem', () => {
    const bad = asCollector('bad.yaml', parseYaml(`
receivers:
  otlp: { protocols: { grpc: { endpoint: 0.0.0.0:4317 } } }
  otlp/unused: { protocols: { http: { endpoint: 0.0.0.0:4317 } } }
processors: { batch: {} }
exporters:
  otlphtp/typo: { endpoint: http://x:4318 }
  prometheus: { endpoint: 0.0.0.0:8889 }
connectors:
  count/one-sided: {}
service:
  pipelines:
    traces: { receivers: [otlp], processors: [batch, missing], exporters: [nowhere, count/one-sided, prometheus] }
`))!;
    const p = problems(bad).join('\n');
    expect(p).toMatch(/processor missing is not defined/);
    expect(p).toMatch(/exporter nowhere is not defined/);
    expect(p).toMatch(/receiver otlp\/unused is defined but in no pipeline/);
    expect(p).toMatch(/exporter prometheus.*|prometheus does not take traces/);
    expect(p).toMatch(/connector count\/one-sided is never a receiver/);
    expect(p).toMatch(/port 4317 is used by both/);
    expect(p).toMatch(/otlphtp\/typo has a type this check does not know/);
  });
});

describe('collector-config/pipeline.yaml: agents -> footprint-otel -> Jaeger + Tempo, findings counted', () => {
  const c = byName('collector-config/pipeline.yaml');

  it('sends traces and logs from the agents to footprint-otel over OTLP/HTTP protobuf + gzip, with retry and queue', () => {
    const e = component(c, 'exporters', 'otlphttp/footprint');
    expect(e).toMatchObject({ encoding: 'proto', compression: 'gzip', retry_on_failure: { enabled: true }, sending_queue: { enabled: true } });
    expect(portOf(String(e.endpoint))).toBe(defaultServiceConfig().listen.port);
    expect(c.pipelines['traces/in']).toMatchObject({ receivers: ['otlp'], exporters: ['otlphttp/footprint'] });
    expect(c.pipelines['logs/in']).toMatchObject({ receivers: ['otlp'], exporters: ['otlphttp/footprint'] });
  });

  it('takes footprint-otel output on a second receiver that never feeds footprint-otel (no loop)', () => {
    const agentPorts = listeners(c).filter(([w]) => w.startsWith('otlp.')).map(([, ep]) => portOf(ep));
    const enriched = listeners(c).filter(([w]) => w.startsWith('otlp/enriched')).map(([, ep]) => portOf(ep));
    expect(enriched.length).toBeGreaterThan(0);
    for (const p of enriched) expect(agentPorts).not.toContain(p);
    for (const [name, p] of Object.entries(c.pipelines)) {
      if (p.receivers.includes('otlp/enriched')) expect(p.exporters, name).not.toContain('otlphttp/footprint');
    }
    expect(c.pipelines['traces/out']!.exporters).toEqual(expect.arrayContaining(['otlp/jaeger', 'otlp/tempo', 'count/findings']));
    expect(c.pipelines['logs/out']!.receivers).toEqual(['otlp/enriched']);
  });

  it('counts footprint.finding span events by footprint.finding.kind through deltatocumulative to prometheus', () => {
    expectFindingsCount(c);
    expect(c.pipelines['metrics/findings']).toEqual({ receivers: ['count/findings'], processors: ['deltatocumulative'], exporters: ['prometheus'] });
  });
});

function expectFindingsCount(c: CollectorConfig): void {
  const count = component(c, 'connectors', 'count/findings');
  const metric = (count.spanevents as Obj | undefined)?.['footprint.findings'] as Obj | undefined;
  expect(metric, 'spanevents.footprint.findings').toBeDefined();
  expect(metric!.conditions).toEqual([`name == "${EVENT_FINDING}"`]);
  expect(metric!.attributes).toEqual([{ key: ATTR_FINDING_KIND, default_value: 'unknown' }]);
  const metricsPipelines = Object.entries(c.pipelines).filter(([, p]) => p.receivers.includes('count/findings'));
  expect(metricsPipelines.length).toBe(1);
  const [, mp] = metricsPipelines[0]!;
  expect(mp.processors).toContain('deltatocumulative');
  expect(mp.exporters.some((e) => typeOf(e) === 'prometheus')).toBe(true);
}

describe('collector-config/findings-metrics.yaml: the counting on its own', () => {
  const c = byName('collector-config/findings-metrics.yaml');
  it('counts the wire contract\'s event by kind into Prometheus', () => expectFindingsCount(c));
  it('accepts footprint-otel\'s log records too (a receiver without a logs pipeline would refuse them)', () => {
    expect(Object.entries(c.pipelines).some(([n, p]) => signalOf(n) === 'logs' && p.receivers.includes('otlp/enriched'))).toBe(true);
  });
});

describe('collector-config/scale-out.yaml: loadbalancing in front of several instances', () => {
  const c = byName('collector-config/scale-out.yaml');
  const lb = component(c, 'exporters', 'loadbalancing/footprint');

  it('routes by trace id (the store-backed topology), over OTLP/gRPC, to the instances\' gRPC port', () => {
    expect(lb.routing_key).toBe('traceID');
    expect(lb.routing_attributes).toBeUndefined();
    // The instances share one state store: the file tells them so, with a URL the setting accepts.
    const text = readFileSync(join(ROOT, 'collector-config/scale-out.yaml'), 'utf8');
    const url = /--state (\S+)/.exec(text)?.[1];
    expect(url).toBeDefined();
    expect(parseStateSetting(url!)?.kind).toBe('valkey');
    expect(isObj((lb.protocol as Obj | undefined)?.otlp)).toBe(true);
    const hostnames = ((lb.resolver as Obj).static as Obj).hostnames as string[];
    expect(hostnames.length).toBeGreaterThan(1);
    // gRPC is off by default (a host's collector or Jaeger may hold 4317): the file must tell the
    // instances to listen for gRPC on the port it routes to.
    const ports = new Set(hostnames.map(portOf));
    expect(ports.size).toBe(1);
    const port = [...ports][0];
    expect(defaultServiceConfig().grpcListen).toBeNull();
    expect(readFileSync(join(ROOT, 'collector-config/scale-out.yaml'), 'utf8')).toContain(`--grpc-listen 0.0.0.0:${port}`);
  });

  it('sends traces and their log records through the same exporter (same key, same instance)', () => {
    expect(c.pipelines['traces/in']!.exporters).toEqual(['loadbalancing/footprint']);
    expect(c.pipelines['logs/in']!.exporters).toEqual(['loadbalancing/footprint']);
    for (const [name, p] of Object.entries(c.pipelines)) {
      if (p.receivers.includes('otlp/enriched')) expect(p.exporters, name).not.toContain('loadbalancing/footprint');
    }
  });

  it('says in its comments what the key needs and what it costs', () => {
    const text = readFileSync(c.file, 'utf8');
    expect(text).toMatch(/routing_key: traceID/);
    // The stamping alternative is kept, with what it needs.
    expect(text).toMatch(/#\s+routing_key: attributes\n#\s+routing_attributes: \[gen_ai\.conversation\.id\]/);
    expect(text).toMatch(/EVERY SPAN AND LOG\s*#\s*RECORD/);
    expect(text).toMatch(/routing_key: service/);
    expect(text).toMatch(/conversation state unavailable/);
  });
});

describe('docker/docker-compose.yml', () => {
  const composeFile = join(ROOT, 'docker', 'docker-compose.yml');
  const compose = load(composeFile) as Obj;
  const services = compose.services as Record<string, Obj>;
  const here = dirname(composeFile);
  const env = (s: string): Record<string, string> => {
    const e = services[s]!.environment;
    if (Array.isArray(e)) return Object.fromEntries(e.map((x) => String(x).split(/=(.*)/s).slice(0, 2) as [string, string]));
    return Object.fromEntries(Object.entries((e ?? {}) as Obj).map(([k, v]) => [k, String(v)]));
  };
  /** host path -> container path, for bind mounts. */
  const mounts = (s: string): [string, string][] =>
    ((services[s]!.volumes ?? []) as unknown[]).map(String).filter((v) => v.startsWith('.') || v.startsWith('/')).map((v) => {
      const [host, container] = v.split(':');
      return [resolve(here, host!), container!];
    });

  it('has the collector, footprint-otel, Jaeger v2, Tempo, Prometheus and Grafana', () => {
    expect(Object.keys(services).sort()).toEqual(['footprint-otel', 'grafana', 'jaeger', 'otel-collector', 'prometheus', 'tempo', 'valkey']);
    expect(services['otel-collector']!.image).toMatch(/^otel\/opentelemetry-collector-contrib:/);
    expect(services.jaeger!.image).toMatch(/^jaegertracing\/jaeger:2\./);
    expect(services.tempo!.image).toMatch(/^grafana\/tempo:/);
    expect(services.prometheus!.image).toMatch(/^prom\/prometheus:/);
    expect(services.grafana!.image).toMatch(/^grafana\/grafana:/);
  });

  it('every bind-mounted file or directory and the build context exist in the repo', () => {
    for (const s of Object.keys(services)) for (const [host] of mounts(s)) expect(existsSync(host), `${s}: ${relative(ROOT, host)}`).toBe(true);
    const build = services['footprint-otel']!.build as Obj;
    const context = resolve(here, String(build.context));
    expect(existsSync(join(context, 'package.json'))).toBe(true);
    expect(existsSync(join(context, String(build.dockerfile)))).toBe(true);
  });

  it('the collector runs a mounted config from collector-config/, one the checks above passed', () => {
    const cmd = (services['otel-collector']!.command as string[]).join(' ');
    const inside = /--config[= ](\S+)/.exec(cmd)?.[1];
    const m = mounts('otel-collector').find(([, container]) => container === inside);
    expect(m, `the file behind ${inside} is mounted`).toBeDefined();
    expect(rel(m![0])).toBe('collector-config/pipeline.yaml');
  });

  it('footprint-otel\'s environment is a valid service config that exports to the collector\'s second receiver', () => {
    const e = env('footprint-otel');
    const r = loadServiceConfig({ env: e, overrides: { listen: '0.0.0.0:4318', grpcListen: '0.0.0.0:4317' } });
    expect(r.ok, r.ok ? '' : r.errors.join('\n')).toBe(true);
    if (!r.ok) return;
    const pipeline = byName('collector-config/pipeline.yaml');
    const enrichedPort = listeners(pipeline).find(([w]) => w.startsWith('otlp/enriched'))![1];
    const url = new URL(r.config.downstream!.tracesUrl);
    expect(url.hostname).toBe('otel-collector');
    expect(Number(url.port)).toBe(portOf(enrichedPort));
    expect(r.config.downstream!.logsUrl).toMatch(/\/v1\/logs$/);
    // The collector reaches footprint-otel by its service name.
    expect(new URL(String(component(pipeline, 'exporters', 'otlphttp/footprint').endpoint)).hostname).toBe('footprint-otel');
    // The declarations path is mounted.
    expect(mounts('footprint-otel').map(([, c]) => c)).toContain(e.FOOTPRINT_DECLARATIONS);
  });

  it('footprint-otel keeps conversation state in the Valkey service, which is bounded (maxmemory, an LRU policy over TTL keys)', () => {
    const e = env('footprint-otel');
    const state = parseStateSetting(e.FOOTPRINT_STATE ?? '');
    expect(state?.kind).toBe('valkey');
    expect(new URL((state as { url: string }).url).hostname).toBe('valkey');
    const cmd = (services.valkey!.command as string[]).join(' ');
    expect(cmd).toMatch(/--maxmemory \d+mb/);
    expect(cmd).toMatch(/--maxmemory-policy volatile-lru/);
  });

  it('Prometheus scrapes footprint-otel and the collector exporter on the ports they listen on, with the alert rules mounted', () => {
    const [promHost, promContainer] = mounts('prometheus').find(([h]) => h.endsWith('prometheus.yml'))!;
    expect(promContainer).toBe('/etc/prometheus/prometheus.yml');
    const prom = load(promHost) as Obj;
    const targets = (prom.scrape_configs as Obj[]).flatMap((j) => ((j.static_configs ?? []) as Obj[]).flatMap((s) => s.targets as string[]));
    const pipeline = byName('collector-config/pipeline.yaml');
    expect(targets).toContain(`footprint-otel:${defaultServiceConfig().listen.port}`);
    expect(targets).toContain(`otel-collector:${portOf(String(component(pipeline, 'exporters', 'prometheus').endpoint))}`);
    for (const t of targets) expect(Object.keys(services)).toContain(t.split(':')[0]);
    const mountedRules = mounts('prometheus').map(([, c]) => c);
    for (const f of prom.rule_files as string[]) expect(mountedRules).toContain(f);
  });

  it('Tempo gets its config and keeps max_attribute_bytes at the default', () => {
    const [host] = mounts('tempo').find(([, c]) => c === '/etc/tempo.yaml')!;
    const tempo = load(host) as Obj;
    expect(((tempo.distributor as Obj).receivers as Obj).otlp).toBeDefined();
    expect(JSON.stringify(tempo)).not.toMatch(/max_attribute_bytes/);
  });

  it('Grafana is provisioned with Tempo and Prometheus and a dashboard that uses them', () => {
    const g = mounts('grafana');
    const ds = load(g.find(([h]) => h.endsWith('datasources.yaml'))![0]) as Obj;
    const uids = (ds.datasources as Obj[]).map((d) => [d.type, d.uid]);
    expect(uids).toEqual(expect.arrayContaining([['prometheus', 'prometheus'], ['tempo', 'tempo']]));
    const provider = load(g.find(([h]) => h.endsWith('dashboards.yaml'))![0]) as Obj;
    const dashPath = ((provider.providers as Obj[])[0]!.options as Obj).path;
    const dashDir = g.find(([, c]) => c === dashPath)![0];
    const dashboards = readdirSync(dashDir).filter((f) => f.endsWith('.json'));
    expect(dashboards.length).toBeGreaterThan(0);
    for (const f of dashboards) {
      const d = JSON.parse(readFileSync(join(dashDir, f), 'utf8')) as { panels: { datasource: { uid: string }; targets: { expr?: string; query?: string }[] }[] };
      for (const p of d.panels) expect(['prometheus', 'tempo']).toContain(p.datasource.uid);
      const queries = d.panels.flatMap((p) => p.targets.map((t) => t.expr ?? t.query ?? ''));
      expect(queries.some((q) => /sum by \(kind\)/.test(q) && q.includes('footprint_findings_total'))).toBe(true);
      expect(queries).toContain(`{ event:name = "${EVENT_FINDING}" }`);
    }
  });
});

describe('docker/Dockerfile', () => {
  const text = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');
  const lines = text.split('\n').filter((l) => !l.trim().startsWith('#'));
  const directive = (name: string) => lines.filter((l) => l.startsWith(`${name} `));

  it('is multi-stage on node:20-slim, builds with dev deps, ships production deps only, runs as node', () => {
    expect(directive('FROM')).toEqual(['FROM node:20-slim AS build', 'FROM node:20-slim AS runtime']);
    const runs = directive('RUN').join('\n');
    expect(runs).toMatch(/npm ci --ignore-scripts/);
    expect(runs).toMatch(/npm run build/);
    expect(runs).toMatch(/npm ci --omit=dev/);
    expect(directive('USER')).toEqual(['USER node']);
    expect(directive('EXPOSE')).toEqual(['EXPOSE 4318 4317']);
    expect(text).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    for (const l of directive('COPY')) {
      const src = l.replace(/^COPY (--from=\S+ )?/, '').split(/\s+/).slice(0, -1);
      if (!l.includes('--from=')) for (const s of src) expect(existsSync(join(ROOT, s)), s).toBe(true);
    }
  });

  it('CMD serves OTLP/HTTP on 0.0.0.0:4318 and OTLP/gRPC on 0.0.0.0:4317, flags the service accepts', () => {
    const cmd = JSON.parse(directive('CMD').at(-1)!.slice(4)) as string[];
    expect(cmd.slice(0, 3)).toEqual(['node', 'dist/cli/main.js', 'serve']);
    expect(existsSync(join(ROOT, 'src', 'cli', 'main.ts'))).toBe(true);
    const flag = (f: string) => cmd[cmd.indexOf(f) + 1];
    expect(flag('--listen')).toBe('0.0.0.0:4318');
    expect(flag('--grpc-listen')).toBe('0.0.0.0:4317');
    const r = loadServiceConfig({ env: { FOOTPRINT_AUTH_TOKEN: 't' }, overrides: { listen: flag('--listen')!, grpcListen: flag('--grpc-listen')! } });
    expect(r.ok).toBe(true);
    if (r.ok) expect([r.config.listen.port, r.config.grpcListen?.port]).toEqual([4318, 4317]);
  });

  it('starts with auth on: the image requires a token and, without one, refuses in one line naming the variables', () => {
    const envs = Object.fromEntries(directive('ENV').map((l) => l.slice(4).trim().split('=') as [string, string]));
    expect(envs.FOOTPRINT_AUTH_REQUIRED).toBe('1');
    const cmd = JSON.parse(directive('CMD').at(-1)!.slice(4)) as string[];
    const overrides = { listen: cmd[cmd.indexOf('--listen') + 1]!, grpcListen: cmd[cmd.indexOf('--grpc-listen') + 1]! };
    const without = loadServiceConfig({ env: { ...envs }, overrides });
    expect(without.ok).toBe(false);
    expect(!without.ok && without.errors.join('\n')).toMatch(/a token is required.*FOOTPRINT_AUTH_TOKEN.*FOOTPRINT_AUTH_TOKEN_FILE/);
    const withToken = loadServiceConfig({ env: { ...envs, FOOTPRINT_AUTH_TOKEN: 'secret' }, overrides });
    expect(withToken.ok && withToken.config.auth.token).toBe('secret');
  });
});

describe('docker/docker-compose.yml starts footprint-otel with auth on, and everything that talks to it sends the token', () => {
  const compose = load(join(ROOT, 'docker', 'docker-compose.yml')) as Obj;
  const services = compose.services as Record<string, Obj>;
  const REQUIRED = /^\$\{FOOTPRINT_AUTH_TOKEN:\?.+\}$/;
  it('footprint-otel, the collector and Prometheus take FOOTPRINT_AUTH_TOKEN as a required variable (compose refuses to start without it)', () => {
    for (const s of ['footprint-otel', 'otel-collector', 'prometheus']) expect(String((services[s]!.environment as Obj).FOOTPRINT_AUTH_TOKEN), s).toMatch(REQUIRED);
  });
  it('the collector\'s exporter to footprint-otel sends it as a bearer header, and Prometheus scrapes with it', () => {
    const pipeline = byName('collector-config/pipeline.yaml');
    expect((component(pipeline, 'exporters', 'otlphttp/footprint').headers as Obj).authorization).toBe('Bearer ${env:FOOTPRINT_AUTH_TOKEN}');
    const prom = load(join(ROOT, 'docker', 'prometheus', 'prometheus.yml')) as Obj;
    const job = (prom.scrape_configs as Obj[]).find((j) => j.job_name === 'footprint-otel')!;
    const file = String((job.authorization as Obj).credentials_file);
    expect(String(services.prometheus!.entrypoint)).toContain(`> ${file}`);
  });
});
