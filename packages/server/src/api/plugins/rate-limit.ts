import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../errors.ts';
import type { RateLimitDecision, RateLimiter } from '../../limits/rate-limiter.ts';
import { withoutStack } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The name of the limiter that counts this route's requests per API key. */
    rateLimit?: string;
    /** The contract operation the route implements (openapi/pgs.openapi.yaml). */
    operationId?: string;
  }
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, number> {
  return {
    'x-ratelimit-limit': decision.limit,
    'x-ratelimit-remaining': decision.remaining,
    'x-ratelimit-reset': decision.resetAt,
  };
}

/** The 429 answer to a refused decision. */
export function rateLimitError(decision: RateLimitDecision, message?: string): ApiError {
  return withoutStack(
    () =>
      new ApiError(
        'RATE_LIMIT_EXCEEDED',
        message ??
          `Rate limit of ${decision.limit} requests per ${decision.window} exceeded; retry after ${decision.retryAfter} seconds.`,
        {
          details: {
            retry_after: decision.retryAfter,
            limit: decision.limit,
            window: decision.window,
          },
          headers: { 'retry-after': decision.retryAfter, ...rateLimitHeaders(decision) },
        },
      ),
  );
}

export interface RateLimitOptions {
  /** Limiters by name; a route names its own in `config.rateLimit`. */
  limiters: Readonly<Record<string, RateLimiter>>;
}

/**
 * Counts each request against its route's limiter, keyed by the API key (so it must run
 * after authentication), and reports the count in `X-RateLimit-*` headers.
 */
export const rateLimit = fp(
  async (app: FastifyInstance, { limiters }: RateLimitOptions) => {
    app.addHook('onRequest', async (request, reply) => {
      const name = request.routeOptions.config.rateLimit;
      if (name === undefined) return;
      const limiter = limiters[name];
      if (limiter === undefined) throw new Error(`no rate limiter named ${name}`);
      const decision = await limiter.consume(request.principal.keyId);
      if (!decision.allowed) throw rateLimitError(decision);
      reply.headers(rateLimitHeaders(decision));
    });
  },
  { name: 'pgs-rate-limit' },
);
