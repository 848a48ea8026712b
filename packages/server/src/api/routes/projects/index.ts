import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../errors.ts';
import type { ProjectStatusReader } from '../../../generation/status.ts';
import { errorResponses } from '../schemas.ts';

export interface ProjectRoutesOptions {
  statusReader: ProjectStatusReader;
}

/** Seconds a client should wait before polling an in-progress project again (seed: 10–30 s). */
export function pollHint(estimatedCompletionMs: number): number {
  return Math.min(30, Math.max(10, Math.ceil(estimatedCompletionMs / 1000)));
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** `/projects` routes of API v1. */
export async function projectRoutes(app: FastifyInstance, { statusReader }: ProjectRoutesOptions) {
  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId',
    {
      config: { operationId: 'getProjectStatus', rateLimit: 'status' },
      schema: {
        params: {
          type: 'object',
          required: ['projectId'],
          additionalProperties: false,
          properties: { projectId: { type: 'string', format: 'uuid' } },
        },
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'if-none-match': { type: 'string' } },
        },
        response: {
          200: schemaRef('ProjectStatusResponse'),
          304: { type: 'null' },
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const view = await statusReader.read(request.principal, projectId);
      if (view === undefined) {
        throw new ApiError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
          details: { resource_type: 'project', resource_id: projectId },
        });
      }
      reply.header('etag', view.etag);
      if (view.status === 'in_progress') {
        reply.header('cache-control', 'no-cache');
        reply.header('retry-after', pollHint(view.estimatedCompletionMs ?? 0));
      } else {
        // Final states never change; the response depends on the key, so keep it private.
        reply.header('cache-control', 'private, max-age=86400');
      }
      if (matches(request.headers['if-none-match'], view.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(view.body);
    },
  );
}
