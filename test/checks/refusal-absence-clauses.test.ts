// Pins issue 9 §2 for `refusal-asserts-absence` and the standing, on realistic answers over rows
// built by the real ledger-row reader: negated existence read per clause in each phrasing models
// use ("X has no …", "there aren't any …", "no … were found", "none were found", "I found no …",
// "doesn't have any …", "no active …", "zero …"); silence when the same clause admits the failure
// or negates the negation; each clause attributed to the read it is about, so an absence a
// successful empty read established is never blamed on a refused read; a later successful read
// (same tool, same arguments) supersedes a refusal or timeout; a not-found is an absence, never a
// refusal; a tool that is not a read never makes a refused read. The standing reads the same way.
import { describe, it, expect } from 'vitest';
import { refusalAssertsAbsence } from '../../src/checks/refusal-asserts-absence.js';
import { answerStanding } from '../../src/checks/answer-standing.js';
import { absenceClauses } from '../../src/checks/absence-clauses.js';
import { readToolTest } from '../../src/checks/absence-reads.js';
import { ledgerRowOf } from '../../src/runs/ledger-row.js';
import type { ToolExecution } from '../../src/model/agent.js';
import type { LedgerRow } from '../../src/model/ledger.js';
import type { ToolDeclaration } from '../../src/declarations/types.js';

const traceId = '9c1f3e7a2b4d6f80a1c3e5b7d9f1a3c5';
const span = { traceId, spanId: 'a1b2c3d4e5f60718' };
let seq = 0;

function exec(toolName: string, args: unknown, result: unknown, over: Partial<ToolExecution> = {}): LedgerRow {
  seq++;
  const e: ToolExecution = {
    kind: 'tool-execution',
    span: { traceId, spanId: `00000000000000${String(seq).padStart(2, '0')}` },
    convention: 'genai-semconv',
    tenant: 'acme',
    callId: `call_${toolName}_${seq}`,
    toolName,
    arguments: args,
    result: typeof result === 'string' ? result : JSON.stringify(result),
    status: 'ok',
    startTimeUnixNano: BigInt(seq),
    endTimeUnixNano: BigInt(seq + 1),
    ...over,
  };
  return ledgerRowOf(e, undefined, seq);
}

const DENIED = { status: 'denied', error: 'permission denied for tenant acme' };
const machines = () => exec('list_machines', { customer: 'acme' }, [{ machine_id: 'srv-db-04', hostname: 'db-primary' }, { machine_id: 'srv-web-11', hostname: 'web-edge' }]);

function check(answerText: string, rows: LedgerRow[], isRead?: (t: string) => boolean) {
  return refusalAssertsAbsence({ span, answerText, rows, quotedValueChars: 64, ...(isRead ? { isRead } : {}) });
}

describe('unit: each phrasing of absence fires on a refused read it is about', () => {
  const cases: [string, string, LedgerRow][] = [
    ['X has no …', 'srv-db-04 has no backup jobs.', exec('backup_jobs', { machine_id: 'srv-db-04' }, DENIED)],
    ["there aren't any …", "There aren't any restore points for srv-db-04 in November.", exec('restore_points', { machine_id: 'srv-db-04', month: '2026-11' }, '403 Forbidden')],
    ['no … were found', 'No open incidents were found for checkout-api.', exec('list_incidents', { service: 'checkout-api', state: 'open' }, { data: null, errors: [{ message: 'Not authorized to access Incident' }] })],
    ['none were found', 'I looked for snapshots of srv-db-04; none were found.', exec('list_snapshots', { machine_id: 'srv-db-04' }, 'Rate limit exceeded, retry in 30s')],
    ['I found no …', 'I found no failed logins for user jdoe this week.', exec('auth_events', { user: 'jdoe', outcome: 'failure' }, { statusCode: 401, message: 'token expired' })],
    ["doesn't have any …", "Order A-1742 doesn't have any refunds.", exec('order_refunds', { order_id: 'A-1742' }, { ok: false, error: 'not_authed' })],
    ['no active …', 'There are no active alerts on checkout-api right now.', exec('active_alerts', { service: 'checkout-api' }, 'Request timed out after 30000 ms')],
    ["there haven't been any …", "It looks like there haven't been any failed backups on srv-db-04.", exec('backup_history', { machine_id: 'srv-db-04' }, DENIED)],
    ['has not had any …', 'srv-db-04 has not had any failed backups since 2026-11-23.', exec('backup_history', { machine_id: 'srv-db-04', since: '2026-11-23' }, 'Access denied')],
    ['zero …', 'Zero open tickets are assigned to the SRE team.', exec('search_tickets', { team: 'SRE', status: 'open' }, { error: { code: 503, message: 'search backend unavailable' } })],
  ];
  for (const [name, answer, refused] of cases) {
    it(`${name}: "${answer}"`, () => {
      const out = check(answer, [machines(), refused]);
      expect(out.findings.map((f) => f.toolName)).toEqual([refused.toolName]);
      expect(out.tally).toMatchObject({ checked: 1, findings: 1 });
    });
  }
});

