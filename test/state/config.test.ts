// The `state` setting: memory by default; a Valkey/Redis URL from the file, FOOTPRINT_STATE or
// --state (flag over env over file); anything else refused with one line that hides a password.
import { describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../../src/service/config.js';
import { storeKey } from '../../src/state/store.js';
import { conversationKey } from '../../src/runs/conversations.js';

describe('state setting', () => {
  it('defaults to memory', () => {
    const r = loadServiceConfig({});
    expect(r.ok && r.config.state).toEqual({ kind: 'memory' });
  });
  it('takes a URL from the file, env over file, flag over env', () => {
    const file = loadServiceConfig({ document: { state: 'valkey://store:6379' } });
    expect(file.ok && file.config.state).toEqual({ kind: 'valkey', url: 'valkey://store:6379' });
    const env = loadServiceConfig({ document: { state: 'valkey://store:6379' }, env: { FOOTPRINT_STATE: 'rediss://cache.example:6380/2' } });
    expect(env.ok && env.config.state).toEqual({ kind: 'valkey', url: 'rediss://cache.example:6380/2' });
    const flag = loadServiceConfig({ env: { FOOTPRINT_STATE: 'redis://a:6379' }, overrides: { state: 'memory' } });
    expect(flag.ok && flag.config.state).toEqual({ kind: 'memory' });
  });
  it('refuses anything else, without echoing a password', () => {
    const r = loadServiceConfig({ env: { FOOTPRINT_STATE: 'http://user:hunter2@store:6379' } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.join('\n')).toMatch(/state: .* must be memory or a redis:\/\//);
      expect(r.errors.join('\n')).not.toContain('hunter2');
    }
    expect(loadServiceConfig({ document: { state: 'redis://' } }).ok).toBe(false);
  });
});

describe('store keys', () => {
  it('are tenant-scoped, one hash slot each, and no tenant or id can forge another key', () => {
    const k = storeKey(conversationKey('shop', 'c1', 'f'.repeat(32)));
    expect(k).toBe('fp:{shop:c:c1}');
    expect(storeKey(conversationKey('shop:c', 'x', 't'))).not.toBe(storeKey(conversationKey('shop', 'c:x', 't')));
    expect(storeKey(conversationKey('a}b', '{c}', 't'))).toBe('fp:{a%7Db:c:%7Bc%7D}');
    expect(storeKey(conversationKey('shop', undefined, 'ab'.repeat(16)))).toBe(`fp:{shop:t:${'ab'.repeat(16)}}`);
  });
});
