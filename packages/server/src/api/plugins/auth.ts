import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Accounts, AuthIssue, Principal } from '../../accounts/service.ts';
import { ApiError } from '../../errors.ts';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import { withoutStack } from './errors.ts';
import { rateLimitError } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key that authenticated the request (API routes only). */
    principal: Principal;
  }
}

const MESSAGES: Record<AuthIssue, string> = {
  missing: 'No API key was sent. Send it as "Authorization: Bearer <API_KEY>".',
  malformed:
    'The Authorization header is not "Bearer <API_KEY>" with a PGS key (pgs_live_… or pgs_test_…).',
  invalid_key: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
};

/** The bearer token of a request, or why there is none. */
export function bearerToken(request: FastifyRequest): { token: string } | { issue: AuthIssue } {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return { issue: 'missing' };
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  return match ? { token: match[1]! } : { issue: 'malformed' };
}

async function authFailure(
  request: FastifyRequest,
  issue: AuthIssue,
  failures: RateLimiter,
): Promise<ApiError> {
  // Failed attempts count against the client address, never against a key.
  const decision = await failures.consume(request.ip);
  if (!decision.allowed) {
    return rateLimitError(decision, 'Too many failed authentication attempts from this address.');
  }
  return withoutStack(
    () =>
      new ApiError('AUTHENTICATION_FAILED', MESSAGES[issue], {
        details: { field: 'authorization', issue },
        headers: {
          'www-authenticate':
            issue === 'missing'
              ? 'Bearer realm="pgs"'
              : 'Bearer realm="pgs", error="invalid_token"',
        },
      }),
  );
}

export interface ApiKeyAuthOptions {
  accounts: Accounts;
  /** Counts failed attempts per client address. */
  failures: RateLimiter;
}

/** Requires `Authorization: Bearer <API key>` on every route of the scope it is registered in. */
export const apiKeyAuth = fp(
  async (app: FastifyInstance, { accounts, failures }: ApiKeyAuthOptions) => {
    app.decorateRequest('principal', undefined as unknown as Principal);
    const authenticate = async (
      request: FastifyRequest,
      bearer: ReturnType<typeof bearerToken>,
    ) => {
      if ('issue' in bearer) throw await authFailure(request, bearer.issue, failures);
      const result = await accounts.authenticate(bearer.token);
      if (!result.ok) throw await authFailure(request, result.issue, failures);
      request.principal = result.principal;
    };
    // A callback hook: a key verified lately is found in memory with no promise at all
    // (every status poll comes this way); anything else takes the asynchronous path.
    app.addHook('onRequest', (request, _reply, done) => {
      const bearer = bearerToken(request);
      const principal = 'token' in bearer ? accounts.verified(bearer.token) : undefined;
      if (principal !== undefined) {
        request.principal = principal;
        done();
        return;
      }
      authenticate(request, bearer).then(() => done(), done);
    });
  },
  { name: 'pgs-api-key-auth' },
);

const digest = (text: string) => hash('sha256', text, 'buffer');

export interface AdminAuthOptions {
  token: string;
  failures: RateLimiter;
}

/** Requires the operator token on every route of the scope it is registered in. */
export const adminAuth = fp(
  async (app: FastifyInstance, { token, failures }: AdminAuthOptions) => {
    const expected = digest(token);
    app.addHook('onRequest', async (request) => {
      const bearer = bearerToken(request);
      if ('issue' in bearer) {
        const error = await authFailure(request, bearer.issue, failures);
        if (error.code !== 'AUTHENTICATION_FAILED') throw error;
        throw new ApiError(
          'AUTHENTICATION_FAILED',
          'Send the admin token as "Authorization: Bearer <admin token>".',
          { details: error.details ?? {}, headers: error.headers },
        );
      }
      if (!timingSafeEqual(digest(bearer.token), expected)) {
        const error = await authFailure(request, 'invalid_key', failures);
        if (error.code === 'AUTHENTICATION_FAILED') {
          throw new ApiError('AUTHENTICATION_FAILED', 'The admin token is not valid.', {
            details: { field: 'authorization', issue: 'invalid_key' },
            headers: error.headers,
          });
        }
        throw error;
      }
    });
  },
  { name: 'pgs-admin-auth' },
);
