// Unit tests for the attribution tie-break of `refusal-asserts-absence` (absence-reads.ts
// `attributeClause`): when an absence clause scores the same against two reads, the read whose
// tool-name nouns the clause shares (what was read) beats the one it matches only through
// argument words (whose it is). Real ledger rows, built the way the runs build them; never
// touches the network or the clock.

import { describe, it, expect } from 'vitest';
import { refusalAssertsAbsence } from '../../src/checks/refusal-asserts-absence.js';
import { absenceClauses } from '../../src/checks/absence-clauses.js';
import { attributeClause, readWords, toolNouns, turnReads } from '../../src/checks/absence-reads.js';
import { ledgerRowOf } from '../../src/runs/ledger-row.js';
import type { ToolExecution } from '../../src/model/agent.js';
import type { LedgerRow } from '../../src/model/ledger.js';

const traceId = '4d2a7c9e1b3f5a7c9e1b3f5a7c9e1b3f';
const span = { traceId, spanId: 'b1c2d3e4f5a60718' };
let seq = 0;

function exec(toolName: string, args: unknown, result: unknown): LedgerRow {
  seq++;
  const e: ToolExecution = {
    kind: 'tool-execution',
    span: { traceId, spanId: `00000000000001${String(seq).padStart(2, '0')}` },
    convention: 'genai-semconv',
    tenant: 'acme',
    callId: `call_${toolName}_${seq}`,
    toolName,
    arguments: args,
    result: typeof result === 'string' ? result : JSON.stringify(result),
    status: 'ok',
    startTimeUnixNano: BigInt(seq),
    endTimeUnixNano: BigInt(seq + 1),
  };
  return ledgerRowOf(e, undefined, seq);
}

// A public library: the member is looked up by name, then their overdue loans are read.
const member = () => exec('find_member', { query: 'Jonas Berg' }, [{ member_id: 'M-3117', name: 'Jonas Berg', branch: 'Eastside' }]);
const loansDenied = () => exec('overdue_loans', { member_id: 'M-3117' }, { error: { code: 403, message: 'Forbidden: token lacks scope circulation:read' } });

function check(answerText: string, rows: LedgerRow[]) {
  return refusalAssertsAbsence({ span, answerText, rows, quotedValueChars: 64 });
}

describe('unit: a tie between "whose" and "what" goes to the read the clause names', () => {
  it('the clause scores the same against both reads (person 2+2, tool nouns 2+2)', () => {
    const reads = turnReads([member(), loansDenied()]);
    const [clause] = absenceClauses('Jonas Berg has no overdue loans right now.');
    const score = (i: number) => clause!.words.reduce((s, w) => s + (readWords(reads[i]!.row).get(w) ?? 0), 0);
    expect(score(0)).toBe(4);
    expect(score(1)).toBe(4);
    const about = attributeClause(clause!, reads, (r) => readWords(r.row));
    expect(about.reads.map((r) => r.row.toolName)).toEqual(['overdue_loans']);
    expect(about.shared.sort()).toEqual(['loan', 'overdue']);
  });

  it('the refused read the clause names is blamed although the person lookup ran', () => {
    const out = check('Jonas Berg has no overdue loans right now, so he can borrow again.', [member(), loansDenied()]);
    expect(out.findings.map((f) => f.toolName)).toEqual(['overdue_loans']);
    expect(out.tally).toMatchObject({ checked: 1, findings: 1 });
  });

  it('control: the same answer after a read that ran and returned [] is a pass', () => {
    const out = check('Jonas Berg has no overdue loans right now, so he can borrow again.', [member(), exec('overdue_loans', { member_id: 'M-3117' }, [])]);
    expect(out.findings).toEqual([]);
  });

  it('a tie where no read shares a tool noun stands: both count, and the lookup that ran shields the absence', () => {
    const a = exec('find_member', { query: 'Jonas Berg' }, [{ member_id: 'M-3117' }]);
    const b = exec('find_member', { query: 'Jonas Berg', branch: 'Eastside' }, { error: { code: 403, message: 'Forbidden' } });
    const reads = turnReads([a, b]);
    const [clause] = absenceClauses('Jonas Berg has no fines.');
    const about = attributeClause(clause!, reads, (r) => readWords(r.row));
    expect(about.reads.map((r) => r.row.toolName)).toEqual(['find_member', 'find_member']);
    expect(check('Jonas Berg has no fines.', [a, b]).findings).toEqual([]);
  });

  it('a tie where every read shares a tool noun stands too', () => {
    const ran = exec('overdue_loans', { member_id: 'M-3117' }, []);
    const refused = exec('overdue_fines', { member_id: 'M-3117' }, 'Access denied');
    const reads = turnReads([ran, refused]);
    const [clause] = absenceClauses('There is nothing overdue for M-3117.');
    const about = attributeClause(clause!, reads, (r) => readWords(r.row));
    expect(about.reads.map((r) => r.row.toolName)).toEqual(['overdue_loans', 'overdue_fines']);
  });

  it('tool nouns leave out action words and split camelCase', () => {
    expect(toolNouns('get_overdueLoans')).toEqual(['overdue', 'loan']);
    expect(toolNouns('find_member')).toEqual(['member']);
  });
});
