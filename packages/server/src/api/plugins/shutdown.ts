import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Aborts when the app starts closing (before the server stops accepting): responses
     * held open (event streams, long-polls) end on it instead of holding the shutdown up.
     */
    closing: AbortSignal;
  }
}

/**
 * Gives the app its `closing` signal, aborted in `preClose`: Fastify then stops accepting
 * connections and waits for the requests in flight, which the signal has told to finish.
 * Requests that still arrive on open keep-alive connections while it drains are served
 * (with `Connection: close`) rather than refused with Fastify's own 503 body, which is not
 * the contract's envelope (the app sets `return503OnClosing: false`).
 *
 * @example
 * await app.register(shutdownSignal);
 * holdUntil(events, id, ms, AbortSignal.any([closed, app.closing]), read, done);
 */
export const shutdownSignal = fp(
  async (app: FastifyInstance) => {
    const controller = new AbortController();
    app.decorate('closing', controller.signal);
    app.addHook('preClose', async () => {
      controller.abort();
    });
  },
  { name: 'pgs-shutdown-signal' },
);
