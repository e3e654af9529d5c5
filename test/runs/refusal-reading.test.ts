// Pins what counts as a refusal, a failure or a not-found in a tool's result (issue 9 §3), through
// the one result reader and the ledger row: error envelopes (error-type keys, no entity data),
// HTTP-style 401/403/407/429/5xx, GraphQL data:null with errors[], ok/success false, text that
// begins like "403 Forbidden" or "timed out"; and what is not: `status: "failed"` beside entity
// fields (data), a not-found (an absence of the call's values, never a refusal), and the shape a
// tool declares with `errorShape` when it fits none of these. Results are shaped like real APIs'.
import { describe, it, expect } from 'vitest';
import { readToolResult } from '../../src/runs/result-reader.js';
import { ledgerRowOf } from '../../src/runs/ledger-row.js';
import { textVerdict } from '../../src/runs/refusal-reading.js';
import { validateDeclarations } from '../../src/declarations/schema.js';
import type { ToolExecution } from '../../src/model/agent.js';

const span = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

function execution(over: Partial<ToolExecution> = {}): ToolExecution {
  return {
    kind: 'tool-execution',
    span,
    convention: 'genai-semconv',
    tenant: 'acme',
    callId: 'call_os_001',
    toolName: 'get_order',
    arguments: { order_id: 'A-1742' },
    result: '{"order_id":"A-1742","status":"shipped"}',
    status: 'ok',
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    ...over,
  };
}

