// The package's own name and version, read from its package.json (next to src/ in a checkout,
// next to dist/ in an installed package): the one source for `--version`. Never throws; an
// unreadable package.json gives "unknown".

import { readFileSync } from 'node:fs';
import { z } from 'zod';

const PackageJson = z.object({ name: z.string(), version: z.string() });

/** `{ name, version }` of the package this file belongs to (src/cli/ and dist/cli/ are both two levels down). */
export function packageInfo(): { name: string; version: string } {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const r = PackageJson.safeParse(JSON.parse(text));
    if (r.success) return { name: r.data.name, version: r.data.version };
  } catch {
    // fall through
  }
  return { name: 'footprint-otel', version: 'unknown' };
}

/** The `--version` line: "footprint-otel 0.1.0". */
export function versionLine(): string {
  const p = packageInfo();
  return `${p.name} ${p.version}`;
}
