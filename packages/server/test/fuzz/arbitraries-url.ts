/**
 * The URL half of a generated request: path segments (real identifiers, fakes and traps)
 * and query strings (repeated, odd and out-of-range values, numbers `Number()` reads and a
 * person does not, and the fuzz's own secrets in every encoding).
 */
import fc from 'fast-check';
import type { FuzzApp } from './fuzz-app.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength: min, maxLength: max });

/** Header-safe text (Node refuses control characters in header values before sending). */
/** Every character as a percent escape. */
const escapeAll = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * The fuzz's own secrets (a real key, the admin token) as a URL might carry them: plain,
 * percent-encoded once, twice, a character at a time (issue 22: only the literal form was
 * redacted from the log). None may appear in a log line, in any of these forms.
 */
export function encodedSecrets(fuzz: FuzzApp): string[] {
  return [fuzz.keys.test.key, fuzz.adminToken].flatMap((secret) => {
    const at = secret.lastIndexOf('_') + 1;
    return [
      secret,
      secret.replaceAll('_', '%5F'),
      secret.replaceAll('_', '%5f'),
      secret.replaceAll('_', '%255F'),
      `${secret.slice(0, at)}${escapeAll(secret[at]!)}${secret.slice(at + 1)}`,
      escapeAll(secret),
    ];
  });
}

/** A path segment: a real identifier of the caller's or another account, a fake, or a trap. */
export function segmentArb(fuzz: FuzzApp, param: string): fc.Arbitrary<string> {
  const t = fuzz.targets;
  const real: Record<string, string[]> = {
    projectId: [...t.ownProjects, ...t.otherProjects],
    endpointId: [...t.ownEndpoints, ...t.otherEndpoints],
    connectionId: t.ownConnections,
    accountId: t.accounts,
    keyId: t.spareKeyIds,
    filename: t.filenames,
  };
  const known = real[param] ?? [];
  const traps = fc.constantFrom(
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%C0%AF',
    '%FF%FE',
    '%E2%80%AE',
    '..',
    '%2e%2e',
    '%2F',
    '__proto__',
    'constructor',
    'x'.repeat(201),
    '00000000-0000-4000-8000-000000000000',
    'README.md',
    '..%2F..%2Fetc%2Fpasswd',
    'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789',
  );
  return fc.oneof(
    ...(known.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: traps },
    { weight: 1, arbitrary: fc.constantFrom(...encodedSecrets(fuzz)) },
    {
      weight: 2,
      arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => encodeURIComponent(s)),
    },
    { weight: 1, arbitrary: alnum(0, 30) },
  );
}

const QUERY_KEYS = [
  'limit',
  'starting_after',
  'status',
  'layout',
  '__proto__',
  'constructor',
  'wait',
  'x',
];
/** Numbers that `Number()` reads and a person does not (issue 22: `limit=Infinity` was a 500). */
const ODD_NUMBERS = [
  'Infinity',
  '+Infinity',
  '-Infinity',
  '1e400',
  '-1e400',
  '1e1',
  '0x10',
  '0o10',
  '0b11',
  '%2016',
  '16%20',
  '16.0',
  '1_000',
  'NaN',
  '99999999999999999999',
];
const queryValueArb = (fuzz: FuzzApp) =>
  fc.oneof(
    fc.constantFrom(...ODD_NUMBERS),
    fc.constantFrom(...encodedSecrets(fuzz)),
    fc.constantFrom(
      '1',
      '0',
      '-1',
      '100',
      '101',
      '1e3',
      '0x10',
      'abc',
      '',
      'completed',
      'in_progress',
      'failed',
      'kiro',
      'plain',
      '%00',
      '%ED%A0%80',
      'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789',
    ),
    fc.uuid(),
    alnum(0, 20),
  );
export const queryArb = (fuzz: FuzzApp) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValueArb(fuzz)), {
          minLength: 1,
          maxLength: 4,
        })
        .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?',
        '?&&',
        '?limit',
        '?limit=1&limit=2',
        '?a[b]=1',
        '?__proto__[x]=1',
      ),
    },
  );
