import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import type { Metrics } from '../../metrics/registry.ts';
import { adminAuth } from '../plugins/auth.ts';
import { errorResponses } from './schemas.ts';

export interface MetricsRoutesOptions {
  metrics: Metrics;
  /** The operator token: a scrape sends `Authorization: Bearer <admin token>`. */
  adminToken: string;
  /** Counts failed authentication attempts per client address (shared with the API). */
  failures: RateLimiter;
}

/**
 * `GET /metrics`: the service's metrics in the Prometheus text format, for the operator
 * (admin token); refusals are the usual error envelope. Registered in a scope of its own,
 * so the admin check covers only this route.
 *
 * @example
 * await app.register(metricsRoutes, { metrics, adminToken, failures });
 */
export async function metricsRoutes(
  app: FastifyInstance,
  { metrics, adminToken, failures }: MetricsRoutesOptions,
) {
  await app.register(adminAuth, { token: adminToken, failures });
  app.get(
    '/metrics',
    {
      config: { operationId: 'getMetrics' },
      schema: {
        response: { 200: { type: 'string' }, ...errorResponses(401, 403, 429, 500, 503) },
      },
    },
    async (_request, reply) => {
      const text = await metrics.text();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    },
  );
}
