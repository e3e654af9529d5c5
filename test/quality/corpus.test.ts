// Pins the quality corpus itself (not the checks): regenerating every case from its script gives
// byte-identical files, no case directory lacks a script, every check has defect and clean cases
// in roughly equal numbers, and every layout decodes to the LLM requests the script played.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CASES } from './build/cases/index.js';
import { renderCase } from './build/render.js';
import { CHECK_IDS } from './build/spec.js';
import { runCheck } from '../../src/cli/check.js';

const dir = 'test/quality/cases';

describe('quality corpus', () => {
  it('every generated file is what its case script renders now (regenerate: npm run quality:build)', () => {
    const stale: string[] = [];
    for (const spec of ALL_CASES) {
      for (const [file, text] of Object.entries(renderCase(spec))) {
        const path = join(dir, spec.name, file);
        if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(path);
      }
    }
    expect(stale).toEqual([]);
  });

  it('holds no case directory without a script', () => {
    const names = new Set(ALL_CASES.map((c) => c.name));
    expect(readdirSync(dir).filter((n) => !names.has(n))).toEqual([]);
  });

  it('gives every check defect and clean cases, about half each, in more than one layout', () => {
    for (const check of CHECK_IDS) {
      const mine = ALL_CASES.filter((c) => c.check === check);
      const defects = mine.filter((c) => c.kind === 'defect').length;
      const clean = mine.length - defects;
      expect(defects, check).toBeGreaterThanOrEqual(1);
      expect(clean, check).toBeGreaterThanOrEqual(1);
      expect(Math.abs(defects - clean), check).toBeLessThanOrEqual(Math.ceil(mine.length / 3));
      expect(new Set(mine.map((c) => c.shape)).size, check).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(ALL_CASES.map((c) => c.shape))).toEqual(new Set(['traceloop', 'vercel', 'otel-logs']));
  });

  it('a defect case expects a finding of its own check; a clean case expects none of it', () => {
    for (const c of ALL_CASES) {
      const own = c.expect.filter((e) => e.check === c.check).length;
      if (c.kind === 'defect') expect(own, c.name).toBeGreaterThan(0);
      else expect(own, c.name).toBe(0);
    }
  });

  it('every case decodes, in its layout, to the turns and LLM requests its script played', () => {
    for (const spec of ALL_CASES) {
      const files = [join(dir, spec.name, 'trace.otlp.json')];
      if (spec.shape === 'otel-logs') files.push(join(dir, spec.name, 'logs.otlp.json'));
      const r = runCheck([...files, '--format', 'json']);
      expect(r.exitCode, spec.name).toBe(0);
      const out = JSON.parse(r.stdout) as { traces: { conversationId: string | null; llmRequests: number }[] };
      expect(out.traces.map((t) => t.llmRequests), spec.name).toEqual(spec.turns.map((t) => t.steps.length + 1));
      expect(new Set(out.traces.map((t) => t.conversationId)), spec.name).toEqual(new Set([`conv-${spec.name}`]));
    }
  });
});
