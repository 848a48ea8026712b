/**
 * The HTTP time limits of the configuration (`PGS_*_TIMEOUT_MS`), read from the environment
 * config.ts hands over.
 */
import { ConfigError, type Env, integer } from './config-env.ts';

/** The HTTP time limits' defaults, in milliseconds (the app's too, when a config names none). */
export const HTTP_TIMEOUTS: Readonly<
  Record<'requestTimeoutMs' | 'headersTimeoutMs' | 'connectionTimeoutMs' | 'drainTimeoutMs', number>
> = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  connectionTimeoutMs: 120_000,
  drainTimeoutMs: 5_000,
};

/**
 * The time to receive a whole request and its headers; the headers are part of the request,
 * so their limit may not be the longer.
 *
 * @example
 * requestTimeouts({ PGS_REQUEST_TIMEOUT_MS: '60000' }); // { requestTimeoutMs: 60000, headersTimeoutMs: 10000 }
 */
export function requestTimeouts(env: Env): { requestTimeoutMs: number; headersTimeoutMs: number } {
  const requestTimeoutMs = integer(
    env,
    'PGS_REQUEST_TIMEOUT_MS',
    HTTP_TIMEOUTS.requestTimeoutMs,
    1_000,
    600_000,
  );
  const headersTimeoutMs = integer(
    env,
    'PGS_HEADERS_TIMEOUT_MS',
    HTTP_TIMEOUTS.headersTimeoutMs,
    1_000,
    600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `PGS_HEADERS_TIMEOUT_MS=${headersTimeoutMs} is invalid: expected at most PGS_REQUEST_TIMEOUT_MS (${requestTimeoutMs}), since the headers are part of the request`,
    );
  }
  return { requestTimeoutMs, headersTimeoutMs };
}

/**
 * How long a silent connection is kept, and one answered before its request was read whole.
 *
 * @example
 * connectionTimeouts({}); // { connectionTimeoutMs: 120000, drainTimeoutMs: 5000 }
 */
export function connectionTimeouts(env: Env): {
  connectionTimeoutMs: number;
  drainTimeoutMs: number;
} {
  return {
    connectionTimeoutMs: integer(
      env,
      'PGS_CONNECTION_TIMEOUT_MS',
      HTTP_TIMEOUTS.connectionTimeoutMs,
      65_000,
      3_600_000,
    ),
    drainTimeoutMs: integer(
      env,
      'PGS_DRAIN_TIMEOUT_MS',
      HTTP_TIMEOUTS.drainTimeoutMs,
      100,
      600_000,
    ),
  };
}
