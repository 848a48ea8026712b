import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import { EMBEDDED_KEY_PATTERN } from '../../accounts/api-keys.ts';
import { ApiError } from '../../errors.ts';

/**
 * Parses a JSON body: syntax errors → INVALID_JSON; `__proto__` or `constructor.prototype`
 * keys, or an API key anywhere in the body → SECURITY_VIOLATION.
 *
 * @example
 * parseJsonBody('{"mode":"test"}'); // { mode: 'test' }
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      'INVALID_JSON',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  try {
    if (typeof value === 'object' && value !== null) {
      secureJson.scan(value as Record<string, unknown>, {
        protoAction: 'error',
        constructorAction: 'error',
      });
    }
  } catch {
    throw new ApiError('SECURITY_VIOLATION', 'The request body contains a forbidden key.', {
      details: {
        issue: 'prototype_pollution',
        forbidden_keys: ['__proto__', 'constructor.prototype'],
      },
    });
  }
  if (EMBEDDED_KEY_PATTERN.test(text)) {
    throw new ApiError(
      'SECURITY_VIOLATION',
      'The request body contains an API key. Send keys only in the Authorization header, and revoke this one: it may have been logged.',
      { details: { field: 'body', issue: 'api_key_in_body' } },
    );
  }
  return value;
}

/** The only body type the API accepts is JSON; anything else is answered 415. */
export const jsonBody = fp(
  async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  },
  { name: 'pgs-json-body' },
);
