import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { urlCarriesKey } from '../../accounts/api-keys.ts';
import { ApiError } from '../../errors.ts';
import { type KnownRoutes, methodNotAllowed } from '../known-routes.ts';
import { VERSION_HEADERS } from '../versioning.ts';

/** How many Authorization headers the request carried (names at even indexes). */
function authorizationHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') count++;
  }
  return count;
}

/**
 * 403 SECURITY_VIOLATION for a URL that carries an API key or admin token (in any
 * encoding); undefined for any other URL. Checked first on every request, and on requests
 * Fastify refuses before its hooks run (a malformed URL), so no later message quotes it.
 *
 * @example
 * keyInUrlError('/v1/credits?k=pgs%5Ftest%5F…')?.status; // 403
 */
export function keyInUrlError(url: string): ApiError | undefined {
  if (!urlCarriesKey(url)) return undefined;
  const query = url.indexOf('?');
  const inQuery = query !== -1 && urlCarriesKey(url.slice(query + 1));
  return new ApiError(
    'SECURITY_VIOLATION',
    `An API key was sent in the ${inQuery ? 'query string' : 'URL path'}. Send it only in the Authorization header, and revoke this one: URLs are logged.`,
    {
      details: inQuery
        ? { field: 'query', issue: 'api_key_in_query' }
        : { field: 'path', issue: 'api_key_in_path' },
    },
  );
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
    // A callback hook (an async one costs a promise on every request); a throw here is
    // handed to the error handler by Fastify's hook runner.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      reply.headers(VERSION_HEADERS);
      reply.header('x-content-type-options', 'nosniff');
      const keyInUrl = keyInUrlError(request.url);
      if (keyInUrl !== undefined) throw keyInUrl;
      // Node keeps the first of two Authorization headers and drops the other: which
      // credential was meant is ambiguous, so neither is used.
      if (authorizationHeaders(request.raw.rawHeaders) > 1) {
        throw new ApiError(
          'VALIDATION_ERROR',
          'The request carries more than one Authorization header. Send exactly one.',
          { details: { field: 'Authorization', issue: 'duplicate_header' } },
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
      done();
    });
  },
  { name: 'pgs-request-context' },
);