describe('unit: refusals and failures a result states (issue 9 §3)', () => {
  it('error envelopes of real APIs: Google, Stripe, FastAPI, Slack, GitHub', () => {
    expect(readToolResult({ error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } }).refusal).toBe('error: The caller does not have permission');
    expect(readToolResult({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_live_****' } }).refusal).toBe('error: Invalid API Key provided: sk_live_****');
    expect(readToolResult({ detail: 'Not authenticated' }).refusal).toBe('message: Not authenticated');
    expect(readToolResult({ ok: false, error: 'not_authed' }).refusal).toBe('error: not_authed');
    expect(readToolResult({ message: 'API rate limit exceeded for 10.0.0.7.', documentation_url: 'https://docs.github.com/rest' }).refusal).toBe('message: API rate limit exceeded for 10.0.0.7.');
  });

  it('HTTP-style status, code or statusCode 401, 403, 407, 429 and 5xx, as numbers or strings', () => {
    for (const [key, code] of [['status', 401], ['statusCode', 403], ['code', 407], ['status', '429'], ['statusCode', 502], ['status_code', 503]] as const) {
      expect(readToolResult({ [key]: code, body: 'upstream said no' }).refusal, `${key} ${code}`).toMatch(new RegExp(`${code}`));
    }
    expect(readToolResult({ status: 200, body: 'fine' }).refusal).toBeUndefined();
  });

  it('GraphQL data null with errors[] is a refusal; partial data beside errors is data', () => {
    expect(readToolResult({ data: null, errors: [{ message: 'Not authorized to access Repository.vulnerabilityAlerts', path: ['repository'] }] }).refusal).toBe(
      'data null with errors: Not authorized to access Repository.vulnerabilityAlerts',
    );
    expect(readToolResult({ data: { repository: { name: 'api' } }, errors: [{ message: 'field deprecated' }] }).refusal).toBeUndefined();
  });

  it('ok: false and success: false without entity data', () => {
    expect(readToolResult({ success: false, message: 'Upstream inventory service unavailable' }).refusal).toBe('success: false: Upstream inventory service unavailable');
    expect(readToolResult({ ok: false }).refusal).toBe('ok: false');
  });

  it('text that begins like 403 Forbidden, Access denied, Permission denied, Unauthorized, rate limit, timed out', () => {
    for (const t of [
      '403 Forbidden',
      'HTTP 401 Unauthorized: token expired',
      'Access denied for tenant acme',
      'Permission denied: history is restricted',
      'Unauthorized',
      'Rate limit exceeded, retry in 30s',
      'Request timed out after 30000 ms',
      'The request timed out.',
      'Error: upstream returned 500',
    ]) {
      expect(readToolResult(t).refusal, t).toBe(t);
    }
  });

  it('not a refusal: status "failed" beside entity fields is data (a job that failed)', () => {
    const job = { job: 'nightly-db-full', machine_id: 'srv-db-04', status: 'failed', finished_at: '2026-11-30T02:14:00Z' };
    const r = readToolResult(job);
    expect(r.refusal).toBeUndefined();
    const row = ledgerRowOf(execution({ toolName: 'backup_status', arguments: { machine_id: 'srv-db-04' }, result: JSON.stringify(job) }), undefined);
    expect(row.outcome).toBe('ran');
    // A health probe whose row says a service answers 503 is data, too.
    expect(readToolResult({ service: 'checkout-api', status: 503, latency_ms: 12 }).refusal).toBeUndefined();
  });

  it('prose that mentions an error later is not a refusal', () => {
    expect(textVerdict('All 4 jobs succeeded; the last error was three weeks ago (timed out).')).toBeUndefined();
    expect(textVerdict('Found 3 jobs; 1 file not found on tape')).toBeUndefined();
  });
});

describe('unit: a not-found is an absence of the call\'s values, never a refusal (issue 9 §3)', () => {
  it('404, not_found and "order not found" read as a declared absence with the call\'s values as looked_for', () => {
    const args = { order_id: 'A-1742' };
    for (const result of [
      { status: 404, message: 'Order A-1742 not found' },
      { error: { code: 404, status: 'NOT_FOUND', message: 'Requested entity was not found.' } },
      { error: 'order_not_found' },
      { order_id: 'A-1742', error: 'not found' },
      'Order A-1742 not found',
      'Error: No such order: A-1742',
      { data: null, errors: [{ message: 'Could not resolve to an Order.', extensions: { code: 'NOT_FOUND' } }] },
    ]) {
      const r = readToolResult(result, undefined, { arguments: args });
      expect(r.refusal, JSON.stringify(result)).toBeUndefined();
      expect(r.emptiness, JSON.stringify(result)).toBe('declared-absent');
      expect(r.absence?.lookedFor).toBe('order_id A-1742');
      expect(r.absence?.notFound).toBeDefined();
    }
  });

  it('a not-found with span status ERROR is a ran read with an absence, not a failed one', () => {
    const row = ledgerRowOf(execution({ status: 'error', errorMessage: 'HTTP 404', result: '{"status":404,"message":"Order A-1742 not found"}' }), undefined);
    expect(row.outcome).toBe('ran');
    expect(row.reading).toMatchObject({ emptiness: 'declared-absent', absence: { lookedFor: 'order_id A-1742', notFound: 'status 404: Order A-1742 not found' } });
  });

  it('a not-found only in the span\'s error, with the result not captured, is still an absence', () => {
    const row = ledgerRowOf(execution({ status: 'error', errorMessage: 'Order A-1742 not found', result: undefined }), undefined);
    expect(row.outcome).toBe('ran');
    expect(row.reading.absence?.lookedFor).toBe('order_id A-1742');
    // A span error that is not a not-found stays a failure.
    expect(ledgerRowOf(execution({ status: 'error', errorMessage: 'socket hang up', result: undefined }), undefined).outcome).toBe('failed');
  });

  it('a 403 page that also says "not found" is a refusal (the refusal is read first)', () => {
    expect(readToolResult('403 Forbidden: resource not found or not yours').refusal).toBe('403 Forbidden: resource not found or not yours');
  });
});

describe('unit: a declared error shape (errorShape)', () => {
  const ERP = { field: 'resp.rc', refused: ['E-AUTH', 12], notFound: ['E-NOREC'], message: 'resp.msg' };

  it('a field path with refused and notFound values decides the reading', () => {
    const refused = readToolResult({ resp: { rc: 'e-auth', msg: 'session expired' }, part: 'PX-1' }, { errorShape: ERP });
    expect(refused.refusal).toBe('resp.rc "e-auth": session expired');
    expect(readToolResult({ resp: { rc: 12 } }, { errorShape: ERP }).refusal).toBe('resp.rc 12');
    const missing = readToolResult({ resp: { rc: 'E-NOREC', msg: 'no part PX-9' } }, { errorShape: ERP }, { arguments: { part: 'PX-9' } });
    expect(missing).toMatchObject({ emptiness: 'declared-absent', absence: { lookedFor: 'part PX-9', notFound: 'resp.rc "E-NOREC": no part PX-9' } });
    // Without the declaration the same results are plain data.
    expect(readToolResult({ resp: { rc: 'E-AUTH', msg: 'session expired' }, part: 'PX-1' }).refusal).toBeUndefined();
    expect(readToolResult({ resp: { rc: 'OK' }, part: 'PX-1' }, { errorShape: ERP }).refusal).toBeUndefined();
  });

  it('no field: text prefixes', () => {
    const shape = { refused: ['%SYS-E-NOPRIV'], notFound: ['%RMS-E-FNF'] };
    expect(readToolResult('%SYS-E-NOPRIV, insufficient privilege', { errorShape: shape }).refusal).toBe('%SYS-E-NOPRIV, insufficient privilege');
    expect(readToolResult('%RMS-E-FNF, file not found', { errorShape: shape }, { arguments: { file: 'BACKUP.LOG' } }).absence?.lookedFor).toBe('file BACKUP.LOG');
  });

  it('is validated with zod: unknown keys with a suggestion, empty lists, a value meaning both, message without field', () => {
    const bad = (errorShape: unknown) => {
      const r = validateDeclarations({ tools: { erp_part: { readOnly: true, errorShape } } });
      return r.ok ? [] : r.errors;
    };
    expect(bad(ERP)).toEqual([]);
    expect(bad({ feild: 'rc', refused: ['X'] }).join('\n')).toMatch(/feild: unknown key \(did you mean "field"\?\)/);
    expect(bad({ field: 'rc' }).join('\n')).toMatch(/must list refused or notFound values/);
    expect(bad({ field: 'rc', refused: [] }).join('\n')).toMatch(/at least one value/);
    expect(bad({ field: 'rc', refused: ['X'], notFound: ['x'] }).join('\n')).toMatch(/both refused and notFound/);
    expect(bad({ refused: ['X'], message: 'msg' }).join('\n')).toMatch(/message needs a field/);
    expect(bad({ field: 'a..b', refused: ['X'] }).join('\n')).toMatch(/dotted path/);
  });
});