describe('unit: fences stay silent', () => {
  const refused = () => exec('backup_history', { machine_id: 'srv-db-04' }, DENIED);
  const silent: [string, string][] = [
    ['admits: couldn\'t access', "I couldn't access the backup history for srv-db-04, so there is no restore I can confirm."],
    ['admits: permission', 'There is no backup history I can show for srv-db-04: I lack permission to read it.'],
    ['admits: denied', 'There is no restore history I can report for srv-db-04: the request was denied.'],
    ['admits: unable to check', 'I was unable to check the backup history, so there are no restores I can list for srv-db-04.'],
    ['negates the negation', "No records of restores came back from the backup history of srv-db-04. That doesn't mean there are none."],
    ['a hedge in the same sentence', 'There is no restore I could see for srv-db-04, but there may still be some.'],
    ['a conditional', 'If there are no restores in the backup history, srv-db-04 is unprotected.'],
    ['a hedge: "may be due to"', 'There is no failed run in the backup history of srv-db-04, but that may be due to the error.'],
    ['a question', 'Could it be that there is no backup history for srv-db-04?'],
    ['control, no absence at all', 'The backup history of srv-db-04 shows 3 restores in November.'],
    ['control, "no more than"', 'Backup history for srv-db-04 keeps no more than 30 days.'],
  ];
  for (const [name, answer] of silent) {
    it(`${name}: "${answer}"`, () => {
      const out = check(answer, [machines(), refused()]);
      expect(out.findings).toEqual([]);
      expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
    });
  }

  it('an absence clause is still judged when only another clause admits the failure', () => {
    const incidents = exec('list_incidents', { service: 'srv-db-04', state: 'open' }, DENIED);
    const out = check("I found no open incidents for srv-db-04, but I couldn't access the audit log.", [incidents, exec('audit_log', { machine_id: 'srv-db-04' }, DENIED)]);
    expect(out.findings.map((f) => f.toolName)).toEqual(['list_incidents']);
  });
});

describe('unit: attribution to the read a clause is about', () => {
  it('an absence a successful empty read established is never blamed on another, refused read', () => {
    const incidents = exec('list_incidents', { service: 'srv-db-04', state: 'open' }, []);
    const audit = exec('audit_log', { machine_id: 'srv-db-04' }, DENIED);
    const out = check("There are no open incidents for srv-db-04. I couldn't read its audit log: permission was denied.", [incidents, audit]);
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ checked: 1, findings: 0 });
  });

  it('the same answer blames the refused read when the absence is about what it was asked', () => {
    const incidents = exec('list_incidents', { service: 'srv-db-04', state: 'open' }, []);
    const audit = exec('audit_log', { machine_id: 'srv-db-04' }, DENIED);
    const out = check('srv-db-04 has no open incidents and no audit log entries this week.', [incidents, audit]);
    // One clause, about both: one of them ran and found nothing, so it is not blamed on the refusal.
    expect(out.findings).toEqual([]);
    const out2 = check('srv-db-04 has no open incidents. There are no audit log entries for it.', [incidents, audit]);
    expect(out2.findings.map((f) => f.toolName)).toEqual(['audit_log']);
    expect(out2.findings[0]!.witnesses[0]!.provenance).toContain("about what 'audit_log' was asked");
  });

  it('a clause naming no read rests on a successful empty read when there is one, else on the refusals', () => {
    const empty = exec('backup_jobs', { machine_id: 'srv-db-04' }, []);
    const refused = exec('backup_history', { machine_id: 'srv-db-04' }, DENIED);
    expect(check('Nothing was found.', [empty, refused]).findings).toEqual([]);
    expect(check('Nothing was found.', [machines(), refused]).findings.map((f) => f.toolName)).toEqual(['backup_history']);
  });
});

