/**
 * Whether an error means the database cannot be reached right now (down, restarting,
 * failing over, a connection cut), as opposed to a fault of the query or of our code.
 * The API answers those with 503 and Retry-After instead of 500: the request was fine and
 * the same request will succeed once the database is back.
 *
 * A leaf beside errors.ts rather than a file of storage/: it reads only the shape of an
 * error (Node's codes, SQLSTATEs, the driver's messages), and the edge that asks it may not
 * import storage.
 */

/** Network errors of the driver's socket (Node's `code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01–57P03
 * (admin or crash shutdown, cannot connect now: starting up or shutting down).
 */
const UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[1-3])$/;

/** The driver's own messages for a connection that ended or never came (pg has no code for them). */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/**
 * True when `error`, or an error it wraps (`cause`, an AggregateError's `errors`), says
 * the database is unreachable.
 *
 * @example
 * isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })); // true
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || error === null || typeof error !== 'object') return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATE.test(code))) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  return isDatabaseUnavailable(cause, depth + 1);
}
