// The "Explain this answer" page, for the person who asked (a support lead, not an engineer):
// server-rendered HTML, readable without JavaScript, no external assets, a strict
// Content-Security-Policy (only the page's own inline style, by hash), every telemetry string
// escaped and shown with its invisible characters made visible. A page of several turns opens
// with an index, problems first; each turn opens with its verdict and one plain sentence, then
// You asked · It answered · What is likely wrong · How sure · What it looked up / found / did not
// check, each line saying where it comes from; the engineer's detail (windows with served /
// written / absent marks and backtrack links, ledger, findings as written, checks) is folded in a
// <details>. Rows stack below 40rem. Content reaches the page only through the account and the
// shown map. Pure; must never emit a script, an event handler or a link from telemetry.

import { createHash } from 'node:crypto';
import { pointerKey } from './pointer.js';
import { escapeHtml, safeId, shownText } from './escape.js';
import type { Account, Explanation, Part, Pointer, Sentence, ShownMap, Source, ValueMark, WindowView } from './types.js';

const STYLE = `
:root{color-scheme:light;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--unknown:#57606a;--line:#d0d7de;--soft:#f6f8fa}
*{box-sizing:border-box}
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:62rem;margin:0 auto;padding:1rem 1.5rem 4rem}
h1{font-size:1.6rem;margin:.5rem 0 .25rem}h2{font-size:1.25rem;margin:0}h3{font-size:1.05rem}
.lede{color:#57606a;margin:0 0 1rem}
a{color:#0969da}a:focus-visible,summary:focus-visible,section:focus,article:focus,[tabindex]:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.badge{display:inline-block;font-weight:700;font-size:.8rem;letter-spacing:.03em;text-transform:uppercase;padding:.1rem .5rem;border-radius:.3rem;color:#fff;background:var(--unknown);white-space:nowrap}
.badge.bad{background:var(--bad)}.badge.warn{background:var(--warn)}.badge.ok{background:var(--ok)}
nav.index{border:1px solid var(--line);border-radius:.4rem;padding:.75rem 1rem;margin:1rem 0 1.5rem;background:var(--soft)}
nav.index ol{list-style:none;margin:.5rem 0 0;padding:0}
nav.index li{margin:.35rem 0}
nav.index a{display:flex;flex-wrap:wrap;gap:.25rem .6rem;align-items:baseline;text-decoration:none;color:#1f2328;padding:.2rem .25rem;border-radius:.3rem}
nav.index a:hover .asked{text-decoration:underline}
.turn-no{font-weight:600}.asked{color:#0969da;overflow-wrap:anywhere}
article.turn{border-top:3px solid var(--line);padding-top:1rem;margin-top:2rem;scroll-margin-top:1rem}
article.turn:first-of-type{margin-top:1rem}
header.verdict{border-left:.45rem solid var(--unknown);background:var(--soft);padding:.75rem 1rem;margin:.75rem 0 1.25rem}
header.verdict.ok{border-color:var(--ok)}header.verdict.warn{border-color:var(--warn)}header.verdict.bad{border-color:var(--bad)}
.turn-head{display:flex;flex-wrap:wrap;gap:.3rem .75rem;align-items:center;margin-bottom:.4rem}.turn-head h2{min-width:0;overflow-wrap:anywhere}
p.plain{font-size:1.2rem;line-height:1.45;margin:0;overflow-wrap:anywhere}
dl.rows{display:grid;grid-template-columns:11rem minmax(0,1fr);gap:.6rem 1.25rem;margin:0}
dl.rows dt{font-weight:650}dl.rows dd{margin:0;min-width:0}
p.sentence{margin:0 0 .35rem;overflow-wrap:anywhere}
ul.wrong{list-style:none;margin:0;padding:0}ul.wrong li{margin:0 0 .5rem;overflow-wrap:anywhere}ul.wrong li:target{background:#fff8c5}
.tag{display:inline-block;font-size:.75rem;font-weight:700;text-transform:uppercase;border-radius:.25rem;padding:0 .35rem;margin-right:.4rem;border:1px solid currentColor}
.tag.problem{color:var(--bad)}.tag.look{color:var(--warn)}
.voucher{font-size:.75rem;color:#57606a;border:1px solid var(--line);border-radius:1rem;padding:0 .45rem;margin-left:.4rem;white-space:nowrap}
p.key{font-size:.85rem;color:#57606a;margin:1rem 0}
.status-not-recorded{color:#57606a;font-style:italic}
code,.value{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em;overflow-wrap:anywhere}
q{quotes:"\\201C" "\\201D" "\\2018" "\\2019"}
.label{font-weight:600}
details.engineer{margin:1.5rem 0 0;border:1px solid var(--line);border-radius:.4rem;padding:.5rem 1rem;overflow-wrap:anywhere}
details.engineer>summary{cursor:pointer;font-weight:600;padding:.25rem 0}
details.engineer[open]>summary{margin-bottom:.5rem}
section{margin:1.25rem 0;scroll-margin-top:1rem}section:target{background:#fff8c5}
nav.sections ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0}
ol.window{list-style:none;padding:0;margin:.5rem 0}
ol.window li{border:1px solid var(--line);border-left-width:.35rem;padding:.3rem .6rem;margin:.25rem 0;overflow-wrap:anywhere}
li.served{border-left-color:#2da44e}li.written{border-left-color:#8250df}
.stratum{font-size:.75rem;font-weight:700;text-transform:uppercase;margin-right:.5rem}
.served .stratum{color:#1a7f37}.written .stratum{color:#8250df}
.withheld{color:#57606a;font-style:italic}
mark{padding:0 .2rem;border-radius:.2rem}
mark.chosen{background:#ffd8b5}mark.written{background:#e8d8ff}mark.served,mark.last-served{background:#b5f0c2}mark.absent{background:#ffd1d1}
.absent-note{margin:.3rem 0;color:#82071e}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}th{white-space:nowrap}
.earlier{opacity:.95;border-top:1px dashed var(--line)}
footer{color:#57606a;font-size:.8rem;margin-top:1rem}
form.sign-in{display:flex;flex-direction:column;gap:.5rem;max-width:26rem;margin:1rem 0}
form.sign-in input{font:inherit;padding:.45rem .6rem;border:1px solid #8c959f;border-radius:.3rem}
form.sign-in button{font:inherit;font-weight:600;padding:.5rem .8rem;border:0;border-radius:.3rem;background:#0969da;color:#fff;cursor:pointer;align-self:flex-start}
form.sign-in input:focus-visible,form.sign-in button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.notice{border-left:.35rem solid var(--bad);background:#ffebe9;padding:.4rem .75rem}
@media (max-width:40rem){
main{padding:.75rem .9rem 3rem}h1{font-size:1.35rem}p.plain{font-size:1.1rem}
dl.rows{display:block}dl.rows dt{margin-top:.9rem;font-size:.85rem;text-transform:uppercase;letter-spacing:.03em;color:#57606a}dl.rows dd{margin-top:.15rem}
table,thead,tbody,tr,th,td{display:block;width:100%}thead{display:none}tr{border:1px solid var(--line);margin:.4rem 0;padding:.2rem 0}td{border:0;padding:.1rem .5rem}
td[data-h]::before{content:attr(data-h) ": ";font-weight:600}
}
`;