describe('unit: what counts as a refused read', () => {
  it('a later successful read of the same tool with the same arguments supersedes a timeout', () => {
    const timeout = exec('backup_jobs', { machine_id: 'srv-db-04' }, 'Request timed out after 30000 ms', { status: 'error', errorMessage: 'timeout' });
    const retry = exec('backup_jobs', { machine_id: 'srv-db-04' }, []);
    const out = check('srv-db-04 has no backup jobs.', [timeout, retry]);
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ notApplicable: 1, checked: 0 });
    // Different arguments do not supersede it.
    const other = exec('backup_jobs', { machine_id: 'srv-web-11' }, []);
    expect(check('srv-db-04 has no backup jobs.', [timeout, other]).findings.map((f) => f.toolName)).toEqual(['backup_jobs']);
  });

  it('a not-found is an absence the tool established, never a refusal', () => {
    const notFound = exec('get_order', { order_id: 'A-1742' }, { status: 404, message: 'Order A-1742 not found' }, { status: 'error', errorMessage: 'HTTP 404' });
    const out = check('Order A-1742 does not exist.', [notFound]);
    expect(out.findings).toEqual([]);
    expect(out.tally).toMatchObject({ notApplicable: 1 });
  });

  it('status "failed" beside entity fields is data, not a refusal', () => {
    const job = exec('backup_status', { machine_id: 'srv-db-04' }, { machine_id: 'srv-db-04', job: 'nightly-full', status: 'failed', finished_at: '2026-11-30T02:14:00Z' });
    expect(check('There is no successful backup for srv-db-04.', [job]).tally).toMatchObject({ notApplicable: 1, findings: 0 });
  });

  it('a tool that is not a read (not readOnly, no argumentsFrom producer) never makes a refused read', () => {
    const decls: Record<string, ToolDeclaration> = {
      restart_service: { argumentsFrom: ['list_machines'] },
      list_machines: {},
      backup_jobs: { readOnly: true },
    };
    const isRead = readToolTest((t) => decls[t], Object.values(decls));
    expect([isRead('restart_service'), isRead('list_machines'), isRead('backup_jobs')]).toEqual([false, true, true]);
    const restart = exec('restart_service', { machine_id: 'srv-db-04' }, DENIED);
    expect(check('srv-db-04 has no running services to restart.', [restart], isRead).tally).toMatchObject({ notApplicable: 1 });
    const lm = exec('list_machines', { customer: 'acme' }, DENIED);
    expect(check('There are no machines for customer acme.', [lm], isRead).findings.map((f) => f.toolName)).toEqual(['list_machines']);
  });
});

describe('unit: the standing reads refusals the same way', () => {
  it('a superseded timeout, a not-found and a non-read give no refused-read reason (the refused non-read is refused-write)', () => {
    const timeout = exec('backup_jobs', { machine_id: 'srv-db-04' }, 'Request timed out after 30000 ms', { status: 'error', errorMessage: 'timeout' });
    const retry = exec('backup_jobs', { machine_id: 'srv-db-04' }, [{ job: 'nightly-full', status: 'ok' }]);
    const notFound = exec('get_order', { order_id: 'A-1742' }, 'Order A-1742 not found');
    const restart = exec('restart_service', { machine_id: 'srv-db-04' }, DENIED);
    const isRead = (t: string) => t !== 'restart_service';
    const s = answerStanding({ rows: [timeout, retry, notFound, restart], answerFindings: [], checksRan: 1, isRead });
    // A refused call counts whatever was declared: the known write's refusal is its own reason.
    expect(s.reasons).toEqual(['declared-absent', 'refused-write']);
    expect(s.statement).toContain(`ran, so this failure no longer counts`);
    expect(s.statement).toContain(`found nothing for "order_id A-1742", as the tool's result says ("Order A-1742 not found")`);
    // Without the retry the timeout counts.
    expect(answerStanding({ rows: [timeout], answerFindings: [], checksRan: 1 }).reasons).toEqual(['refused-read']);
  });
});

