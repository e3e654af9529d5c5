// RFC 6901 JSON pointers into a span's record view: encoding (`~0`, `~1`), the key that names a
// pointer in the shown map, resolving a pointer to its leaf, and locating the first string leaf
// equal to a text. A string leaf that holds JSON (gen_ai.input.messages) is descended into as the
// JSON it holds, so a path can reach `/attributes/gen_ai.input.messages/3/content`.
// Pure; must never throw over bad input (an unresolvable pointer is `undefined`).

import type { Pointer } from './types.js';

export const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');
export const unescapeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');

export function encodePath(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapeToken(String(t))}`).join('');
}

/** The tokens of a path; undefined when it is not a JSON pointer ('' is the whole document). */
export function decodePath(path: string): string[] | undefined {
  if (path === '') return [];
  if (!path.startsWith('/')) return undefined;
  return path.slice(1).split('/').map(unescapeToken);
}

/** The key a pointer has in the shown map: `traceId/spanId` then the path (or the derived `#…`). */
export function pointerKey(p: Pointer): string {
  return `${p.traceId}/${p.spanId}${p.path.startsWith('#') ? p.path : `#${p.path}`}`;
}

/** Bytes of a JSON string leaf that is parsed to descend into it. */
const MAX_PARSED_CHARS = 4 * 1024 * 1024;

function child(node: unknown, token: string): unknown {
  if (typeof node === 'string') {
    if (node.length > MAX_PARSED_CHARS) return undefined;
    const t = node.trimStart();
    if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
    try {
      node = JSON.parse(node);
    } catch {
      return undefined;
    }
  }
  if (Array.isArray(node)) {
    if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
    return node[Number(token)];
  }
  if (node !== null && typeof node === 'object' && !(node instanceof Uint8Array)) {
    return Object.prototype.hasOwnProperty.call(node, token) ? (node as Record<string, unknown>)[token] : undefined;
  }
  return undefined;
}

/** The value a path names in a document, or undefined. */
export function resolvePath(doc: unknown, path: string): unknown {
  const tokens = decodePath(path);
  if (!tokens) return undefined;
  let node = doc;
  for (const t of tokens) {
    node = child(node, t);
    if (node === undefined) return undefined;
  }
  return node;
}

/** Nodes visited at most by one search (a hostile document cannot make it run long). */
const MAX_VISITS = 200_000;

/**
 * The path of the first string leaf (depth first, in key order) for which `match` holds, looking
 * through JSON held in strings too. Undefined when none does.
 */
export function locate(doc: unknown, match: (leaf: string, tokens: readonly string[]) => boolean, under: readonly string[] = []): string | undefined {
  let visits = 0;
  const walk = (node: unknown, tokens: string[], depth: number): string[] | undefined => {
    if (visits++ > MAX_VISITS || depth > 64) return undefined;
    if (typeof node === 'string') {
      if (match(node, tokens)) return tokens;
      const t = node.trimStart();
      if ((t.startsWith('{') || t.startsWith('[')) && node.length <= MAX_PARSED_CHARS) {
        try {
          return walk(JSON.parse(node), tokens, depth + 1);
        } catch {
          return undefined;
        }
      }
      return undefined;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const r = walk(node[i], [...tokens, String(i)], depth + 1);
        if (r) return r;
      }
      return undefined;
    }
    if (node !== null && typeof node === 'object' && !(node instanceof Uint8Array)) {
      for (const k of Object.keys(node)) {
        const r = walk((node as Record<string, unknown>)[k], [...tokens, k], depth + 1);
        if (r) return r;
      }
    }
    return undefined;
  };
  const start = resolvePath(doc, encodePath(under));
  if (start === undefined) return undefined;
  const found = walk(start, [...under], 0);
  return found ? encodePath(found) : undefined;
}
