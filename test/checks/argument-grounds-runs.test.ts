// Pins the run fast path of ServedGrounds.locate (issue 36, src/checks/argument-grounds.ts): a
// needle that is one run is looked for by the run bits kept with each served string's part, and
// must give exactly what the search of every string gives (the reference below is that search, as
// locate made it before): the same accepted and first whole strings, and with none accepted the
// same fragment and token (with one accepted, callers read no fragment, and none is looked for). Random texts mix runs, boundaries, ISO-like parts, upper case, JSON
// escapes and non-ASCII; needles are cut from them (whole runs, parts of runs, spans across
// boundaries) or made up. The bits are kept with the parts and reused by a second request's view.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ServedGrounds, occurrence, decodeEscapes, enclosingToken, runProbe, runBits, hasBits, type Located } from '../../src/checks/argument-grounds.js';
import type { ServedString } from '../../src/model/frame.js';

/** locate as it searched every served string (before the run fast path). */
function reference(served: readonly ServedString[], needle: string, accept: (s: ServedString) => boolean): Located {
  const out: Located = {};
  for (const s of served) {
    const raw = s.text.toLowerCase();
    let hit = occurrence(raw, needle);
    let text = raw;
    let original = s.text;
    if (hit?.whole !== true) {
      const d = decodeEscapes(s.text);
      if (d !== s.text) {
        const again = occurrence(d.toLowerCase(), needle);
        if (again) {
          hit = again;
          text = d.toLowerCase();
          original = d;
        }
      }
    }
    if (!hit) continue;
    if (hit.whole) {
      out.whole ??= s;
      if (accept(s)) {
        out.accepted = s;
        return out;
      }
      continue;
    }
    if (!out.fragment) {
      const source = original.length === text.length ? original : text;
      out.fragment = { served: s, token: enclosingToken(source, hit.at, hit.at + needle.length) };
    }
  }
  if (out.whole) delete out.fragment;
  return out;
}

/** What callers read of a located value: an accepted string and the first whole one; else all (a fragment is read only when nothing accepted holds it). */
const asRead = (l: Located): Located => (l.accepted ? { accepted: l.accepted, whole: l.whole } : l);

const piece = fc.constantFrom('srv', 'SRV', 'db', '04', '9000', '-', '_', '.', '/', ':', ' ', '"', '{', '}', ',', '2024-05-01', 't02:00z', 'Ünï', '\\"', '\\u0041', '\\\\', 'acme', 'x', '\u00a0', 'İ');
const text = fc.array(piece, { maxLength: 24 }).map((ps) => ps.join(''));

describe('ServedGrounds.locate: the run fast path gives what the search of every string gives', () => {
  it('on random windows and needles, with bits made on the first request and reused on the second', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.boolean()), { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }), (texts, cuts) => {
        const served: ServedString[] = texts.map(([t, producer], i) => ({ source: 'tool-result', message: i, text: t, ...(producer ? { toolName: 'lookup' } : { toolName: 'other' }) }));
        const parts = served.map(() => ({}));
        const needles = cuts.map(([k, a, b]) => {
          const t = texts[k % texts.length]![0].toLowerCase();
          const from = t.length === 0 ? 0 : a % t.length;
          return t.slice(from, from + 1 + (b % 12));
        });
        needles.push('srv-db-04', 'acme', 'srv');
        const accept = (s: ServedString) => s.toolName === 'lookup';
        for (const request of [0, 1]) {
          const grounds = new ServedGrounds(served, 0, parts);
          for (const needle of needles) {
            expect(asRead(grounds.locate(needle, accept)), `request ${request}: ${JSON.stringify(needle)} in ${JSON.stringify(texts)}`).toEqual(asRead(reference(served, needle, accept)));
            expect(grounds.locate(needle).whole, JSON.stringify(needle)).toEqual(reference(served, needle, () => true).whole);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('takes a needle as one run only when it holds no boundary and cannot be part of an ISO date', () => {
    expect(runProbe('srv-db-04')).toBeTypeOf('number');
    expect(runProbe('srv.db')).toBeUndefined();
    expect(runProbe('2024-05-01')).toBeUndefined();
    expect(runProbe('9000')).toBeUndefined();
    expect(runProbe('')).toBeUndefined();
  });

  it('never says no to a run the text holds', () => {
    fc.assert(
      fc.property(text, (t) => {
        const lower = t.toLowerCase();
        const bits = runBits(lower);
        for (const run of lower.split(/[\s"'`{}[\](),;<>|!*$%~^\u0000/:@.?&#=\\+]+/)) {
          const probe = runProbe(run);
          if (probe !== undefined) expect(hasBits(bits, probe), JSON.stringify(run)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
