import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export type Mode = 'live' | 'test';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Length of the secret part: 40 base62 characters, about 238 bits. */
export const SECRET_LENGTH = 40;
const KEY_PATTERN = /^pgs_(live|test)_([0-9A-Za-z]{32,128})$/;

/** Uniform base62 characters from the CSPRNG (rejection sampling avoids modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * A new API key: `pgs_<mode>_<40 base62 characters>`.
 *
 * @example
 * generateApiKey('test'); // 'pgs_test_3xV…'
 */
export function generateApiKey(mode: Mode): string {
  return `pgs_${mode}_${randomBase62(SECRET_LENGTH)}`;
}

/** The mode of a well-formed key, or `undefined` when the text is not a PGS key. */
export function parseApiKey(key: string): { mode: Mode } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { mode: match[1] as Mode } : undefined;
}

/** Anything shaped like a PGS key or admin token, for redaction. */
const SECRET_IN_TEXT = /pgs_(live|test|admin)_[0-9A-Za-z]+/g;

/** Replaces anything shaped like a PGS key or admin token (log lines never carry secrets). */
export function redactKeys(text: string): string {
  return text.replace(SECRET_IN_TEXT, 'pgs_$1_[redacted]');
}

/** Looks like a PGS key anywhere in a text (used to refuse keys in URLs and bodies). */
export const EMBEDDED_KEY_PATTERN = /pgs_(?:live|test)_[0-9A-Za-z]{32,}/;

/**
 * The stored form of a key. Keys carry over 200 bits of entropy, so one SHA-256 is
 * enough (a slow password hash would only slow every request).
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Compares two hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A recognisable, non-secret part of the key for listings: `pgs_test_3xV9…`. */
export function keyPrefix(key: string): string {
  return `${key.slice(0, key.lastIndexOf('_') + 5)}…`;
}

/** A random token for the admin API. */
export function generateAdminToken(): string {
  return `pgs_admin_${randomBase62(43)}`;
}
