// The "Explain this answer" page: server-rendered HTML, readable without JavaScript, no external
// assets, a strict Content-Security-Policy (only the page's own inline style, by hash), every
// telemetry string escaped and shown with its invisible characters made visible. Shows the account
// rows, the turn's windows with served / written / absent marks and the findings' values
// highlighted (chosen, written, last served, with a backtrack link to the earlier span's
// section), the ledger, the findings and the disposition. Content reaches the page only through
// the shown map. Pure; must never emit a script, an event handler or a link from telemetry.

import { createHash } from 'node:crypto';
import { pointerKey } from './pointer.js';
import { escapeHtml, safeId, shownText } from './escape.js';
import type { Account, Explanation, Part, Pointer, Sentence, ShownMap, ValueMark, WindowView } from './types.js';

const STYLE = `
:root{color-scheme:light;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--unknown:#57606a;--line:#d0d7de}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:70rem;margin:0 auto;padding:1rem 1.5rem 4rem}
header.summary{border-left:.4rem solid var(--unknown);padding:.5rem 1rem;margin:1rem 0;background:#f6f8fa}
header.summary.ok{border-color:var(--ok)}header.summary.warn{border-color:var(--warn)}header.summary.bad{border-color:var(--bad)}
.tone{font-weight:700;text-transform:uppercase;font-size:.8rem;letter-spacing:.05em}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}
a{color:#0969da}a:focus-visible,section:focus,[tabindex]:focus-visible{outline:3px solid #0969da;outline-offset:2px}
section{margin:1.5rem 0;scroll-margin-top:1rem}section:target{background:#fff8c5}
dl.rows{display:grid;grid-template-columns:minmax(9rem,max-content) 1fr;gap:.5rem 1rem}
dl.rows dt{font-weight:600}dl.rows dd{margin:0}
p.sentence{margin:0 0 .35rem;overflow-wrap:anywhere}
.voucher{font-size:.75rem;color:#57606a;border:1px solid var(--line);border-radius:1rem;padding:0 .4rem;margin-left:.4rem;white-space:nowrap}
.status-not-recorded{color:#57606a;font-style:italic}
code,.value{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;overflow-wrap:anywhere}
q{quotes:"\\201C" "\\201D"}
.label{font-weight:600}
ol.window{list-style:none;padding:0;margin:.5rem 0}
ol.window li{border:1px solid var(--line);border-left-width:.35rem;padding:.3rem .6rem;margin:.25rem 0}
li.served{border-left-color:#2da44e}li.written{border-left-color:#8250df}
.stratum{font-size:.75rem;font-weight:700;text-transform:uppercase;margin-right:.5rem}
.served .stratum{color:#1a7f37}.written .stratum{color:#8250df}
.withheld{color:#57606a;font-style:italic}
mark{padding:0 .2rem;border-radius:.2rem}
mark.chosen{background:#ffd8b5}mark.written{background:#e8d8ff}mark.served,mark.last-served{background:#b5f0c2}mark.absent{background:#ffd1d1}
.absent-note{margin:.3rem 0;color:#82071e}
table{border-collapse:collapse;width:100%}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.earlier{opacity:.95;border-top:1px dashed var(--line)}
footer{color:#57606a;font-size:.8rem;margin-top:2rem}
`;

