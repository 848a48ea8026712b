import { type CreateRevisionRequest, schemaRef } from '@pgs/contract';
import { CONTEXT_BODY_LIMIT_BYTES } from '@pgs/contract/repository';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../../accounts/idempotency-keys.ts';
import { ApiError } from '../../../errors.ts';
import { holdUntil, type ProjectEventHub } from '../../../events/hub.ts';
import { documentDiff, unifiedDiff } from '../../../export/diff.ts';
import type { ProjectReads } from '../../../projects/reads.ts';
import { etagOf } from '../../../projects/result.ts';
import type { CreatedRevision, Revisions } from '../../../projects/revisions.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import { closedSignal, etagMatches, pollHint, projectIdParams, projectNotFound } from './common.ts';
import { preferredWait } from './index.ts';
import { pinnedRevision, revisionNotFound, revisionNumber } from './revision-reads.ts';

export interface RevisionRoutesOptions {
  revisions: Revisions;
  reads: ProjectReads;
  /** Where Idempotency-Key claims and answers are kept. */
  idempotency: IdempotencyKeys;
  events: ProjectEventHub;
  now?: () => number;
}

const revisionParams = {
  type: 'object',
  required: ['projectId', 'revision'],
  additionalProperties: false,
  properties: { ...projectIdParams.properties, revision: revisionNumber },
} as const;

type Params = { projectId: string; revision: number };

/** The 202 of createRevision (and answerQuestions), as sent and as remembered for its Idempotency-Key. */
export const revisionAccepted = (created: CreatedRevision) => ({
  status: 202,
  headers: {
    location: `/api/v1/projects/${created.projectId}/revisions/${created.revision}`,
    'retry-after': String(pollHint(created.estimatedCompletionMs)),
  },
  body: JSON.stringify({
    success: true,
    data: {
      projectId: created.projectId,
      revision: created.revision,
      status: 'in_progress',
      estimatedCompletionMs: created.estimatedCompletionMs,
    },
  }),
});

/**
 * The schema of a route that starts a revision of a project, whose answer is revisionAccepted's:
 * `schema: revisionStartSchema('AnswerQuestionsRequest')`.
 */
export const revisionStartSchema = (body: 'CreateRevisionRequest' | 'AnswerQuestionsRequest') => ({
  params: projectIdParams,
  headers: {
    type: 'object',
    properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
  },
  body: schemaRef(body),
  response: {
    202: schemaRef('RevisionAcceptedResponse'),
    409: schemaRef('OperationErrorResponse'),
    ...errorResponses(400, 401, 402, 403, 404, 413, 415, 422, 429, 500),
  },
});

/** The revision routes of API v1 (docs/revisions.md). */
export async function revisionRoutes(app: FastifyInstance, options: RevisionRoutesOptions) {
  createRevision(app, options);
  listRevisions(app, options);
  getRevision(app, options);
  cancelRevision(app, options);
  getRevisionDiff(app, options);
}

/** Starts a revision of a project: POST /projects/:projectId/revisions. */
function createRevision(
  app: FastifyInstance,
  { revisions, idempotency }: RevisionRoutesOptions,
): void {
  app.post<{ Params: { projectId: string }; Body: CreateRevisionRequest }>(
    '/projects/:projectId/revisions',
    {
      config: { operationId: 'createRevision', rateLimit: 'create' },
      // Room for a codebase digest (`context`); every other route keeps the global limit.
      bodyLimit: CONTEXT_BODY_LIMIT_BYTES,
      schema: revisionStartSchema('CreateRevisionRequest'),
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const input = await revisions.admit(request.principal, request.body);
      const operation = `createRevision ${projectId.toLowerCase()}`;
      return withIdempotency(idempotency, request, reply, operation, async (remember) =>
        revisionAccepted(
          await revisions.create(request.principal, projectId, input, {
            withinTransaction: (tx, created) => remember(tx, revisionAccepted(created)),
          }),
        ),
      );
    },
  );
}

/** A project's revisions: GET /projects/:projectId/revisions. */
function listRevisions(app: FastifyInstance, { reads }: RevisionRoutesOptions): void {
  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/revisions',
    {
      // A project's history is read like its status, by the clients that poll it (one
      // project, a handful of rows), not paged like the listing: the status limit.
      config: { operationId: 'listRevisions', rateLimit: 'status' },
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'if-none-match': { type: 'string' } },
        },
        response: {
          200: schemaRef('RevisionListResponse'),
          304: { type: 'null' },
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const project = await reads.owned(request.principal, request.params.projectId.toLowerCase());
      if (project === undefined) throw projectNotFound(request.params.projectId);
      const body = JSON.stringify({ success: true, data: await reads.history(project) });
      // Changes whenever a revision starts or ends: revalidate, by the body's own ETag.
      const etag = etagOf(body);
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', 'private, no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}

