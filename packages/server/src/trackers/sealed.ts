/**
 * Secrets at rest (a connection's credentials and webhook secret): AES-256-GCM with
 * node:crypto, written as `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts). The key id
 * names the key that sealed a value, so a value sealed before a rotation is opened with the
 * previous key it names (`PGS_ENCRYPTION_KEYS_PREVIOUS`) and re-sealed with the current one
 * (docs/security.md). A context (the row and field it belongs to) is bound in as additional
 * authenticated data, so a sealed value copied into another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors.ts';

/** The keys a process seals with (`current`) and may still open with (`previous`). */
export interface KeyRing {
  /** 32 bytes. */
  current: Buffer;
  previous: readonly Buffer[];
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A key's short public name: the first 6 bytes of its SHA-256, base64url (8 characters).
 * It tells keys apart without saying anything useful about them.
 *
 * @example
 * keyIdOf(randomBytes(32)); // 'q3Xo9bT1'
 */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 6).toString('base64url');
}

/** A new random key, base64 (what `PGS_ENCRYPTION_KEY` holds). */
export const newEncryptionKey = (): string => randomBytes(32).toString('base64');

/**
 * Decodes a base64 key; undefined unless it is exactly 32 bytes.
 *
 * @example
 * decodeKey(newEncryptionKey())?.length; // 32
 */
export function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === 32 ? key : undefined;
}

/** A sealed value that cannot be opened: no key of the ring named, or tampered. */
export class UnsealError extends Error {
  override name = 'UnsealError';
}

/**
 * Seals `plaintext` with the ring's current key, bound to `context`.
 *
 * @example
 * const sealed = seal(ring, 'ghp_…', 'tc_01J…:credentials'); // 'v1.q3Xo9bT1.…'
 */
export function seal(ring: KeyRing, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    VERSION,
    keyIdOf(ring.current),
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The id of the key a sealed value names (undefined when it is not a sealed value). */
export function sealedKeyId(sealed: string): string | undefined {
  const parts = sealed.split('.');
  return parts.length === 5 && parts[0] === VERSION ? parts[1] : undefined;
}

/**
 * Opens a value {@link seal} made, with whichever key of the ring it names; throws
 * {@link UnsealError} when none does or the value was changed.
 */
export function open(ring: KeyRing, sealed: string, context: string): string {
  const parts = sealed.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new UnsealError('not a sealed value');
  const [, keyId, iv, body, tag] = parts as [string, string, string, string, string];
  const key = [ring.current, ...ring.previous].find((k) => keyIdOf(k) === keyId);
  if (key === undefined) {
    throw new UnsealError(`sealed with key ${keyId}, which is not configured`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new UnsealError(`sealed value does not open with key ${keyId}`);
  }
}

/**
 * Seals and opens with a ring loaded once, on first use: the embedded default generates its
 * key file only when a first connection is made. A loader that answers undefined (PostgreSQL
 * without `PGS_ENCRYPTION_KEY`) makes every use refuse with 503 ENCRYPTION_NOT_CONFIGURED.
 *
 * @example
 * const sealer = new Sealer(async () => ({ current: key, previous: [] }));
 * const sealed = await sealer.seal('secret', 'tc_1:credentials');
 */
export class Sealer {
  readonly #load: () => Promise<KeyRing | undefined>;
  #ring: Promise<KeyRing | undefined> | undefined;

  constructor(load: () => Promise<KeyRing | undefined>) {
    this.#load = load;
  }

  /** A sealer over a fixed ring (tests, the re-seal at startup). */
  static of(ring: KeyRing | undefined): Sealer {
    return new Sealer(async () => ring);
  }

  /** The ring, or 503 ENCRYPTION_NOT_CONFIGURED. */
  async ring(): Promise<KeyRing> {
    this.#ring ??= this.#load().catch((error: unknown) => {
      this.#ring = undefined;
      throw error;
    });
    const ring = await this.#ring;
    if (ring === undefined) {
      throw new DomainError(
        'ENCRYPTION_NOT_CONFIGURED',
        'Tracker connections need an encryption key: the operator sets PGS_ENCRYPTION_KEY (32 random bytes, base64) on every PGS process.',
      );
    }
    return ring;
  }

  async seal(plaintext: string, context: string): Promise<string> {
    return seal(await this.ring(), plaintext, context);
  }

  async open(sealed: string, context: string): Promise<string> {
    return open(await this.ring(), sealed, context);
  }
}
