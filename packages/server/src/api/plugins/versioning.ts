import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { negotiateVersion } from '../versioning.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The minor version serving the request, e.g. `v1.0`. */
    apiVersion: string;
  }
}

/** Negotiates the minor version of each request in its scope and reports it in `API-Version`. */
export const versioning = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('apiVersion', '');
    // A callback hook: an async one costs a promise on every request.
    app.addHook('onRequest', (request, reply, done) => {
      request.apiVersion = negotiateVersion(request.headers);
      reply.header('api-version', request.apiVersion);
      done();
    });
  },
  { name: 'pgs-versioning' },
);
