import { type CreateProjectRequest, schemaRef } from '@pgs/contract';
import { CONTEXT_BODY_LIMIT_BYTES } from '@pgs/contract/repository';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../../accounts/idempotency-keys.ts';
import { holdUntil, type ProjectEventHub } from '../../../events/hub.ts';
import type { CreatedProject, Projects } from '../../../projects/projects.ts';
import type { ProjectReads } from '../../../projects/reads.ts';
import { etagOf } from '../../../projects/result.ts';
import { MUST_READ, type ProjectStatusReader } from '../../../projects/status.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import {
  closedSignal,
  etagMatches,
  pollHint,
  projectIdParams,
  projectNotFound,
  resultCache,
} from './common.ts';
import { pinnedRevision, revisionNumber, statusRevisionRefused } from './revision-reads.ts';

export interface ProjectRoutesOptions {
  statusReader: ProjectStatusReader;
  projects: Projects;
  reads: ProjectReads;
  /** Where Idempotency-Key claims and answers are kept. */
  idempotency: IdempotencyKeys;
  /** Wakes long-polls. */
  events: ProjectEventHub;
}

/** The longest `Prefer: wait` honoured, in seconds. */
export const MAX_WAIT_SECONDS = 60;

/**
 * The `wait` preference of a `Prefer` header (RFC 7240), clamped to 1–60 seconds;
 * undefined when absent or not a positive whole number.
 *
 * @example
 * preferredWait('respond-async, wait=20'); // 20
 */
export function preferredWait(prefer: string | string[] | undefined): number | undefined {
  const values = Array.isArray(prefer) ? prefer : prefer === undefined ? [] : [prefer];
  for (const value of values) {
    for (const preference of value.split(',')) {
      const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*(?:;.*)?$/i.exec(preference);
      if (match) {
        const seconds = Number(match[1]);
        return seconds < 1 ? undefined : Math.min(seconds, MAX_WAIT_SECONDS);
      }
    }
  }
  return undefined;
}

/** The 202 of createProject, as sent and as remembered for its Idempotency-Key. */
const created = (project: CreatedProject) => ({
  status: 202,
  headers: {
    location: `/api/v1/projects/${project.projectId}`,
    'retry-after': String(pollHint(project.estimatedCompletionMs)),
  },
  body: JSON.stringify({
    success: true,
    data: {
      projectId: project.projectId,
      status: 'in_progress',
      estimatedCompletionMs: project.estimatedCompletionMs,
    },
  }),
});

/** `/projects` routes of API v1. */
export async function projectRoutes(app: FastifyInstance, options: ProjectRoutesOptions) {
  createProject(app, options);
  getProjectStatus(app, options);
  getProjectProvenance(app, options);
}

/** Starts a project's creation: POST /projects. */
function createProject(
  app: FastifyInstance,
  { projects, idempotency }: ProjectRoutesOptions,
): void {
  app.post<{ Body: CreateProjectRequest }>(
    '/projects',
    {
      config: { operationId: 'createProject', rateLimit: 'create' },
      // Room for a codebase digest (`context`); every other route keeps the global limit.
      bodyLimit: CONTEXT_BODY_LIMIT_BYTES,
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
      const input = await projects.admit(request.principal, request.body);
      return withIdempotency(idempotency, request, reply, 'createProject', async (remember) =>
        created(
          await projects.create(request.principal, input, {
            withinTransaction: (tx, project) => remember(tx, created(project)),
          }),
        ),
      );
    },
  );
}

/** A project's status, long-polled with `Prefer: wait`: GET /projects/:projectId. */
function getProjectStatus(
  app: FastifyInstance,
  { statusReader, events }: ProjectRoutesOptions,
): void {
  app.get<{ Params: { projectId: string }; Querystring: { revision?: unknown } }>(
    '/projects/:projectId',
    {
      // The seed's route shows no query parameters, and polling clients written to it add
      // cache-busters (`?_=1732…`): those are ignored, `revision` alone is refused (docs/api.md).
      config: { operationId: 'getProjectStatus', rateLimit: 'status', ignoresUnknownQuery: true },
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: {
            'api-version': { type: 'string' },
            'if-none-match': { type: 'string' },
            prefer: { type: 'string' },
          },
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
      // One property read of the query the router already parsed: the hot path stays as it was.
      if (request.query.revision !== undefined) throw statusRevisionRefused(projectId);
      // UUIDs compare case-insensitively; every body names the project in its canonical form.
      const id = projectId.toLowerCase();
      const read = () => statusReader.read(request.principal, id);
      // A poll that memory answers takes no promise (ProjectStatusReader.peek).
      const peeked = statusReader.peek(request.principal, id);
      let view = peeked === MUST_READ ? await read() : peeked;
      if (view === undefined) throw projectNotFound(projectId);
      // Long-poll: hold an in-progress answer until the status changes or the wait ends,
      // woken by the workflow's own events (never by polling the database).
      const wait = preferredWait(request.headers.prefer);
      if (wait !== undefined) {
        reply.header('preference-applied', `wait=${wait}`);
        if (view.status === 'in_progress') {
          view =
            (await holdUntil(
              events,
              id,
              wait * 1000,
              closedSignal(reply),
              read,
              (v) => v?.status !== 'in_progress',
            )) ?? view;
        }
      }
      reply.header('etag', view.etag);
      reply.header('pgs-revision', String(view.revision ?? 1));
      reply.header('vary', 'Authorization');
      if (view.status === 'in_progress') {
        reply.header('cache-control', 'no-cache');
        reply.header('retry-after', pollHint(view.estimatedCompletionMs ?? 0));
      } else if (view.status === 'failed') {
        // A failed project never changes; the response depends on the key: private.
        reply.header('cache-control', 'private, max-age=86400');
      } else {
        // A completed project's body changes when a revision completes: revalidate (304).
        reply.header('cache-control', 'private, no-cache');
      }
      if (etagMatches(request.headers['if-none-match'], view.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(view.body);
    },
  );
}

/** Where a project's parts came from: GET /projects/:projectId/provenance. */
function getProjectProvenance(app: FastifyInstance, { reads }: ProjectRoutesOptions): void {
  app.get<{ Params: { projectId: string }; Querystring: { revision?: number } }>(
    '/projects/:projectId/provenance',
    {
      // Shares the status limit: it is read alongside the status, by the same clients.
      config: { operationId: 'getProjectProvenance', rateLimit: 'status' },
      schema: {
        params: projectIdParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { revision: revisionNumber },
        },
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'if-none-match': { type: 'string' } },
        },
        response: {
          200: schemaRef('ProvenanceResponse'),
          304: { type: 'null' },
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const { revision } = request.query;
      if (revision !== undefined)
        await pinnedRevision(reads, request.principal, projectId, revision);
      const provenance = await reads.provenance(
        request.principal,
        projectId.toLowerCase(),
        revision,
      );
      if (provenance === undefined) throw projectNotFound(projectId);
      const body = JSON.stringify(provenance);
      // Parts are added while the project runs; a revision changes the current one.
      const etag = etagOf(body);
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', resultCache(provenance.data.status, revision));
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}
