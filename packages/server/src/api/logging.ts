import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import { redactKeys } from '../accounts/api-keys.ts';
import type { LogLevel } from '../config.ts';

/**
 * The process's logger: JSON lines with the request id, and no secret in them: the
 * Authorization header is never logged, and every line, whatever field carries it (a URL,
 * an error's message, a path echoed in a message), passes through {@link redactKeys} as it
 * is written, so a key percent-encoded in a URL is redacted as well as a plain one.
 *
 * @example
 * const log = createLogger('info');
 * const captured = createLogger('trace', { write: (line) => lines.push(line) });
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    // One place for every field: the line as written, not a list of fields to remember.
    hooks: { streamWrite: redactKeys },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url,
        remoteAddress: request.ip,
      }),
      err: pino.stdSerializers.err,
    },
  };
  // A destination other than stdout: tests read every line the real configuration writes.
  return destination === undefined ? pino(options) : pino(options, destination);
}
