// Pins what serve and the in-process processor say at start: which checks the declarations arm,
// which inference arms beyond them, and which need a declaration.
import { describe, expect, it } from 'vitest';
import { armedChecks, armedLine } from '../../src/declarations/armed.js';

describe('armedChecks', () => {
  it('with no declarations, inference arms every inferable check and says which need declarations', () => {
    expect(armedChecks(undefined)).toEqual({
      declared: [],
      inferred: ['dangling-reference', 'unsupported-argument', 'argument-schema', 'repeated-call', 'empty-lookup', 'unsupported-value', 'prior-turn-evidence', 'refusal-asserts-absence', 'count-mismatch', 'status-contradiction', 'unconfirmed-action'],
      needDeclarations: ['result-columns', 'unsupported-claim'],
    });
  });

  it('declared ones are named as declared; checkValues: false and inference: false keep inference off', () => {
    const a = armedChecks({ tools: { backup_status: { argumentsFrom: ['list_machines'] } }, answers: { checkValues: false } });
    expect(a.declared).toEqual(['dangling-reference', 'unsupported-argument', 'empty-lookup', 'refusal-asserts-absence']);
    // The behaviour checks run on what the trace shows (recorded schemas, windows, served rows, a write's name).
    expect(a.inferred).toEqual(['argument-schema', 'repeated-call', 'count-mismatch', 'status-contradiction', 'unconfirmed-action']);
    expect(a.needDeclarations).toEqual(['result-columns', 'unsupported-value', 'prior-turn-evidence', 'unsupported-claim']);
    expect(armedChecks({ tools: {}, inference: false })).toEqual({ declared: [], inferred: [], needDeclarations: expect.arrayContaining(['unsupported-value']) as unknown as string[] });
    expect(armedLine(armedChecks({ tools: {}, inference: false }), 'd.yaml')).toMatch(/^need declarations: /);
    expect(armedLine(a, 'd.yaml')).toMatch(/^armed by d\.yaml: dangling-reference, unsupported-argument, empty-lookup, refusal-asserts-absence; armed by inference .*: argument-schema, repeated-call, count-mismatch, status-contradiction, unconfirmed-action; need declarations: /);
  });

  it('a declared input schema arms argument-schema, a tool declared readOnly: false arms unconfirmed-action', () => {
    const a = armedChecks({ tools: { refund_order: { readOnly: false, inputSchema: { type: 'object' } } } });
    expect(a.declared).toEqual(['argument-schema', 'refusal-asserts-absence', 'unconfirmed-action']);
    expect(a.inferred).not.toContain('argument-schema');
  });
});