/** The page's Content-Security-Policy: nothing may load or run; only the inline style, by its hash. */
export function pageCsp(): string {
  const hash = createHash('sha256').update(STYLE, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`;
}

/** The sign-in form's policy: the page's, except that its one form may post to this service. */
export function signInCsp(): string {
  return pageCsp().replace("form-action 'none'", "form-action 'self'");
}

/** Headers of the sign-in form. */
export function signInHeaders(): Record<string, string> {
  // same-origin, not no-referrer: under no-referrer a browser posts the form with `Origin: null`,
  // and the sign-in refuses a form whose origin is not this service's.
  return { ...pageHeaders(), 'Content-Security-Policy': `${signInCsp()}; frame-ancestors 'none'`, 'Referrer-Policy': 'same-origin' };
}

/**
 * The sign-in form a browser gets for a page behind auth: one field (the access token, as a
 * password), posted to /explain/login, which sets a session cookie and sends the browser back to
 * `next`. No script; the token goes only to this service.
 */
export function renderSignIn(o: { message?: string; next: string }): string {
  const body = `<h1>Explain this answer</h1>
<p class="lede">This page is behind footprint-otel's access token. Sign in once; the browser keeps a session for this service.</p>
${o.message ? `<p class="notice" role="alert">${escapeHtml(o.message)}</p>` : ''}
<form class="sign-in" method="post" action="/explain/login">
<input type="hidden" name="next" value="${escapeHtml(o.next)}">
<label for="token">Access token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Open the page</button>
</form>
<p class="key">Ask whoever runs footprint-otel for a token (the one senders use, or one bound to your tenants). A link from a trace's finding (<code>footprint.explain.url</code>) opens the page without signing in until it expires.</p>`;
  return documentHtml('Sign in · Explain this answer', body, signInCsp(), 'same-origin');
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

/** Who vouches for a sentence, in words a reader knows (the key under the rows says what each means). */
export function voucherWords(source: Source): string {
  if (source === 'person') return 'as asked';
  if (source === 'library') return 'from the record';
  if (source === 'model') return 'as answered';
  if (source === 'app') return "the app's word";
  return `per ${source.slice('tool:'.length)}`;
}

function voucherHtml(s: Sentence): string {
  return `<span class="voucher" data-source="${escapeHtml(s.source)}">${shownText(voucherWords(s.source))}</span>`;
}

function inlineHtml(s: Sentence): string {
  return `<span data-template="${escapeHtml(`${s.template.id}@${s.template.version}`)}">${s.parts.map(partHtml).join('')}</span>`;
}

function sentenceHtml(s: Sentence): string {
  const tpl = `${s.template.id}@${s.template.version}`;
  return `<p class="sentence status-${escapeHtml(s.status)}" data-template="${escapeHtml(tpl)}">${s.parts.map(partHtml).join('')}${voucherHtml(s)}</p>`;
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

/** The ledger and disposition tables: one row per read / check; at narrow widths each row stacks, cells labelled. */
function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((cell, i) => `<td data-h="${escapeHtml(headers[i] ?? '')}">${cell}</td>`).join('')}</tr>`).join('');
  return `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** The folded part: the turn's windows, ledger, findings as written, checks — for engineers. */
function engineerHtml(c: Ctx, id: (s: string) => string): string {
  const a = c.account;
  const ledger = a.ledger.length
    ? table(
        ['Tool', 'Call', 'Outcome', 'Result', 'Rows', 'Declared coverage'],
        a.ledger.map((l) => {
          const cov = l.coverage
            ? [
                ...l.coverage.checked.map((x) => `checked <q><bdi>${shownText(x)}</bdi></q>`),
                ...l.coverage.notChecked.map((x) => `did not check <q><bdi>${shownText(x)}</bdi></q>`),
                ...l.coverage.cannotCover.map((x) => `cannot cover <q><bdi>${shownText(x)}</bdi></q>`),
              ].join('<br>')
            : '<span class="withheld">none declared</span>';
          return [
            `<code id="${spanAnchor(c, l.spanId)}-tool"><bdi>${shownText(l.toolName)}</bdi></code>`,
            l.callId ? `<code><bdi>${shownText(l.callId)}</bdi></code>` : '<span class="withheld">not recorded</span>',
            shownText(l.outcome),
            shownText(l.emptiness),
            l.rows !== undefined ? String(l.rows) : '<span class="withheld">not counted</span>',
            cov,
          ];
        }),
      )
    : '<p>No tool was called this turn.</p>';
  const findings = a.findings.length
    ? `<ul>${a.findings
        .map(
          (f) =>
            `<li id="${id(`finding-${safeId(f.id)}-detail`)}"><code>${shownText(f.kind)}</code> at ${shownText(f.seam)}${f.advisory ? ' (advisory)' : ''}${f.value !== undefined ? ` — value <mark class="chosen"><bdi>${shownText(f.value)}</bdi></mark>` : ''} on span ${spanLink(c, f.spanId)}<br><bdi>${shownText(f.message)}</bdi>${
              f.witnesses.length ? `<ul>${f.witnesses.map((w) => `<li>[${shownText(w.stratum)}] <q><bdi>${shownText(w.value)}</bdi></q> — <bdi>${shownText(w.provenance)}</bdi></li>`).join('')}</ul>` : ''
            }</li>`,
        )
        .join('')}</ul>`
    : '<p>No finding on this turn.</p>';
  const d = a.disposition;
  const unreachable = a.rows.find((r) => r.row === 'could-not-run');
  const disposition = d
    ? `<p><bdi>${shownText(d.summary)}</bdi></p>${table(
        ['Check', 'Seam', 'Checked', 'Findings', 'Not applicable', 'Could not run', 'Why'],
        d.checks.map((x) => [`<code>${shownText(x.check)}</code>`, shownText(x.seam), String(x.checked), String(x.findings), String(x.notApplicable), String(x.unreachable), x.reasons.map((r) => `<bdi>${shownText(r)}</bdi>`).join('<br>')]),
      )}`
    : '<p class="withheld">The disposition of this turn was not recorded.</p>';
  const inTurn = a.windows.filter((w) => w.inTurn);
  const earlier = a.windows.filter((w) => !w.inTurn);
  const windows = `${inTurn.map((w) => windowHtml(c, w)).join('')}${earlier.length ? `<h3>Earlier in this conversation</h3>${earlier.map((w) => windowHtml(c, w)).join('')}` : ''}` || '<p>No LLM request of this turn was recorded.</p>';
  const standing = a.verdict.tone;
  return `<details class="engineer" id="${id('engineer')}"><summary>For engineers: the trace behind this account</summary>
<p>Trace <code>${shownText(a.traceId)}</code> · tenant <code><bdi>${shownText(a.tenant)}</bdi></code>${a.turnCount > 1 ? ` · turn ${a.turnIndex} of ${a.turnCount} in this trace` : ''} · verdict <code>${escapeHtml(standing)}</code></p>
<nav class="sections" aria-label="sections"><ul><li><a href="#${id('windows')}">Windows</a></li><li><a href="#${id('ledger')}">Ledger</a></li><li><a href="#${id('findings')}">Findings</a></li><li><a href="#${id('disposition')}">Checks</a></li></ul></nav>
<section id="${id('windows')}" tabindex="-1"><h3>What the model was shown</h3><p>Each request's window, message by message: <strong>served</strong> (system prompt, user messages, tool results) or <strong>written</strong> (the model's own text and calls). Content is shown only for the person's message of this turn and the final answer.</p>${windows}</section>
<section id="${id('ledger')}" tabindex="-1"><h3>Ledger: every read of this turn</h3>${ledger}</section>
<section id="${id('findings')}" tabindex="-1"><h3>Findings as written on the spans</h3>${findings}</section>
<section id="${id('disposition')}" tabindex="-1"><h3>Checks</h3>${unreachable ? `<div id="${id('row-could-not-run')}">${unreachable.sentences.map(sentenceHtml).join('')}</div>` : ''}${disposition}</section>
<footer>Sentences from template set ${a.templateSet}. Pointers into the trace and the shown map are in the JSON form of this page (<code>/api/explain/{traceId}</code>).</footer>
</details>`;
}

const KEY =
  '<p class="key">Where each line comes from: <span class="voucher">from the record</span> footprint-otel read it from the recorded trace; <span class="voucher">per <i>tool</i></span> what that tool said about its own search (not verified); <span class="voucher">as asked</span> the message as it was sent; <span class="voucher">as answered</span> the reply as the model wrote it.</p>';

interface PageTurn {
  account: Account;
  shown: ShownMap;
  /** Chronological number on the page (1-based). */
  number: number;
  prefix: string;
}

const TONE_ORDER: Record<Account['verdict']['tone'], number> = { bad: 0, warn: 1, unknown: 2, ok: 3 };

function turnTitle(t: PageTurn, total: number): string {
  return total > 1 ? `Turn ${t.number}` : 'This turn';
}

function askedText(t: PageTurn): string | undefined {
  const s = t.account.rows.find((r) => r.row === 'you-asked')?.sentences[0];
  const q = s?.parts.find((p): p is { quote: string; source: Source } => 'quote' in p);
  if (!q) return undefined;
  const points = Array.from(q.quote.replace(/\s+/g, ' ').trim());
  return points.length > 120 ? `${points.slice(0, 120).join('')}…` : points.join('');
}

function turnHtml(t: PageTurn, total: number, withKey: boolean): string {
  const a = t.account;
  const c: Ctx = { prefix: t.prefix, shown: t.shown, account: a };
  const id = (s: string) => `${c.prefix}${s}`;
  const row = (name: string, inner: string) => {
    const r = a.rows.find((x) => x.row === name);
    return r ? `<dt id="${id(`row-${r.row}`)}">${escapeHtml(r.title)}</dt><dd>${inner || r.sentences.map(sentenceHtml).join('')}</dd>` : '';
  };
  const wrong = a.rows.find((r) => r.row === 'likely-wrong')!;
  const wrongHtml = a.findings.length
    ? `<ul class="wrong">${[...a.findings.filter((f) => !f.advisory), ...a.findings.filter((f) => f.advisory)]
        .map((f, i) => {
          const s = wrong.sentences[i]!;
          return `<li id="finding-${safeId(f.id)}" tabindex="-1">${f.advisory ? '<span class="tag look">Worth a look</span>' : '<span class="tag problem">Problem</span>'}${s.parts.map(partHtml).join('')}${voucherHtml(s)} <a class="more" href="#${id(`finding-${safeId(f.id)}-detail`)}">details</a></li>`;
        })
        .join('')}</ul>`
    : '';
  const agent = a.turn ? ` · <bdi>${shownText(a.turn)}</bdi>` : '';
  const reason = a.verdict.reason ? ` ${inlineHtml(a.verdict.reason)}` : '';
  return `<article id="${id('turn')}" class="turn" tabindex="-1" aria-labelledby="${id('title')}">
<header class="verdict ${a.verdict.tone}" id="${id('summary')}"><div class="turn-head"><span class="badge ${a.verdict.tone}">${escapeHtml(a.verdict.label)}</span><h2 id="${id('title')}">${escapeHtml(turnTitle(t, total))}${agent}</h2></div>
<p class="plain">${inlineHtml(a.verdict.head)}${reason}</p></header>
<dl class="rows">${row('you-asked', '')}${row('it-answered', '')}${row('likely-wrong', wrongHtml)}${row('how-sure', '')}${row('it-checked', '')}${row('it-found', '')}${row('it-did-not-check', '')}</dl>
${withKey ? KEY : ''}
${engineerHtml(c, id)}
</article>`;
}

function indexHtml(turns: readonly PageTurn[]): string {
  const items = turns
    .map((t) => {
      const asked = askedText(t);
      return `<li><a href="#${t.prefix}turn"><span class="badge ${t.account.verdict.tone}">${escapeHtml(t.account.verdict.label)}</span><span class="turn-no">Turn ${t.number}</span>${asked !== undefined ? `<q class="asked"><bdi>${shownText(asked)}</bdi></q>` : '<span class="asked withheld">what was asked was not recorded</span>'}</a></li>`;
    })
    .join('');
  const bad = turns.filter((t) => t.account.verdict.tone === 'bad' || t.account.verdict.tone === 'warn').length;
  return `<nav class="index" aria-labelledby="index-h"><h2 id="index-h">${turns.length} turns on this page${bad ? ', problems first' : ''}</h2><ol>${items}</ol></nav>`;
}

/** One page for one or more explained traces, self-contained: an index when it holds several turns, problems first. */
export function renderPage(explanations: readonly Explanation[]): string {
  const chronological = explanations
    .flatMap((e, ei) => e.turns.map((account, ti) => ({ account, shown: e.shown, ei, ti })))
    .sort((x, y) => {
      const a = x.account.startedAt === '' ? undefined : BigInt(x.account.startedAt);
      const b = y.account.startedAt === '' ? undefined : BigInt(y.account.startedAt);
      if (a !== undefined && b !== undefined && a !== b) return a < b ? -1 : 1;
      return x.ei - y.ei || x.ti - y.ti;
    });
  const single = chronological.length === 1;
  const turns: PageTurn[] = chronological.map((t, i) => ({ account: t.account, shown: t.shown, number: i + 1, prefix: single ? '' : `t${i + 1}-` }));
  const ordered = [...turns].sort((x, y) => TONE_ORDER[x.account.verdict.tone] - TONE_ORDER[y.account.verdict.tone] || x.number - y.number);
  const title = single ? `Explain this answer · ${turns[0]!.account.verdict.label}` : `Explain these answers · ${turns.length} turns`;
  const lede = single ? 'What the agent was asked, what it answered, and whether that answer can be trusted, read from its recorded trace.' : 'Each turn: what the agent was asked, what it answered, and whether that answer can be trusted, read from its recorded traces.';
  const body = turns.length
    ? `<h1>Explain ${single ? 'this answer' : 'these answers'}</h1><p class="lede">${escapeHtml(lede)}</p>${single ? '' : indexHtml(ordered)}${ordered.map((t, i) => turnHtml(t, turns.length, i === 0)).join('\n')}`
    : '<h1>Explain this answer</h1><p>No agent trace to explain.</p>';
  return documentHtml(title, body, pageCsp());
}

function documentHtml(title: string, body: string, csp: string, referrer = 'no-referrer'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="${referrer}">
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
