// The join of a bare-value tool execution (OpenInference's `formatIO` of a one-argument input) to
// the model's call with the same id: only a one-key call whose value equals the bare value.
import { describe, it, expect } from 'vitest';
import { soleArgumentOf, withSoleArgument } from '../../src/runs/sole-argument.js';
import type { ToolExecution } from '../../src/model/agent.js';

const ex = (args: unknown, toolName = 'backup_status'): ToolExecution => ({
  kind: 'tool-execution',
  span: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) },
  convention: 'openinference',
  tenant: 't',
  callId: 'call_bt_003',
  toolName,
  arguments: args,
  result: [],
  status: 'ok',
  startTimeUnixNano: 1n,
  endTimeUnixNano: 2n,
});

describe('soleArgumentOf', () => {
  it('a one-key object with a primitive value; nothing else', () => {
    expect(soleArgumentOf({ arguments: { machine_id: 'db-primary-full' } })).toEqual({ key: 'machine_id', value: 'db-primary-full' });
    expect(soleArgumentOf({ arguments: { days: 7 } })).toEqual({ key: 'days', value: 7 });
    expect(soleArgumentOf({ arguments: { a: 'x', b: 'y' } })).toBeUndefined();
    expect(soleArgumentOf({ arguments: { window: { days: 7 } } })).toBeUndefined();
    expect(soleArgumentOf({ arguments: ['x'] })).toBeUndefined();
    expect(soleArgumentOf({ arguments: 'x' })).toBeUndefined();
    expect(soleArgumentOf({})).toBeUndefined();
  });
});

describe('withSoleArgument', () => {
  const chosen = { toolName: 'backup_status', soleArgument: { key: 'machine_id', value: 'db-primary-full' } };
  it("takes the call's object when the execution's bare value equals the call's only argument", () => {
    expect(withSoleArgument(ex('db-primary-full'), chosen).arguments).toEqual({ machine_id: 'db-primary-full' });
    // A number recorded as its text.
    expect(withSoleArgument(ex('7'), { toolName: 'backup_status', soleArgument: { key: 'days', value: 7 } }).arguments).toEqual({ days: 7 });
  });
  it('leaves the execution as it is otherwise', () => {
    const cases: [ToolExecution, Parameters<typeof withSoleArgument>[1]][] = [
      [ex('srv-db-04'), chosen], // a different value
      [ex({ machine_id: 'db-primary-full' }), chosen], // already an object
      [ex(undefined), chosen], // not captured
      [ex('db-primary-full', 'backup_jobs'), chosen], // another tool under that id
      [ex('db-primary-full'), { toolName: 'backup_status' }], // the call had no sole argument
      [ex('db-primary-full'), undefined], // no call with that id
      [ex('7'), { toolName: 'backup_status', soleArgument: { key: 'machine_id', value: '07' } }],
    ];
    for (const [e, c] of cases) expect(withSoleArgument(e, c)).toBe(e);
  });
});
