import { describe, expect, it } from 'vitest';
import { generateAdminToken, generateApiKey, redactKeys, urlCarriesKey } from './api-keys.ts';

/** Every byte of a text as a percent escape. */
const encodeAll = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe('keys in any encoding (issue 22, finding 1)', () => {
  const key = generateApiKey('test');
  const secret = key.slice('pgs_test_'.length);
  const admin = generateAdminToken();
  const forms: Array<[string, string]> = [
    ['plain', key],
    ['underscores encoded', key.replaceAll('_', '%5F')],
    ['lower-case escapes', key.replaceAll('_', '%5f')],
    ['the first secret character encoded', `pgs_test_${encodeAll(secret[0]!)}${secret.slice(1)}`],
    ['every character encoded', encodeAll(key)],
    ['encoded twice', key.replaceAll('_', '%255F')],
    ['encoded three times', key.replaceAll('_', '%25255F')],
  ];

  it.each(forms)('redacts a key written %s, keeping the text around it', (_how, written) => {
    const line = `{"url":"/api/v1/credits?x=${written}&y=1","msg":"request"}`;
    const redacted = redactKeys(line);
    expect(redacted).not.toContain(secret.slice(1, 12));
    expect(redacted).toContain('pgs_test_[redacted]');
    expect(redacted).toContain('"msg":"request"');
    expect(urlCarriesKey(`/api/v1/credits?x=${written}`)).toBe(true);
  });

  it('redacts an admin token in a path, encoded', () => {
    const url = `/x/${admin.replaceAll('_', '%5F')}`;
    expect(redactKeys(url)).toBe('/x/pgs_admin_[redacted]');
    expect(urlCarriesKey(url)).toBe(true);
  });

  it('leaves ordinary text and broken escapes as they are', () => {
    const text = '/api/v1/projects?status=completed&q=%E2%82%AC%FF%zz pgs_testing';
    expect(redactKeys(text)).toBe(text);
    expect(urlCarriesKey(text)).toBe(false);
  });
});
