import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EMBEDDED_KEY_PATTERN } from '../../accounts/api-keys.ts';
import { ApiError } from '../../errors.ts';
import { type KnownRoutes, methodNotAllowed } from '../known-routes.ts';
import { VERSION_HEADERS } from '../versioning.ts';

function decodedQuery(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return '';
  const query = url.slice(at + 1);
  try {
    return decodeURIComponent(query.replace(/\+/g, ' '));
  } catch {
    return query;
  }
}

export interface RequestContextOptions {
  /** The app's routes: a method none of them answers (TRACE, OPTIONS…) is refused here. */
  routes?: KnownRoutes;
}

/**
 * First on every request: the `X-Request-ID` and version headers (so even a 404 or a
 * parse error carries them), then the screen that refuses an API key in the URL before
 * it is used or logged any further, then the one that refuses a method no route answers.
 */
export const requestContext = fp(
  async (app: FastifyInstance, { routes }: RequestContextOptions = {}) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
      reply.headers(VERSION_HEADERS);
      if (EMBEDDED_KEY_PATTERN.test(decodedQuery(request.url))) {
        throw new ApiError(
          'SECURITY_VIOLATION',
          'An API key was sent in the query string. Send it only in the Authorization header, and revoke this one: URLs are logged.',
          { details: { field: 'query', issue: 'api_key_in_query' } },
        );
      }
      // Before the body is read: Fastify would parse it (or want a Content-Type) first.
      if (routes !== undefined && !routes.answers(request.method)) {
        const path = request.url.split('?')[0] ?? '/';
        throw methodNotAllowed(request.method, path, routes.allowedAt(path));
      }
      // HTTP/1.1 requires Host; Node's own check (turned off in app.ts) answered a bare 400
      // outside the envelope, without a request id.
      if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
        throw new ApiError('VALIDATION_ERROR', 'An HTTP/1.1 request must carry a Host header.', {
          details: { missing_fields: ['Host'] },
        });
      }
    });
  },
  { name: 'pgs-request-context' },
);
