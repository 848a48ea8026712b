/**
 * The readers of one environment variable each, for config.ts: the environment is handed to
 * them (only config.ts reads it), and a value they cannot use is a {@link ConfigError} that
 * names the variable and what it accepts.
 */

/**
 * A configuration value that cannot be used; the message names the variable and what it accepts.
 *
 * @example
 * throw new ConfigError('PORT=x is invalid: expected a whole number from 0 to 65535');
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The environment, as config.ts hands it over. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A variable's value, trimmed; `undefined` when it is unset or blank.
 *
 * @example
 * read({ HOST: ' ::1 ' }, 'HOST'); // '::1'
 */
export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * A whole number from `min` to `max`, or `fallback` when unset.
 *
 * @example
 * integer({ PORT: '8080' }, 'PORT', 3000, 0, 65535); // 8080
 */
export function integer(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(
      `${name}=${raw} is invalid: expected a whole number from ${min} to ${max}`,
    );
  }
  return value;
}

/**
 * `1`, `true`, `yes`, `on` or their opposites (any case), or `fallback` when unset.
 *
 * @example
 * boolean({ PGS_TRUST_PROXY: 'yes' }, 'PGS_TRUST_PROXY', false); // true
 */
export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}=${raw} is invalid: expected true or false`);
}

/**
 * A URL of one of `protocols` (without their colon), as written; `undefined` when unset.
 *
 * @example
 * url({ REDIS_URL: 'redis://localhost' }, 'REDIS_URL', ['redis', 'rediss']); // 'redis://localhost'
 */
export function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is invalid: expected a URL (${protocols.join(', ')})`);
  }
  if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(`${name} is invalid: expected a ${protocols.join(' or ')} URL`);
  }
  return raw;
}

/**
 * A 32-byte key written as base64, or a {@link ConfigError} naming the variable.
 *
 * @example
 * encryptionKey('PGS_ENCRYPTION_KEY', randomBytes(32).toString('base64'));
 */
export function encryptionKey(name: string, raw: string): Buffer {
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (key?.length !== 32) {
    // Never quote the value: it is a secret.
    throw new ConfigError(
      `${name} is invalid: expected 32 random bytes written as base64 (e.g. openssl rand -base64 32)`,
    );
  }
  return key;
}
