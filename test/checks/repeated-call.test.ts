// Pins check `repeated-call` (advisory): the same tool with the same arguments (keys sorted, a JSON
// string read as its value) chosen again in a turn after the earlier call's result was served and
// nothing between could have changed it is one advisory finding naming the earlier call; the
// fences (a transient failure retried, polling, a user asking again, a write or an unknown call
// naming the same thing in between, a declared read in between does not count, no served result
// yet, other arguments) stay silent.
import { describe, it, expect } from 'vitest';
import { repeatedCalls, REPEAT_CEILING, type TurnCall, type RepeatedCallInput } from '../../src/checks/repeated-call.js';
import type { ToolCall } from '../../src/model/agent.js';

const span = { traceId: '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d', spanId: '1a2b3c4d5e6f7a8b' };
const ARGS = { patient_id: 'P-30418', slot_id: 'SL-DR02-0900', visit_type: 'follow_up' };

const done = (over: Partial<TurnCall> = {}): TurnCall => ({ toolName: 'book_appointment', callId: 'call_1', arguments: ARGS, message: 2, result: 'Error: slot SL-DR02-0900 is no longer free', ending: 'refused', said: 'Error: slot SL-DR02-0900 is no longer free', ...over });
const again = (over: Partial<ToolCall> = {}): ToolCall => ({ id: 'call_2', name: 'book_appointment', arguments: JSON.stringify({ visit_type: 'follow_up', slot_id: 'SL-DR02-0900', patient_id: 'P-30418' }), ...over });

function run(turnCalls: TurnCall[], toolCalls: ToolCall[] = [again()], over: Partial<RepeatedCallInput> = {}) {
  return repeatedCalls({ span, toolCalls, turnCalls, readOnlyOf: () => undefined, quotedValueChars: 64, ...over });
}

describe('repeated-call: repeats that add nothing', () => {
  it('a failed write sent again with the same arguments (keys in another order, as a JSON string) is one advisory finding', () => {
    const out = run([done()]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 1 });
    const f = out.findings[0]!;
    expect(f).toMatchObject({ kind: 'repeated-call', seam: 'choice', advisory: true, toolName: 'book_appointment', toolCallId: 'call_2', armedBy: 'inferred' });
    expect(f.message).toContain("as call call_1 earlier this turn, which failed (\"Error: slot SL-DR02-0900 is no longer free\")");
    expect(f.message).toContain('fails the same way again');
    expect(f.message).toContain(REPEAT_CEILING);
  });

  it('a read asked again while its answer is served is a finding, whatever a declared read between did', () => {
    const read = done({ toolName: 'list_invoices', arguments: { account_id: 'ACC-2208' }, result: [{ invoice_id: 'INV-7731' }], ending: 'ok', said: undefined });
    const other = done({ toolName: 'get_subscription', callId: 'call_x', arguments: { subscription_id: 'SUB-5120' }, result: { seats: 10 }, ending: 'ok', said: undefined });
    const out = run([read, other], [{ id: 'call_3', name: 'list_invoices', arguments: { account_id: 'ACC-2208' } }], { readOnlyOf: (n) => (n === 'get_subscription' ? true : undefined) });
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0]!.message).toContain("nothing called in between ('get_subscription') could have changed it: the answer is already in the window");
  });

  it('a loop is one finding: the first repeat; the third and later calls of it in the turn are the same loop', () => {
    const second = done({ callId: 'call_2', message: 4 });
    expect(run([done(), second], [again({ id: 'call_3' })]).findings).toEqual([]);
    expect(run([done()], [again()]).findings).toHaveLength(1);
  });

  it('a call between that shares no value with the repeat (a think step) changes nothing', () => {
    const think = done({ toolName: 'think', callId: 'call_t', arguments: { thought: 'The slot may be taken; try again.' }, result: '', ending: 'ok', said: undefined });
    expect(run([done(), think]).findings).toHaveLength(1);
  });
});

describe('repeated-call: fences', () => {
  it('a retry after a transient failure (timeout, 429, 503, "try again") is silent', () => {
    for (const said of ['504 Gateway Timeout', '429 Too Many Requests', 'upstream timed out after 30s', 'Service temporarily unavailable, try again']) {
      expect(run([done({ result: said, said, ending: 'failed' })]).findings, said).toEqual([]);
    }
  });

  it('polling: a result that says the work is running, or a status tool, is silent', () => {
    const job = done({ toolName: 'export_status', arguments: { job_id: 'EXP-5521' }, result: { job_id: 'EXP-5521', state: 'running' }, ending: 'ok', said: undefined });
    expect(run([job], [{ id: 'c', name: 'export_status', arguments: { job_id: 'EXP-5521' } }]).findings).toEqual([]);
    const health = done({ toolName: 'service_health', arguments: { service: 'api' }, result: { ok: true }, ending: 'ok', said: undefined });
    expect(run([health], [{ id: 'c', name: 'service_health', arguments: { service: 'api' } }]).findings).toEqual([]);
  });

  it('a user who asks to check again asks for the repeat', () => {
    expect(run([done()], [again()], { userMessage: 'Could you re-check whether the 09:00 slot is free now?' }).findings).toEqual([]);
  });

  it('a write between that names the same thing, a known write, or an unknown call with no arguments could have changed it', () => {
    const update = done({ toolName: 'update_slot_hold', callId: 'call_u', arguments: { slot_id: 'SL-DR02-0900' }, result: { ok: true }, ending: 'ok', said: undefined });
    expect(run([done(), update]).findings).toEqual([]);
    const write = done({ toolName: 'release_holds', callId: 'call_w', arguments: { clinic: 'riverside' }, result: { ok: true }, ending: 'ok', said: undefined });
    expect(run([done(), write], [again()], { readOnlyOf: (n) => (n === 'release_holds' ? false : undefined) }).findings).toEqual([]);
    const bare = done({ toolName: 'refresh_cache', callId: 'call_r', arguments: {}, result: 'ok', ending: 'ok', said: undefined });
    expect(run([done(), bare]).findings).toEqual([]);
  });

  it('a failed call between changes nothing', () => {
    const failedUpdate = done({ toolName: 'update_slot_hold', callId: 'call_u', arguments: { slot_id: 'SL-DR02-0900' }, result: 'Error: no hold', ending: 'refused', said: 'Error: no hold' });
    expect(run([done(), failedUpdate]).findings).toHaveLength(1);
  });

  it('no served result yet, other arguments, or arguments not recorded: no finding', () => {
    expect(run([done({ result: undefined, ending: 'unknown', said: undefined })]).findings).toEqual([]);
    expect(run([done()], [again({ arguments: { ...ARGS, slot_id: 'SL-DR02-0930' } })]).findings).toEqual([]);
    const out = run([done()], [again({ arguments: undefined })]);
    expect(out.findings).toEqual([]);
    expect(out.tally.unreachable).toBe(1);
  });
});