describe('unit: the clause reader', () => {
  it('reads each clause and what it is about', () => {
    expect(absenceClauses('There is no backup record for srv-db-04.').map((c) => [c.said, c.words])).toEqual([['There is no backup record', ['backup', 'srv-db-04']]]);
    expect(absenceClauses('- srv-db-04: no snapshots\n- srv-web-11: 2 snapshots').map((c) => c.said)).toEqual(['no snapshots']);
    expect(absenceClauses('No, srv-db-04 is no longer protected.')).toEqual([]);
    expect(absenceClauses('Both jobs are OK (agent v1.2).')).toEqual([]);
  });
});

describe('bounds: the clause reader never runs away on hostile text', () => {
  it('long words, long runs of "no" and many clauses stay bounded', () => {
    // A reader that ran away (catastrophic backtracking) would time this test out; no clock here.
    for (const s of ['there is no ' + 'a'.repeat(30_000), ' no'.repeat(10_000), 'if no x. '.repeat(3_000), 'I found no srv-db-04. '.repeat(3_000)]) {
      expect(absenceClauses(s).length).toBeLessThanOrEqual(400);
    }
  });
});

describe('unit: an admission about the same read, in the same or the next sentence', () => {
  const incidents = () => exec('list_incidents', { service: 'payments-api' }, { status: 429, message: 'Too Many Requests' });
  const runbook = () => exec('get_runbook', { service: 'payments-api' }, '403 Forbidden');
  it('silences the absence when it names the same read', () => {
    expect(check('I found no open incidents for payments-api, but the incident lookup returned an error.', [incidents(), runbook()]).findings).toEqual([]);
    expect(check('There are no open incidents on payments-api. The incident search hit a rate limit, though.', [incidents(), runbook()]).findings).toEqual([]);
    expect(check('I found no open incidents for payments-api, but I got an error back.', [incidents()]).findings).toEqual([]);
  });
  it('does not silence it when it names another read, or comes two sentences later', () => {
    expect(check("I found no open incidents for payments-api, but I couldn't access its runbook.", [incidents(), runbook()]).findings.map((f) => f.toolName)).toEqual(['list_incidents']);
    expect(check('There are no open incidents on payments-api. Its runbook is attached. The incident search hit a rate limit.', [incidents(), runbook()]).findings.map((f) => f.toolName)).toEqual(['list_incidents']);
  });
});

describe('unit: absence, admission and hedge in the other languages agents answer in', () => {
  it.each([
    ['de', 'Im Dezember gab es auf Ihrem Girokonto keine Lastschriften der Telekom.'],
    ['de', 'Die Bestellung wurde nicht gefunden.'],
    ['fr', "Il n'y a aucune commande en cours pour ce client."],
    ['es', 'No hay facturas pendientes en su cuenta.'],
    ['pt', 'Não há reservas ativas para este cliente.'],
    ['it', 'Non ci sono ordini aperti per questo cliente.'],
    ['nl', 'Er zijn geen openstaande facturen.'],
  ])('%s absence: "%s"', (_lang, answer) => expect(absenceClauses(answer)).toHaveLength(1));

  it.each([
    ['de admission', 'Ich konnte die Buchungen nicht abrufen: Zugriff verweigert, daher kann ich keine Lastschriften nennen.'],
    ['fr admission', "Je n'ai pas pu consulter les commandes (accès refusé), donc je ne peux dire s'il n'y a aucune commande."],
    ['es hedge', 'Eso no significa que no haya facturas.'],
  ])('%s asserts nothing: "%s"', (_name, answer) => expect(absenceClauses(answer)).toEqual([]));
});

describe('unit: the other languages\' idioms and suppositions are no absence', () => {
  it.each([
    'Kein Problem, ich sehe gleich nach.',
    'Falls es keine Buchungen gibt, sage ich Bescheid.',
    'Pas de souci, je vérifie.',
    'No hay problema.',
    'Geen probleem, ik kijk het na.',
  ])('"%s"', (answer) => expect(absenceClauses(answer)).toEqual([]));
});
