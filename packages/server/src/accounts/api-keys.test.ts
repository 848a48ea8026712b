import { describe, expect, it } from 'vitest';
import { EMBEDDED_KEY_PATTERN, generateApiKey, parseApiKey, redactKeys } from './api-keys.ts';

describe('api keys', () => {
  it('redacts keys and admin tokens wherever they stand in a text', () => {
    const key = generateApiKey('live');
    const url = `/api/v1/projects/x?api_key=${key}&t=pgs_admin_abc123`;
    const redacted = redactKeys(url);
    expect(redacted).toBe('/api/v1/projects/x?api_key=pgs_live_[redacted]&t=pgs_admin_[redacted]');
    expect(redacted).not.toContain(key.slice(9));
  });

  it('recognises its own keys, in isolation and embedded', () => {
    const key = generateApiKey('test');
    expect(parseApiKey(key)).toEqual({ mode: 'test' });
    expect(parseApiKey(`${key} `)).toBeUndefined();
    expect(EMBEDDED_KEY_PATTERN.test(`{"note":"${key}"}`)).toBe(true);
    expect(EMBEDDED_KEY_PATTERN.test('pgs_test_short')).toBe(false);
  });
});
