// Makes a telemetry string safe and visible in HTML: every control, format and bidi character is
// shown as a visible ⟨U+XXXX⟩ marker (so a right-to-left override cannot reorder the page and
// an invisible character cannot hide a difference), then the five HTML specials are escaped.
// Ids used in attributes are reduced to [0-9A-Za-z_-]. Pure; must never pass markup through.

const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Visible markers for invisible characters, then escaped: for any string that came from telemetry. */
export function shownText(s: string): string {
  const visible = s.replace(INVISIBLE, (c) => (c === '\n' ? '\n' : `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`));
  return escapeHtml(visible);
}

/** An id fragment for HTML attributes (`id`, `href="#…"`): only [0-9A-Za-z_-], at most 80 characters. */
export function safeId(s: string): string {
  return s.replace(/[^0-9A-Za-z_-]/g, '_').slice(0, 80);
}
