import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import { redactKeys } from '../accounts/api-keys.ts';
import type { LogLevel } from '../config.ts';

/**
 * The process's logger: JSON lines with the request id, and no secret in them (the
 * Authorization header is never logged; keys in URLs are redacted).
 *
 * @example
 * const log = createLogger('info');
 * const captured = createLogger('trace', { write: (line) => lines.push(line) });
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactKeys(request.url),
        remoteAddress: request.ip,
      }),
      err: pino.stdSerializers.err,
    },
  };
  // A destination other than stdout: tests read every line the real configuration writes.
  return destination === undefined ? pino(options) : pino(options, destination);
}
