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
/** A key's prefix after decoding, the test that a run of text may hide one. */
const KEY_PREFIX = /pgs_(?:live|test|admin)_/;
/**
 * A run of characters a URL can carry a key in: letters, digits, `_` and percent escapes
 * (`%5F`, and `%255F` encoded twice, as the `%25` escape followed by `5F`).
 */
const ENCODED_RUN = /(?:[0-9A-Za-z_]|%[0-9A-Fa-f]{2})+/g;
/** Decodings tried on one run: a key encoded three times over is still found. */
const MAX_DECODINGS = 4;

/**
 * Percent-decodes escapes byte by byte (latin1): a key is ASCII, so no escape of it can be
 * malformed UTF-8, and an invalid sequence elsewhere must not stop the search the way it
 * stops `decodeURIComponent`.
 */
const decodeEscapes = (text: string) =>
  text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );

/** The run fully decoded (up to {@link MAX_DECODINGS} times). */
function decodedRun(run: string): string {
  let text = run;
  for (let i = 0; i < MAX_DECODINGS && text.includes('%'); i++) text = decodeEscapes(text);
  return text;
}

/**
 * Replaces anything shaped like a PGS key or admin token, written plainly or
 * percent-encoded any number of times (`pgs%5Ftest%5F…`, `pgs_test_%47…`), by
 * `pgs_<mode>_[redacted]`. A run of text that hides a key is replaced by its decoded form with
 * the key redacted; everything else is left as written. Log lines, echoed paths and error
 * messages all pass through it.
 *
 * @example
 * redactKeys('/x?k=pgs%5Ftest%5FAbc123'); // '/x?k=pgs_test_[redacted]'
 */
export function redactKeys(text: string): string {
  const plain = text.replace(SECRET_IN_TEXT, 'pgs_$1_[redacted]');
  if (!plain.includes('%')) return plain;
  return plain.replace(ENCODED_RUN, (run) => {
    if (!run.includes('%')) return run;
    const decoded = decodedRun(run);
    return KEY_PREFIX.test(decoded) ? decoded.replace(SECRET_IN_TEXT, 'pgs_$1_[redacted]') : run;
  });
}

/** Looks like a PGS key anywhere in a text (used to refuse keys in URLs and bodies). */
export const EMBEDDED_KEY_PATTERN = /pgs_(?:live|test)_[0-9A-Za-z]{32,}/;
/** A key or an admin token, as a URL must never carry one. */
const KEY_OR_TOKEN = /pgs_(?:live|test|admin)_[0-9A-Za-z]{32,}/;

/**
 * Whether a URL (path or query) carries an API key or admin token, in clear or
 * percent-encoded any number of times (`+` read as a space, as in a query).
 *
 * @example
 * urlCarriesKey('/v1/credits?x=pgs%5Ftest%5F' + 'A'.repeat(40)); // true
 */
export function urlCarriesKey(url: string): boolean {
  // Every request's URL passes here: one without an escape is read as it stands, with no
  // copy, and one without the prefix needs no regex at all.
  if (!url.includes('%')) return url.includes('pgs_') && KEY_OR_TOKEN.test(url);
  return KEY_OR_TOKEN.test(decodedRun(url.replace(/\+/g, ' ')));
}

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