/** The page's Content-Security-Policy: nothing may load or run; only the inline style, by its hash. */
export function pageCsp(): string {
  const hash = createHash('sha256').update(STYLE, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** Headers the service sends with the page (frame-ancestors only works as a header). */
export function pageHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `${pageCsp()}; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

function partHtml(p: Part): string {
  if ('text' in p) return `<bdi>${shownText(p.text)}</bdi>`;
  if ('code' in p) return `<code><bdi>${shownText(p.code)}</bdi></code>`;
  if ('quote' in p) return `<q><bdi>${shownText(p.quote)}</bdi></q>`;
  return `<span class="label"><bdi>${shownText(p.label)}</bdi></span>`;
}

function sentenceHtml(s: Sentence): string {
  const tpl = `${s.template.id}@${s.template.version}`;
  return `<p class="sentence status-${escapeHtml(s.status)}" data-template="${escapeHtml(tpl)}">${s.parts.map(partHtml).join('')}<span class="voucher" title="who vouches for this">${shownText(s.source)}</span></p>`;
}

interface Ctx {
  prefix: string;
  shown: ShownMap;
  account: Account;
}

const spanAnchor = (c: Ctx, spanId: string) => `${c.prefix}span-${safeId(spanId)}`;

function shownValue(c: Ctx, p: Pointer | undefined): string {
  if (!p) return '<span class="withheld">content not shown here</span>';
  const leaf = c.shown[pointerKey(p)];
  if (!leaf) return '<span class="withheld">not shown here</span>';
  if ('value' in leaf) return `<span class="value"><bdi>${shownText(String(leaf.value))}</bdi></span>`;
  if ('rows' in leaf) return `<span class="value">${leaf.rows} rows</span>`;
  return `<span class="withheld">${escapeHtml(leaf.withheld.replace(/-/g, ' '))}</span>`;
}

const MARK_WORDS: Record<ValueMark['mark'], string> = { chosen: 'chosen here', written: 'written here', served: 'served here', 'last-served': 'last served', absent: 'absent' };

function markHtml(c: Ctx, m: ValueMark): string {
  const v = `<mark class="${m.mark}" data-finding="${escapeHtml(safeId(m.findingId))}"><bdi>${shownText(m.value)}</bdi></mark>`;
  if (m.mark === 'last-served' && m.backtrack) {
    const earlier = c.account.windows.find((w) => w.spanId === m.backtrack!.spanId);
    return `<p class="backtrack">${v} was last served in <a class="backtrack-link" href="#${spanAnchor(c, m.backtrack.spanId)}">request ${earlier ? earlier.request : '?'}${earlier && !earlier.inTurn ? ' (an earlier turn)' : ''}, span <code>${shownText(m.backtrack.spanId)}</code></a>, and is no longer in this window.</p>`;
  }
  if (m.mark === 'absent') return `<p class="absent-note">${v} is absent from every served string of this window (system prompt, user messages, tool results).</p>`;
  return `${v} <span class="mark-word">${MARK_WORDS[m.mark]}</span>`;
}

/** A link to the span's section on this page (its window, or its ledger row), or just its id. */
function spanLink(c: Ctx, spanId: string): string {
  const label = `<code>${shownText(spanId)}</code>`;
  if (c.account.windows.some((w) => w.spanId === spanId)) return `<a href="#${spanAnchor(c, spanId)}">${label}</a>`;
  if (c.account.ledger.some((l) => l.spanId === spanId)) return `<a href="#${spanAnchor(c, spanId)}-tool">${label}</a>`;
  return label;
}

function windowHtml(c: Ctx, w: WindowView): string {
  const content = (m: WindowView['messages'][number]) => {
    const isAsked = m.pointer && c.account.asked && pointerKey(m.pointer) === pointerKey(c.account.asked);
    return isAsked ? shownValue(c, m.pointer) : '<span class="withheld">content not shown here</span>';
  };
  const msgs = w.messages
    .map(
      (m) =>
        `<li class="${m.stratum}"><span class="stratum">${m.stratum}</span><span class="role">${shownText(m.role)}</span>${m.toolName ? ` · <code><bdi>${shownText(m.toolName)}</bdi></code>` : ''}${m.callId ? ` · call <code><bdi>${shownText(m.callId)}</bdi></code>` : ''} · message ${m.index}<br>${content(m)}${m.marks.length ? `<br>${m.marks.map((x) => markHtml(c, x)).join(' ')}` : ''}</li>`,
    )
    .join('');
  const chosen = w.chosen.length
    ? `<p>The model chose: ${w.chosen.map((x) => `<code><bdi>${shownText(x.toolName)}</bdi></code>${x.callId ? ` (call <code><bdi>${shownText(x.callId)}</bdi></code>)` : ''}${x.marks.map((m) => ` ${markHtml(c, m)}`).join('')}`).join(', ')}</p>`
    : '';
  const answer = c.account.answer && c.account.answer.spanId === w.spanId ? `<p>The answer: ${shownValue(c, c.account.answer)}</p>` : '';
  const head = `Request ${w.request}${w.inTurn ? '' : ' (an earlier turn of this conversation)'} · span <code>${shownText(w.spanId)}</code>${w.model ? ` · <code><bdi>${shownText(w.model)}</bdi></code>` : ''}`;
  const body = w.content === 'captured' ? `<ol class="window">${msgs}</ol>${chosen}${w.absent.map((m) => markHtml(c, m)).join('')}${answer}` : '<p class="withheld">This request\'s messages were not recorded (content capture off), so its window cannot be shown.</p>';
  return `<section id="${spanAnchor(c, w.spanId)}" class="window-section${w.inTurn ? '' : ' earlier'}" tabindex="-1" aria-labelledby="${spanAnchor(c, w.spanId)}-h"><h3 id="${spanAnchor(c, w.spanId)}-h">${head}</h3>${body}</section>`;
}

function articleHtml(e: Explanation, index: number, single: boolean): string {
  const a = e.account;
  const c: Ctx = { prefix: single ? '' : `t${index}-`, shown: e.shown, account: a };
  const id = (s: string) => `${c.prefix}${s}`;
  const rows = a.rows.map((r) => `<dt id="${id(`row-${r.row}`)}">${escapeHtml(r.title)}</dt><dd>${r.sentences.map(sentenceHtml).join('')}</dd>`).join('');
  const ledger = a.ledger.length
    ? `<table><thead><tr><th>Tool</th><th>Call</th><th>Outcome</th><th>Result</th><th>Rows</th><th>Declared coverage</th></tr></thead><tbody>${a.ledger
        .map((l) => {
          const cov = l.coverage
            ? [
                ...l.coverage.checked.map((x) => `checked <q><bdi>${shownText(x)}</bdi></q>`),
                ...l.coverage.notChecked.map((x) => `did not check <q><bdi>${shownText(x)}</bdi></q>`),
                ...l.coverage.cannotCover.map((x) => `cannot cover <q><bdi>${shownText(x)}</bdi></q>`),
              ].join('<br>')
            : '<span class="withheld">none declared</span>';
          return `<tr><td id="${spanAnchor(c, l.spanId)}-tool"><code><bdi>${shownText(l.toolName)}</bdi></code></td><td>${l.callId ? `<code><bdi>${shownText(l.callId)}</bdi></code>` : '<span class="withheld">not recorded</span>'}</td><td>${shownText(l.outcome)}</td><td>${shownText(l.emptiness)}</td><td>${l.rows ?? '<span class="withheld">not counted</span>'}</td><td>${cov}</td></tr>`;
        })
        .join('')}</tbody></table>`
    : '<p>No tool was called this turn.</p>';
  const findings = a.findings.length
    ? `<ul>${a.findings.map((f) => `<li id="${id(`finding-${safeId(f.id)}`)}"><span class="label">${shownText(f.kind)}</span> at ${shownText(f.seam)}${f.advisory ? ' (advisory)' : ''}${f.value !== undefined ? ` — value <mark class="chosen"><bdi>${shownText(f.value)}</bdi></mark>` : ''} on span ${spanLink(c, f.spanId)}<br><bdi>${shownText(f.message)}</bdi></li>`).join('')}</ul>`
    : '<p>No finding on this turn.</p>';
  const d = a.disposition;
  const disposition = d
    ? `<p><bdi>${shownText(d.summary)}</bdi></p><table><thead><tr><th>Check</th><th>Seam</th><th>Checked</th><th>Findings</th><th>Not applicable</th><th>Could not run</th><th>Why</th></tr></thead><tbody>${d.checks
        .map((x) => `<tr><td><code>${shownText(x.check)}</code></td><td>${shownText(x.seam)}</td><td>${x.checked}</td><td>${x.findings}</td><td>${x.notApplicable}</td><td>${x.unreachable}</td><td>${x.reasons.map((r) => `<bdi>${shownText(r)}</bdi>`).join('<br>')}</td></tr>`)
        .join('')}</tbody></table>`
    : '<p class="withheld">The disposition of this turn was not recorded.</p>';
  const inTurn = a.windows.filter((w) => w.inTurn);
  const earlier = a.windows.filter((w) => !w.inTurn);
  const windows = `${inTurn.map((w) => windowHtml(c, w)).join('')}${earlier.length ? `<h3>Earlier in this conversation</h3>${earlier.map((w) => windowHtml(c, w)).join('')}` : ''}` || '<p>No LLM request of this turn was recorded.</p>';
  return `<article id="${id('trace')}" aria-labelledby="${id('title')}">
<h1 id="${id('title')}">Explain this answer${a.turn ? ` · <bdi>${shownText(a.turn)}</bdi>` : ''}</h1>
<p>Trace <code>${shownText(a.traceId)}</code> · tenant <code><bdi>${shownText(a.tenant)}</bdi></code></p>
<header class="summary ${a.summary.tone}" id="${id('summary')}"><span class="tone">${a.summary.tone}</span> ${sentenceHtml(a.summary.sentence)}</header>
<nav aria-label="sections"><ul><li><a href="#${id('account')}">The account</a></li><li><a href="#${id('windows')}">Windows</a></li><li><a href="#${id('ledger')}">Ledger</a></li><li><a href="#${id('findings')}">Findings</a></li><li><a href="#${id('disposition')}">Disposition</a></li></ul></nav>
<section id="${id('account')}" tabindex="-1"><h2>The account</h2><dl class="rows">${rows}</dl></section>
<section id="${id('windows')}" tabindex="-1"><h2>What the model was shown</h2><p>Each request's window, message by message: <strong>served</strong> (system prompt, user messages, tool results) or <strong>written</strong> (the model's own text and calls). Content is shown only for your message of this turn and the final answer.</p>${windows}</section>
<section id="${id('ledger')}" tabindex="-1"><h2>Ledger: every read of this turn</h2>${ledger}</section>
<section id="${id('findings')}" tabindex="-1"><h2>Findings</h2>${findings}</section>
<section id="${id('disposition')}" tabindex="-1"><h2>Disposition</h2>${disposition}</section>
<footer>Sentences from template set ${a.templateSet}; each names who vouches for it (person &gt; library &gt; tool &gt; model &gt; app). Pointers and the shown map are in the JSON form of this page.</footer>
</article>`;
}

/** One page for one or more explained traces, self-contained. */
export function renderPage(explanations: readonly Explanation[]): string {
  const title = explanations.length === 1 ? `Explain this answer · ${explanations[0]!.account.traceId}` : `Explain these answers · ${explanations.length} traces`;
  const body = explanations.length ? explanations.map((e, i) => articleHtml(e, i, explanations.length === 1)).join('\n<hr>\n') : '<p>No agent trace to explain.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pageCsp())}">
<meta name="referrer" content="no-referrer">
<title>${shownText(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
