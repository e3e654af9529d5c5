// Pins what serve and the in-process processor say at start: which checks the declarations arm,
// which inference arms beyond them, and which need a declaration.
import { describe, expect, it } from 'vitest';
import { armedChecks, armedLine } from '../../src/declarations/armed.js';

describe('armedChecks', () => {
  it('with no declarations, inference arms every inferable check and says which need declarations', () => {
    expect(armedChecks(undefined)).toEqual({
      declared: [],
      inferred: ['dangling-reference', 'unsupported-argument', 'empty-lookup', 'unsupported-value', 'prior-turn-evidence', 'refusal-asserts-absence'],
      needDeclarations: ['result-columns', 'unsupported-claim'],
    });
  });

  it('declared ones are named as declared; checkValues: false and inference: false keep inference off', () => {
    const a = armedChecks({ tools: { backup_status: { argumentsFrom: ['list_machines'] } }, answers: { checkValues: false } });
    expect(a.declared).toEqual(['dangling-reference', 'unsupported-argument', 'empty-lookup', 'refusal-asserts-absence']);
    expect(a.inferred).toEqual([]);
    expect(a.needDeclarations).toEqual(['result-columns', 'unsupported-value', 'prior-turn-evidence', 'unsupported-claim']);
    expect(armedChecks({ tools: {}, inference: false })).toEqual({ declared: [], inferred: [], needDeclarations: expect.arrayContaining(['unsupported-value']) as unknown as string[] });
    expect(armedLine(armedChecks({ tools: {}, inference: false }), 'd.yaml')).toMatch(/^need declarations: /);
    expect(armedLine(a, 'd.yaml')).toMatch(/^armed by d\.yaml: dangling-reference, unsupported-argument, empty-lookup, refusal-asserts-absence; need declarations: /);
  });
});
