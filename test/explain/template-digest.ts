// The digest lines of the template table, as the pinned golden file holds them.
import { createHash } from 'node:crypto';
import { TEMPLATES, TEMPLATE_SET_VERSION } from '../../src/explain/templates.js';

const h = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 16);

export function digestLines(): string[] {
  const lines = TEMPLATES.map((t) => `${t.id}@${t.version} ${h(`${t.voucher}\u0000${t.text}`)}`);
  return [`set@${TEMPLATE_SET_VERSION} ${h(lines.join('\n'))}`, ...lines];
}
