// Issue 31 item 7, the docs match the code: every row of docs/service.md's configuration table
// that names a default is checked against defaultServiceConfig() (the gRPC receiver is off by
// default: the docs once said 127.0.0.1:4317), and every `limits.*` key the code has is documented.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultServiceConfig, DEFAULT_SERVICE_LIMITS } from '../../src/service/config.js';
import { ROOT } from '../reliability/helpers.js';

const doc = readFileSync(join(ROOT, 'docs', 'service.md'), 'utf8');
/** key -> the default column's first code span, from the table rows `| \`key\` | \`default\` ... |`. */
const rows = new Map<string, string>();
for (const line of doc.split('\n')) {
  const m = /^\| `([a-zA-Z.]+)` \| `([^`]*)`/.exec(line);
  if (m) rows.set(m[1]!, m[2]!);
}

describe('docs/service.md states the defaults the code has', () => {
  it('listen, grpcListen (off), redaction, tenantAttribute, state, embedded', () => {
    const c = defaultServiceConfig();
    expect(rows.get('listen')).toBe(`${c.listen.host}:${c.listen.port}`);
    expect(c.grpcListen).toBeNull();
    expect(rows.get('grpcListen')).toBe('off');
    expect(rows.get('redaction')).toBe(c.redaction);
    expect(rows.get('tenantAttribute')).toBe(c.tenantAttribute);
    expect(rows.get('state')).toBe(c.state.kind);
    expect(rows.get('embedded.runs')).toBe(String(c.embedded.runs));
    expect(rows.get('embedded.print')).toBe(String(c.embedded.print));
  });

  it('every limits.* key, with its default', () => {
    for (const [key, value] of Object.entries(DEFAULT_SERVICE_LIMITS)) expect(rows.get(`limits.${key}`), `limits.${key}`).toBe(String(value));
    for (const key of rows.keys()) if (key.startsWith('limits.')) expect(Object.keys(DEFAULT_SERVICE_LIMITS)).toContain(key.slice('limits.'.length));
  });
});
