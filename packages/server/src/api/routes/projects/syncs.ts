import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../../accounts/idempotency-keys.ts';
import type { CreateSyncRequest, ProjectSyncs, SyncView } from '../../../trackers/syncs.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import { projectIdParams } from './common.ts';

export interface SyncRoutesOptions {
  syncs: ProjectSyncs;
  idempotency: IdempotencyKeys;
}

/** Seconds a client waits before polling a sync that has not ended. */
const SYNC_POLL_SECONDS = 2;

// A sync's id as the contract states it: `sync_` and a ULID.
const syncParams = {
  type: 'object',
  required: ['projectId', 'syncId'],
  additionalProperties: false,
  properties: {
    ...projectIdParams.properties,
    syncId: { type: 'string', pattern: '^sync_[0-9A-HJKMNP-TV-Z]{26}$' },
  },
} as const;
const versionHeader = { 'api-version': { type: 'string' } } as const;

/** The 202 of createProjectSync, as sent and as remembered for its Idempotency-Key. */
const accepted = (sync: SyncView) => ({
  status: 202,
  headers: {
    location: `/api/v1/projects/${sync.projectId}/syncs/${sync.id}`,
    'retry-after': String(SYNC_POLL_SECONDS),
  },
  body: JSON.stringify({ success: true, data: sync }),
});

/** `/projects/{projectId}/syncs` routes of API v1 (docs/trackers.md, "Pushing a project"). */
export async function syncRoutes(app: FastifyInstance, { syncs, idempotency }: SyncRoutesOptions) {
  app.post<{ Params: { projectId: string }; Body: CreateSyncRequest }>(
    '/projects/:projectId/syncs',
    {
      config: { operationId: 'createProjectSync', rateLimit: 'manage' },
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: { ...versionHeader, 'idempotency-key': { type: 'string' } },
        },
        body: schemaRef('CreateSyncRequest'),
        response: {
          202: schemaRef('ProjectSyncResponse'),
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 413, 415, 422, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const operation = `createProjectSync ${projectId.toLowerCase()}`;
      return withIdempotency(idempotency, request, reply, operation, async (remember) =>
        accepted(
          await syncs.create(request.principal, projectId, request.body, {
            withinTransaction: (tx, sync) => remember(tx, accepted(sync)),
          }),
        ),
      );
    },
  );

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/syncs',
    {
      config: { operationId: 'listProjectSyncs', rateLimit: 'list' },
      schema: {
        params: projectIdParams,
        headers: { type: 'object', properties: versionHeader },
        response: {
          200: schemaRef('ProjectSyncListResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const list = await syncs.list(request.principal, request.params.projectId);
      reply.header('cache-control', 'no-store');
      return reply.type('application/json; charset=utf-8').send({ success: true, data: list });
    },
  );

  app.get<{ Params: { projectId: string; syncId: string } }>(
    '/projects/:projectId/syncs/:syncId',
    {
      config: { operationId: 'getProjectSync', rateLimit: 'status' },
      schema: {
        params: syncParams,
        headers: { type: 'object', properties: versionHeader },
        response: {
          200: schemaRef('ProjectSyncResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId, syncId } = request.params;
      const sync = await syncs.get(request.principal, projectId, syncId);
      reply.header('cache-control', 'no-store');
      if (sync.status === 'queued' || sync.status === 'running') {
        reply.header('retry-after', String(SYNC_POLL_SECONDS));
      }
      return reply.type('application/json; charset=utf-8').send({ success: true, data: sync });
    },
  );
}
