import { describe, expect, it } from 'vitest';
import { writtenComputation, type StatedNumber } from '../../src/values/derive.js';
import type { ServedNumber } from '../../src/values/served.js';
import { readNumerals } from '../../src/values/numerals.js';

/** The served numbers of a window, looked up as `unsupported-value` does (by value). */
function servedBy(values: number[]): (operand: string) => ServedNumber | undefined {
  return (o) => {
    const r = readNumerals(o, 1)[0]?.readings[0];
    const at = r ? values.indexOf(r.value) : -1;
    return at >= 0 ? { value: values[at]!, text: String(values[at]), at } : undefined;
  };
}
const stated = (text: string): StatedNumber => ({ ...readNumerals(text, 1)[0]!.readings[0]!, hedged: false });

describe('computations the model wrote out, in steps (writtenComputation)', () => {
  const served = servedBy([180.5, 4, 48.25, 3, 2.6]);
  const steps = 'Lodge: 4 × 180.50 = 722.00. Car: 3 × 48.25 = 144.75. Tax: 4 × 2.60 = 10.40. Total: 722.00 + 144.75 + 10.40 = 877.15.';

  it('a last step that adds the results of earlier right steps derives its result, with every served operand under it', () => {
    const d = writtenComputation(stated('877.15'), [steps], served, 8)!;
    expect(d.formula).toBe("722.00 + 144.75 + 10.40 = 877.15 (computed in the model's own writing; every operand served or the result of an earlier written step)");
    expect(d.operands.map((o) => o.value)).toEqual([4, 180.5, 3, 48.25, 4, 2.6]);
  });

  it('a step with served operands only keeps its plain witness', () => {
    expect(writtenComputation(stated('144.75'), [steps], served, 8)!.formula).toBe("3 × 48.25 = 144.75 (computed in the model's own writing; every operand served)");
  });

  it('a wrong step grounds nothing, and nothing that builds on it', () => {
    const wrong = 'Lodge: 4 × 180.50 = 732.00. Total: 732.00 + 144.75 = 876.75. Car: 3 × 48.25 = 144.75.';
    expect(writtenComputation(stated('732.00'), [wrong], served, 8)).toBeUndefined();
    expect(writtenComputation(stated('876.75'), [wrong], served, 8)).toBeUndefined();
  });

  it('an operand nothing served and no step computed leaves the step underived', () => {
    expect(writtenComputation(stated('1,022.00'), ['5 × 204.40 = 1,022.00'], served, 8)).toBeUndefined();
  });

  it('a chain is followed at most four steps deep', () => {
    const chain = ['1.5 + 1.5 = 3.0', '3.0 + 1.5 = 4.5', '4.5 + 1.5 = 6.0', '6.0 + 1.5 = 7.5', '7.5 + 1.5 = 9.0'].reverse().join('; ');
    const one = servedBy([1.5]);
    expect(writtenComputation(stated('7.5'), [chain], one, 8)).toBeDefined();
    expect(writtenComputation(stated('9.0'), [chain], one, 8)).toBeUndefined();
  });
});
