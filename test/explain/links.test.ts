// The shipped link configuration agrees with the service: Grafana's correlation and Jaeger's link
// pattern point at the page route and the attribute footprint-otel writes, at the base URL the
// compose file gives the service and publishes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ATTR_EXPLAIN_URL } from '../../src/findings/names.js';
import { PATH_EXPLAIN_PAGE } from '../../src/service/names.js';
import { ROOT } from './helpers.js';

const compose = parse(readFileSync(join(ROOT, 'docker', 'docker-compose.yml'), 'utf8')) as { services: Record<string, { environment?: Record<string, string>; ports?: string[]; volumes?: string[] }> };

describe('link configuration', () => {
  const base = compose.services['footprint-otel']!.environment!.FOOTPRINT_PUBLIC_URL!;
  it('compose gives the service a public URL it publishes on loopback', () => {
    const port = new URL(base).port;
    expect(compose.services['footprint-otel']!.ports).toContain(`127.0.0.1:${port}:4318`);
  });
  it("Grafana's Tempo correlation links each trace id to the page, and is mounted", () => {
    const doc = parse(readFileSync(join(ROOT, 'docker', 'grafana', 'provisioning', 'datasources', 'explain-links.yaml'), 'utf8')) as { datasources: { type: string; url: string; correlations: { type: string; config: { field: string; target: { url: string } } }[] }[] };
    const ds = doc.datasources[0]!;
    expect(ds.type).toBe('tempo');
    expect(ds.correlations[0]).toMatchObject({ type: 'external', config: { field: 'traceID', target: { url: `${base}${PATH_EXPLAIN_PAGE}\${traceID}` } } });
    expect(compose.services.grafana!.volumes!.some((v) => v.startsWith('./grafana/provisioning/datasources/explain-links.yaml:'))).toBe(true);
  });
  it("Jaeger's link pattern reads the finding event's attribute", () => {
    const ui = JSON.parse(readFileSync(join(ROOT, 'docker', 'jaeger', 'ui-config.json'), 'utf8')) as { linkPatterns: { type: string; key: string; url: string }[] };
    expect(ui.linkPatterns[0]).toMatchObject({ type: 'logs', key: ATTR_EXPLAIN_URL, url: `#{${ATTR_EXPLAIN_URL}}` });
  });
});
