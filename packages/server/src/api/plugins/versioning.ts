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
    app.addHook('onRequest', async (request, reply) => {
      request.apiVersion = negotiateVersion(request.headers);
      reply.header('api-version', request.apiVersion);
    });
  },
  { name: 'pgs-versioning' },
);
