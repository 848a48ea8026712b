import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { newRequestId } from '../ids.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { Metrics } from '../metrics/registry.ts';
import { errorHandling } from './plugins/errors.ts';
import { requestContext } from './plugins/request-context.ts';
import { metricsRoutes } from './routes/metrics.ts';

export interface MetricsServerOptions {
  metrics: Metrics;
  adminToken: string;
  /** Counts failed authentication attempts per client address. */
  failures: RateLimiter;
  /** Base of `error.documentation` links. */
  docsUrl: string;
  logger?: FastifyBaseLogger;
}

/**
 * A listener of its own for `GET /metrics` (`PGS_METRICS_PORT`): the only HTTP a worker
 * process (`PGS_ROLE=worker`) serves, and a way to scrape API processes on an address kept
 * off the public port. Same admin token, same error envelope as the API's `/metrics`.
 *
 * @example
 * const server = await buildMetricsServer({ metrics, adminToken, failures, docsUrl });
 * await server.listen({ port: 9464, host: '127.0.0.1' });
 */
export async function buildMetricsServer(options: MetricsServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: newRequestId,
    requestIdHeader: false,
    return503OnClosing: false,
  });
  // Response schemas name the contract's schemas, which this small app does not load: they
  // document the route; bodies are JSON.stringify'd, as in the API's app.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(errorHandling, { docsUrl: options.docsUrl, bodyLimit: 1_024 });
  await app.register(requestContext);
  await app.register(metricsRoutes, options);
  await app.ready();
  return app;
}
