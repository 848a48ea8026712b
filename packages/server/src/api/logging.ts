import type { FastifyRequest } from 'fastify';
import { type Logger, pino } from 'pino';
import type { LogLevel } from '../config.ts';

const KEY_IN_TEXT = /pgs_(live|test|admin)_[0-9A-Za-z]+/g;

/** Replaces anything shaped like a PGS key or admin token. */
export function redactKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, 'pgs_$1_[redacted]');
}

/**
 * The process's logger: JSON lines with the request id, and no secret in them (the
 * Authorization header is never logged; keys in URLs are redacted).
 *
 * @example
 * const log = createLogger('info');
 */
export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactKeys(request.url),
        remoteAddress: request.ip,
      }),
      err: pino.stdSerializers.err,
    },
  });
}
