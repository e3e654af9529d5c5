// The conversation codec: a state with every field set survives encode/decode (bigints, bytes,
// undefined results included), the pending choice is not stored, another version or a malformed
// snapshot decodes to undefined, and a field added to ConversationState without the codec fails.
import { ValueMemo } from '../../src/values/served.js';
import { describe, expect, it } from 'vitest';
import { CODEC_FIELDS, CODEC_VERSION, decodeConversation, encodeConversation } from '../../src/state/conversation-codec.js';
import { servedKey, type ConversationState } from '../../src/runs/conversations.js';
import { ConversationStore } from '../../src/runs/conversations.js';
import { ServedHistory } from '../../src/runs/served-history.js';
import { resolveLimits } from '../../src/limits.js';

function fullState(): Required<ConversationState> {
  const served = ServedHistory.of(
    [
      { source: 'tool-result', message: 2, text: 'nightly-db-primary-full, hourly-db-primary-wal', request: 1, callId: 'call_1', toolName: 'backup_jobs' },
      { source: 'user', message: 1, text: 'x'.repeat(400), request: 2 },
    ],
    servedKey,
  );
  return {
    key: 'acme\u0000conv\u0000conv-1',
    requests: 2,
    requestIds: [4_503_599_627_370_495, 17],
    served,
    resultTools: new Set(['backup_jobs', 'list_machines']),
    chosen: new Map([
      ['call_1', { request: 1, toolName: 'backup_jobs' }],
      ['call_2', { request: 2, toolName: 'backup_status' }],
      // OpenInference records this one-argument call's execution input as the bare value: the sole
      // argument must survive the store, or the finding names `args` after hydration.
      ['call_3', { request: 2, toolName: 'backup_status', soleArgument: { key: 'machine_id', value: 'srv-db-04' } }],
      ['call_4', { request: 2, toolName: 'retry_count', soleArgument: { key: 'n', value: 3 } }],
    ]),
    ledger: [
      {
        span: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) },
        traceId: 'a'.repeat(32),
        request: 1,
        toolName: 'backup_jobs',
        callId: 'call_1',
        arguments: { machine: 'db-primary', deep: [1, { n: null }] },
        result: [{ job: 'nightly-db-primary-full', bytes: new Uint8Array([1, 2, 250]) }],
        outcome: 'ran',
        reading: { emptiness: 'non-empty', rows: 1, shape: 'array', objectRows: [{ job: 'nightly-db-primary-full' }] },
        startTimeUnixNano: 1_764_000_000_123_456_789n,
        source: 'span',
      },
      {
        span: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16) },
        traceId: 'c'.repeat(32),
        toolName: 'backup_status',
        arguments: { machine: 'db-primary-full' },
        result: undefined,
        outcome: 'unknown',
        errorMessage: 'timeout',
        reading: { emptiness: 'unknown', shape: 'none' },
        startTimeUnixNano: 1_764_000_001_000_000_000n,
        source: 'window',
      },
    ],
    pendingChoice: {
      request: 2,
      span: { traceId: 'c'.repeat(32), spanId: 'e'.repeat(16) },
      frame: { served: [], written: [] } as unknown as NonNullable<ConversationState['pendingChoice']>['frame'],
      toolCalls: [],
      earlierServed: () => [],
      idsMatchedByOrder: false,
      bytes: 500,
    },
    bytes: 4500,
    incomplete: true,
    valueMemo: new ValueMemo(),
    memoBytes: 0,
  };
}

/** A state with its served history as records (the history's stores hold bytes past their use). */
const plain = (s: Omit<ConversationState, 'pendingChoice'>) => {
  const { valueMemo: _memo, memoBytes: _memoBytes, ...rest } = s;
  return { ...rest, served: s.served.all() };
};

describe('conversation codec', () => {
  it('names every ConversationState field (a field added without the codec fails here)', () => {
    expect(Object.keys(fullState()).sort()).toEqual(Object.keys(CODEC_FIELDS).sort());
  });

  it('round-trips every stored field; the pending choice and its bytes are not stored', () => {
    const s = fullState();
    const text = encodeConversation(s);
    expect(JSON.parse(text).v).toBe(CODEC_VERSION);
    const back = decodeConversation(text);
    expect(back).toBeDefined();
    const { pendingChoice, ...rest } = s;
    expect(plain(back!)).toEqual(plain({ ...rest, bytes: s.bytes - pendingChoice.bytes }));
    expect(back!.served.bytes).toBe(s.served.bytes);
    expect(back!.ledger[0]!.startTimeUnixNano).toBe(1_764_000_000_123_456_789n);
    expect((back!.ledger[0]!.result as { bytes: Uint8Array }[])[0]!.bytes).toEqual(new Uint8Array([1, 2, 250]));
    expect('result' in back!.ledger[1]!).toBe(false);
    expect(back!.pendingChoice).toBeUndefined();
    for (const [field, how] of Object.entries(CODEC_FIELDS)) {
      if (how === 'not-stored') expect(back).not.toHaveProperty(field);
      else expect(back).toHaveProperty(field);
    }
  });

  it('round-trips a state the real ConversationStore built', () => {
    const store = new ConversationStore(resolveLimits({}), () => 0);
    const st = store.get('t\u0000trace\u0000' + 'f'.repeat(32));
    store.recordServed(st, 1, [{ source: 'user', message: 0, text: 'hello' }], ['lookup']);
    store.recordChosen(st, 1, [{ id: 'c1', name: 'lookup' }]);
    st.requests = 1;
    store.recordRequestId(st, `${'f'.repeat(32)}/${'a'.repeat(16)}`);
    const back = decodeConversation(encodeConversation(st))!;
    expect(plain(back)).toEqual(plain(st));
    expect(back.bytes).toBe(st.bytes);
  });

  it('refuses another version, a malformed snapshot and plain garbage', () => {
    const text = encodeConversation(fullState());
    expect(decodeConversation(text.replace(`"v":${CODEC_VERSION}`, `"v":${CODEC_VERSION + 1}`))).toBeUndefined();
    expect(decodeConversation(JSON.stringify({ ...JSON.parse(text), r: 'two' }))).toBeUndefined();
    expect(decodeConversation('not json {')).toBeUndefined();
    expect(decodeConversation('null')).toBeUndefined();
    // Every counted request has its identity (else a merge could not be exact).
    expect(decodeConversation(JSON.stringify({ ...JSON.parse(text), q: [1] }))).toBeUndefined();
    // A ledger row missing a field the checks read is malformed: the whole snapshot is refused.
    const rows = JSON.parse(text) as { l: Record<string, unknown>[] };
    delete rows.l[0]!.reading;
    expect(decodeConversation(JSON.stringify(rows))).toBeUndefined();
    expect(decodeConversation(JSON.stringify({ ...JSON.parse(text), l: [{ ...JSON.parse(text).l[0], outcome: 'exploded' }] }))).toBeUndefined();
  });
});
