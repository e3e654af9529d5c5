// The shipped link configuration agrees with the service: Grafana's correlation and Jaeger's link
// pattern point at the page route and the attributes footprint-otel writes, at the base URL the
// compose file gives the service and publishes; Jaeger's UI config is mounted and named by the
// Jaeger config compose starts it with; and the URL Jaeger builds (it URI-encodes every value it
// inserts, as jaeger-ui's encodedStringSupplant does) is exactly the signed link the finding carries.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ATTR_EXPLAIN_LINK, ATTR_EXPLAIN_URL, ATTR_FINDING_ID, EVENT_FINDING } from '../../src/findings/names.js';
import { linkFindingEvents } from '../../src/explain/link.js';
import { PATH_EXPLAIN_PAGE } from '../../src/service/names.js';
import { ROOT, jaegerUrl } from './helpers.js';

const compose = parse(readFileSync(join(ROOT, 'docker', 'docker-compose.yml'), 'utf8')) as { services: Record<string, { environment?: Record<string, string>; ports?: string[]; volumes?: string[]; command?: string[] }> };

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
  it("Jaeger is started with a config that names the mounted UI config", () => {
    const jaeger = compose.services.jaeger!;
    expect(jaeger.command).toEqual(['--config', '/etc/jaeger/config.yaml']);
    expect(jaeger.volumes).toContain('./jaeger/config.yaml:/etc/jaeger/config.yaml:ro');
    expect(jaeger.volumes).toContain('./jaeger/ui-config.json:/etc/jaeger/ui-config.json:ro');
    const cfg = parse(readFileSync(join(ROOT, 'docker', 'jaeger', 'config.yaml'), 'utf8')) as { service: { extensions: string[] }; extensions: { jaeger_query: { ui: { config_file: string } } } };
    expect(cfg.service.extensions).toContain('jaeger_query');
    expect(cfg.extensions.jaeger_query.ui.config_file).toBe('/etc/jaeger/ui-config.json');
  });
  it("Jaeger's link pattern builds exactly the finding's signed link, at the compose base URL", () => {
    const ui = JSON.parse(readFileSync(join(ROOT, 'docker', 'jaeger', 'ui-config.json'), 'utf8')) as { linkPatterns: { type: string; key: string; url: string }[] };
    const pattern = ui.linkPatterns[0]!;
    expect(pattern).toMatchObject({ type: 'logs', key: ATTR_EXPLAIN_LINK });
    expect(pattern.url.startsWith(`${base}/explain/link/`)).toBe(true);
    const events = [{ name: EVENT_FINDING, attributes: { [ATTR_FINDING_ID]: 'ab12cd34ab12cd34ab12cd34ab12cd34' } as Record<string, string> }];
    linkFindingEvents(events, base, 'f'.repeat(32), 'tenant with spaces/and+signs', { secret: 'x'.repeat(32), expiresAt: 2_000_000_000 });
    expect(jaegerUrl(pattern.url, events[0]!.attributes)).toBe(events[0]!.attributes[ATTR_EXPLAIN_URL]);
  });
});

