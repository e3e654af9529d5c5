// Pins the packed trace record (src/runs/trace-record.ts, issue 11): its tallies read back exactly
// as the map of copied tally objects they replaced (same tallies, same order, same reasons in the
// same order, zeros kept where a first sighting had them), and its byte estimate is kept exactly:
// what adding reports is what the record holds, and an evicted record gives back all of it.

import { describe, expect, it } from 'vitest';
import { TraceRecord, addTally, countWritten, negated, noteFinding, talliesOfRecord, traceRecordPartsBytes } from '../../src/runs/trace-record.js';
import { FootprintCore } from '../../src/runs/footprint.js';
import { tenantOfResource } from '../../src/model/tenant.js';
import { loadDeclarationsFile } from '../../src/declarations/load.js';
import type { CheckTally, Seam } from '../../src/model/finding.js';
import { FIXTURES_DIR, loadFixture } from '../helpers/fixtures.js';
import { join } from 'node:path';

/** The map of copies the core kept before (footprint.ts, up to 630eff2), as the reference. */
function referenceAdd(map: Map<string, CheckTally>, t: CheckTally): void {
  const key = `${t.check}@${t.seam}`;
  const prev = map.get(key);
  if (!prev) {
    map.set(key, { ...t, unreachableReasons: { ...t.unreachableReasons } });
    return;
  }
  prev.checked += t.checked;
  prev.findings += t.findings;
  prev.notApplicable += t.notApplicable;
  prev.unreachable += t.unreachable;
  for (const [r, n] of Object.entries(t.unreachableReasons)) {
    prev.unreachableReasons[r] = (prev.unreachableReasons[r] ?? 0) + n;
    if (prev.unreachableReasons[r] === 0) delete prev.unreachableReasons[r];
  }
}


/** A small deterministic generator (no Math.random: a failure must replay). */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const PAIRS: [string, Seam][] = [
  ['dangling-reference', 'offer'],
  ['unsupported-argument', 'choice'],
  ['empty-lookup', 'write'],
  ['result-columns', 'write'],
  ['unsupported-value', 'answer'],
  ['refusal-asserts-absence', 'answer'],
  // Not the catalog's pairings: kept apart all the same.
  ['empty-lookup', 'answer'],
  ['a-check-the-catalog-does-not-list', 'choice'],
];
const REASONS = ['message content was not captured', 'tool definitions were not recorded', 'arguments had more than 7 leaves; the rest were not checked', '12', 'the tool result was not captured'];

describe('unit: packed tallies read back as the map of copies did', () => {
  it('same tallies, same order, same reasons in the same order, over many random sequences', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const reference = new Map<string, CheckTally>();
      const rec = new TraceRecord();
      let bytes = 0;
      const added: CheckTally[] = [];
      for (let step = 0; step < 30; step++) {
        let t: CheckTally;
        if (added.length > 0 && next(4) === 0) t = negated(added[next(added.length)]!);
        else {
          const [check, seam] = PAIRS[next(PAIRS.length)]!;
          const unreachableReasons: Record<string, number> = {};
          for (let k = next(3); k > 0; k--) unreachableReasons[REASONS[next(REASONS.length)]!] = next(3);
          t = { check, seam, checked: next(3), findings: next(2), notApplicable: next(2), unreachable: next(3), unreachableReasons };
          added.push(t);
        }
        referenceAdd(reference, t);
        bytes += addTally(rec, t);
        const got = talliesOfRecord(rec);
        expect(JSON.stringify(got)).toBe(JSON.stringify([...reference.values()]));
        expect(got.map((x) => Object.keys(x.unreachableReasons))).toEqual([...reference.values()].map((x) => Object.keys(x.unreachableReasons)));
        expect(bytes).toBe(traceRecordPartsBytes(rec));
      }
    }
  });

  it('a record with nothing tallied reads as no tallies, and holds nothing beyond itself', () => {
    expect(talliesOfRecord(undefined)).toEqual([]);
    expect(talliesOfRecord(new TraceRecord())).toEqual([]);
    expect(traceRecordPartsBytes(new TraceRecord())).toBe(0);
  });

  it('each call gives new objects: changing them changes nothing kept', () => {
    const rec = new TraceRecord();
    addTally(rec, { check: 'dangling-reference', seam: 'offer', checked: 1, findings: 0, notApplicable: 0, unreachable: 1, unreachableReasons: { 'tool definitions were not recorded': 1 } });
    const first = talliesOfRecord(rec)[0]!;
    first.checked = 99;
    first.unreachableReasons['x'] = 1;
    expect(talliesOfRecord(rec)[0]).toEqual({ check: 'dangling-reference', seam: 'offer', checked: 1, findings: 0, notApplicable: 0, unreachable: 1, unreachableReasons: { 'tool definitions were not recorded': 1 } });
  });

  it('findings noted and counted add exactly the bytes the record then reports', () => {
    const rec = new TraceRecord();
    let bytes = 0;
    for (let i = 0; i < 12; i++) {
      bytes += noteFinding(rec, `unsupported-argument @choice [tool_call c${i}] machine_id=srv-${i}`);
      bytes += countWritten(rec, i % 3 === 0 ? 'unsupported-argument' : `check-${i}`);
      expect(bytes).toBe(traceRecordPartsBytes(rec));
    }
    expect(rec.written!.get('unsupported-argument')).toBe(4);
  });
});

describe('unit: the core counts trace records honestly', () => {
  const decl = (() => {
    const r = loadDeclarationsFile(join(FIXTURES_DIR, 'declarations.yaml'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return r.declarations;
  })();
  /** The core's own fields, read here only to check its count against what it holds. */
  type Inside = { cacheBytes: number; traces: { size: number; values(): IterableIterator<TraceRecord> } };

  it('the bytes it adds for records are what they hold, and an evicted record gives back all of it', () => {
    const { doc } = loadFixture('vercel-ai-v7-otel', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const traceIds = [...new Set(spans.map((s) => s.traceId))];
    expect(traceIds.length).toBeGreaterThan(1);
    for (const maxConversations of [1, 100]) {
      const core = new FootprintCore({ declarations: decl, rememberSpans: false, limits: { maxConversations } });
      const inside = core as unknown as Inside;
      for (const id of traceIds) {
        core.process({ spans: spans.filter((s) => s.traceId === id) });
        const held = [...inside.traces.values()].reduce((n, r) => n + traceRecordPartsBytes(r), 0);
        expect(inside.cacheBytes).toBe(held);
        expect(inside.traces.size).toBeLessThanOrEqual(maxConversations);
      }
      core.reset();
      expect(core.stats().stateBytes).toBe(0);
    }
  });

  it('traceInfoOf reads the record: requests, turn, conversation and turn span', () => {
    const { doc } = loadFixture('vercel-ai-v7-otel', 'backup-triage');
    const spans = doc.spans.map((s) => s.span);
    const core = new FootprintCore({ declarations: decl });
    core.process({ spans });
    const traceId = spans[0]!.traceId;
    const info = core.traceInfoOf(traceId, tenantOfResource(spans[0]!.resource, 'service.name'))!;
    expect(info.llmRequests).toBeGreaterThan(0);
    const turn = spans.find((s) => s.traceId === traceId && s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    if (turn) expect(info.turnSpan).toBe(`${traceId}/${turn.spanId}`);
    expect(core.traceInfoOf('f'.repeat(32), tenantOfResource(spans[0]!.resource, 'service.name'))).toBeUndefined();
    // Another tenant's part of the same trace is its own: nothing seen of it.
    expect(core.traceInfoOf(traceId, 'another-tenant')).toBeUndefined();
  });
});
