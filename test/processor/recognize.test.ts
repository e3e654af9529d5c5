// The processor's pre-copy key test must let through every span a convention reader claims.
import { describe, expect, it } from 'vitest';
import { isAgentSpan } from '../../src/conventions/registry.js';
import { looksLikeAgentSpan, looksLikeGenAiLog } from '../../src/processor/recognize.js';
import { LIBRARIES, SCENARIOS, loadFixture } from '../helpers/fixtures.js';

describe('looksLikeAgentSpan', () => {
  for (const lib of LIBRARIES) {
    for (const scenario of SCENARIOS) {
      it(`is a superset of isAgentSpan over ${lib}/${scenario}`, () => {
        const { doc } = loadFixture(lib, scenario);
        expect(doc.spans.length).toBeGreaterThan(0);
        for (const { span } of doc.spans) {
          if (isAgentSpan(span)) expect(looksLikeAgentSpan(span.attributes, span.scope.name), span.name).toBe(true);
        }
      });
    }
  }

  it('lets ordinary spans go', () => {
    expect(looksLikeAgentSpan({ 'http.route': '/x', 'http.method': 'GET' }, '@opentelemetry/instrumentation-http')).toBe(false);
    expect(looksLikeAgentSpan(undefined, undefined)).toBe(false);
  });

  it('recognises GenAI log records by event name, event.name attribute or content attributes', () => {
    expect(looksLikeGenAiLog('gen_ai.client.inference.operation.details', {})).toBe(true);
    expect(looksLikeGenAiLog(undefined, { 'event.name': 'gen_ai.choice' })).toBe(true);
    expect(looksLikeGenAiLog(undefined, { 'gen_ai.input.messages': '[]' })).toBe(true);
    expect(looksLikeGenAiLog('app.audit', { 'event.name': 'login' })).toBe(false);
  });

  it('every log record the contrib instrumentation recorded is recognised', () => {
    const { doc } = loadFixture('otel-instrumentation-openai', 'backup-triage');
    expect(doc.logs.length).toBeGreaterThan(0);
    for (const l of doc.logs) expect(looksLikeGenAiLog(l.eventName, l.attributes)).toBe(true);
    const r = loadFixture('otel-instrumentation-openai-responses', 'backup-triage');
    for (const l of r.doc.logs) expect(looksLikeGenAiLog(l.eventName, l.attributes)).toBe(true);
  });
});