/** One revision's status, long-polled with `Prefer: wait`: GET /projects/:projectId/revisions/:revision. */
function getRevision(
  app: FastifyInstance,
  { reads, events, now = Date.now }: RevisionRoutesOptions,
): void {
  app.get<{ Params: Params }>(
    '/projects/:projectId/revisions/:revision',
    {
      config: { operationId: 'getRevision', rateLimit: 'status' },
      schema: {
        params: revisionParams,
        headers: {
          type: 'object',
          properties: {
            'api-version': { type: 'string' },
            'if-none-match': { type: 'string' },
            prefer: { type: 'string' },
          },
        },
        response: {
          200: schemaRef('RevisionResponse'),
          304: { type: 'null' },
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId, revision } = request.params;
      const id = projectId.toLowerCase();
      const read = async () => {
        const project = await reads.owned(request.principal, id);
        if (project === undefined) throw projectNotFound(projectId);
        const data = await reads.revisionStatus(project, revision, now());
        if (data === undefined) throw revisionNotFound(projectId, revision);
        return data;
      };
      let data = await read();
      const wait = preferredWait(request.headers.prefer);
      if (wait !== undefined) {
        reply.header('preference-applied', `wait=${wait}`);
        if (data.status === 'in_progress') {
          const held = await holdUntil(
            events,
            id,
            wait * 1000,
            closedSignal(reply),
            () => read().catch(() => undefined),
            (d) => d?.status !== 'in_progress',
          );
          data = held ?? data;
        }
      }
      const body = JSON.stringify({ success: true, data });
      const etag = etagOf(body);
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      if (data.status === 'in_progress') {
        reply.header('cache-control', 'no-cache');
        reply.header('retry-after', pollHint(Number(data.estimatedCompletionMs ?? 0)));
      } else {
        // An ended revision never changes.
        reply.header('cache-control', 'private, max-age=86400, immutable');
      }
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
}

/** Cancels a revision in progress: POST /projects/:projectId/revisions/:revision/cancel. */
function cancelRevision(
  app: FastifyInstance,
  { revisions, reads, idempotency, now = Date.now }: RevisionRoutesOptions,
): void {
  app.post<{ Params: Params }>(
    '/projects/:projectId/revisions/:revision/cancel',
    {
      config: { operationId: 'cancelRevision', rateLimit: 'manage' },
      schema: {
        params: revisionParams,
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
        },
        response: {
          200: schemaRef('RevisionResponse'),
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId, revision } = request.params;
      const id = projectId.toLowerCase();
      const operation = `cancelRevision ${id}/${revision}`;
      return withIdempotency(idempotency, request, reply, operation, async () => {
        const bodyOf = async () => {
          const project = await reads.owned(request.principal, id);
          const data = project && (await reads.revisionStatus(project, revision, now()));
          return JSON.stringify({ success: true, data });
        };
        const result = await revisions.cancel(id, revision, {
          owner: request.principal,
        });
        switch (result.outcome) {
          case 'cancelled': {
            const body = await bodyOf();
            const response = { status: 200, headers: {}, body };
            return response;
          }
          case 'project_not_found':
            throw projectNotFound(projectId);
          case 'revision_not_found':
            throw revisionNotFound(projectId, revision);
          case 'creation_in_progress':
            throw new ApiError(
              'PROJECT_NOT_COMPLETED',
              `Revision 1 is the project's creation, still in progress: cancel it with POST /api/v1/projects/${id}/cancel.`,
              {
                details: {
                  resource_type: 'revision',
                  resource_id: `${id}/revisions/1`,
                  status: 'in_progress',
                },
              },
            );
          case 'not_in_progress':
            throw new ApiError(
              'PROJECT_NOT_IN_PROGRESS',
              `Revision ${revision} has already ended (${result.status}); only a revision in progress can be cancelled.`,
              {
                details: {
                  resource_type: 'revision',
                  resource_id: `${id}/revisions/${revision}`,
                  status: result.status,
                },
              },
            );
          default: {
            const never: never = result;
            throw new Error(`unknown outcome ${JSON.stringify(never)}`);
          }
        }
      });
    },
  );
}

/** What a revision changed, as a unified diff or JSON: GET /projects/:projectId/revisions/:revision/diff. */
function getRevisionDiff(app: FastifyInstance, { reads }: RevisionRoutesOptions): void {
  app.get<{ Params: Params; Querystring: { format?: 'diff' | 'json'; from?: number } }>(
    '/projects/:projectId/revisions/:revision/diff',
    {
      config: { operationId: 'getRevisionDiff', rateLimit: 'downloads' },
      schema: {
        params: revisionParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { format: { type: 'string', enum: ['diff', 'json'] }, from: revisionNumber },
        },
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'if-none-match': { type: 'string' } },
        },
        response: {
          200: {},
          304: { type: 'null' },
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId, revision } = request.params;
      const { from } = request.query;
      if (from !== undefined && from >= revision) {
        throw new ApiError('VALIDATION_ERROR', 'from must name a revision before this one.', {
          details: { invalid_fields: { from: `must be below ${revision}` } },
        });
      }
      const after = await pinnedRevision(reads, request.principal, projectId, revision);
      let before: { filename: string; content: string }[] = [];
      let baseRevision = 0;
      if (from !== undefined) {
        // Any completed revision before it: the range's changes in one diff.
        before = (await pinnedRevision(reads, request.principal, projectId, from)).data.project
          .documents;
        baseRevision = from;
      } else if (revision > 1) {
        const project = (await reads.owned(request.principal, projectId.toLowerCase()))!;
        // The revision before it that completed (a failed one in between changed nothing).
        for (let base = revision - 1; base >= 1; base--) {
          const found = await reads.completedRevision(project, base);
          if (found !== undefined) {
            before = found.data.project.documents;
            baseRevision = base;
            break;
          }
        }
      }
      const files = documentDiff(before, after.data.project.documents);
      const json = request.query.format === 'json';
      const etag = `"d${json ? 'j' : 'u'}${baseRevision}-${after.etag.replace(/"/g, '')}"`;
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', 'private, max-age=86400, immutable');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      if (json) {
        return reply.type('application/json; charset=utf-8').send(
          JSON.stringify({
            success: true,
            data: { projectId: projectId.toLowerCase(), revision, base: baseRevision, files },
          }),
        );
      }
      return reply.type('text/x-diff; charset=utf-8').send(unifiedDiff(files));
    },
  );
}
