import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from './registry.ts';

/** The route label of a request no route matched (404s): one label, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface HttpMetricsOptions {
  metrics: Metrics;
  /** Route patterns whose open requests are event streams (`pgs_event_streams_open`). */
  streamRoutes?: readonly string[];
  /** Route patterns whose requests with `Prefer: wait` are long-polls (`pgs_long_polls_open`). */
  longPollRoutes?: readonly string[];
}

/**
 * Counts every request by method, route pattern (never the raw URL: ids would explode the
 * label set) and status, with its duration, and keeps the gauges of open event streams
 * and long-polls. The route label comes from the route's own config, and the histogram
 * finds a request's series by map lookups (see RouteHistogram): no allocation per request
 * beyond Fastify's own.
 *
 * @example
 * await app.register(httpMetrics, { metrics, streamRoutes: ['/api/v1/projects/:projectId/events'] });
 */
export const httpMetrics = fp(
  async (
    app: FastifyInstance,
    { metrics, streamRoutes = [], longPollRoutes = [] }: HttpMetricsOptions,
  ) => {
    const streams = new Set(streamRoutes);
    const longPolls = new Set(longPollRoutes);
    // The watch routes get a hook of their own (added as each route is declared), so other
    // requests pay nothing for these gauges.
    app.addHook('onRoute', (route) => {
      const stream = streams.has(route.url);
      if (!stream && !longPolls.has(route.url)) return;
      const watch: onRequestHookHandler = (request, reply, next) => {
        const closed = stream
          ? metrics.streamOpened()
          : request.headers.prefer !== undefined
            ? metrics.longPollStarted()
            : undefined;
        // 'close' comes however the response ends: sent, failed or dropped by the client.
        if (closed !== undefined) reply.raw.once('close', closed);
        next();
      };
      const existing = route.onRequest;
      route.onRequest =
        existing === undefined
          ? [watch]
          : Array.isArray(existing)
            ? [watch, ...existing]
            : [watch, existing as onRequestHookHandler];
    });
    // A callback hook: an async one costs a promise per request.
    app.addHook('onResponse', (request, reply, next) => {
      const config = request.routeOptions.config;
      metrics.observeRequest(
        config.method === undefined ? request.method : String(config.method),
        config.url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      next();
    });
  },
  { name: 'pgs-http-metrics' },
);
