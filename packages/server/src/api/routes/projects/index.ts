import { type CreateProjectRequest, schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { InsufficientCreditsError } from '../../../credits/ledger.ts';
import { ApiError } from '../../../errors.ts';
import type { CreatedProject, Projects } from '../../../generation/projects.ts';
import { readProvenance } from '../../../generation/provenance.ts';
import type { ProjectStatusReader } from '../../../generation/status.ts';
import type { Db } from '../../../storage/db.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';

export interface ProjectRoutesOptions {
  statusReader: ProjectStatusReader;
  projects: Projects;
  db: Db;
}

/** Seconds a client should wait before polling an in-progress project again (seed: 10–30 s). */
export function pollHint(estimatedCompletionMs: number): number {
  return Math.min(30, Math.max(10, Math.ceil(estimatedCompletionMs / 1000)));
}

const projectIdParams = {
  type: 'object',
  required: ['projectId'],
  additionalProperties: false,
  properties: { projectId: { type: 'string', format: 'uuid' } },
} as const;

const notFound = (projectId: string) =>
  new ApiError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
    details: { resource_type: 'project', resource_id: projectId },
  });

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** `/projects` routes of API v1. */
export async function projectRoutes(
  app: FastifyInstance,
  { statusReader, projects, db }: ProjectRoutesOptions,
) {
  app.post<{ Body: CreateProjectRequest }>(
    '/projects',
    {
      config: { operationId: 'createProject', rateLimit: 'create' },
      schema: {
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
        },
        body: schemaRef('CreateProjectRequest'),
        response: {
          202: schemaRef('ProjectAcceptedResponse'),
          ...errorResponses(400, 401, 402, 403, 409, 413, 415, 422, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { idea, type, name, simulate } = request.body;
      if (simulate !== undefined && request.principal.mode !== 'test') {
        throw new ApiError('VALIDATION_ERROR', 'simulate is only available with test keys.', {
          details: {
            invalid_fields: { simulate: 'is only available with test keys (pgs_test_…)' },
          },
        });
      }
      const respond = (created: CreatedProject) => ({
        status: 202,
        headers: {
          location: `/api/v1/projects/${created.projectId}`,
          'retry-after': String(pollHint(created.estimatedCompletionMs)),
        },
        body: JSON.stringify({
          success: true,
          data: {
            projectId: created.projectId,
            status: 'in_progress',
            estimatedCompletionMs: created.estimatedCompletionMs,
          },
        }),
      });
      return withIdempotency(db, request, reply, 'createProject', async (remember) => {
        try {
          const input = {
            idea,
            type,
            name,
            simulate: simulate && {
              outcome: simulate.outcome,
              durationMs: simulate.durationMs ?? 0,
            },
          };
          const created = await projects.create(request.principal, input, {
            withinTransaction: (tx, project) => remember(tx, respond(project)),
          });
          return respond(created);
        } catch (error) {
          if (error instanceof InsufficientCreditsError) {
            throw new ApiError('INSUFFICIENT_CREDITS', error.message, {
              details: { required: error.required, available: error.available },
            });
          }
          throw error;
        }
      });
    },
  );

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId',
    {
      config: { operationId: 'getProjectStatus', rateLimit: 'status' },
      schema: {
        params: projectIdParams,
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
      // UUIDs compare case-insensitively; every body names the project in its canonical form.
      const view = await statusReader.read(request.principal, projectId.toLowerCase());
      if (view === undefined) throw notFound(projectId);
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

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/provenance',
    {
      // Shares the status limit: it is read alongside the status, by the same clients.
      config: { operationId: 'getProjectProvenance', rateLimit: 'status' },
      schema: {
        params: projectIdParams,
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        response: {
          200: schemaRef('ProvenanceResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const body = await readProvenance(db, request.principal, projectId.toLowerCase());
      if (body === undefined) throw notFound(projectId);
      return body;
    },
  );
}
