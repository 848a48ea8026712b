import { type ProjectContext, schemaRef } from '@pgs/contract';
import { CONTEXT_BODY_LIMIT_BYTES } from '@pgs/contract/repository';
import type { FastifyInstance } from 'fastify';
import { InsufficientCreditsError } from '../../../credits/ledger.ts';
import { ApiError } from '../../../errors.ts';
import { holdUntil, type ProjectEventHub } from '../../../events/hub.ts';
import { documentDiff, unifiedDiff } from '../../../export/diff.ts';
import { etagOf } from '../../../projects/result.ts';
import {
  completedRevision,
  ownedProject,
  revisionHistory,
  revisionStatus,
} from '../../../projects/revision-reads.ts';
import type { CreateRevisionOutcome, Revisions } from '../../../projects/revisions.ts';
import type { Simulation } from '../../../runs/estimate.ts';
import type { Db } from '../../../storage/db.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import { closedSignal, etagMatches, pollHint, projectIdParams, projectNotFound } from './common.ts';
import { preparedContext } from './context.ts';
import { preferredWait } from './index.ts';
import { pinnedRevision, revisionNotFound, revisionNumber } from './revision-reads.ts';

export interface RevisionRoutesOptions {
  revisions: Revisions;
  db: Db;
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

/** The revision routes of API v1 (docs/revisions.md). */
export async function revisionRoutes(
  app: FastifyInstance,
  { revisions, db, events, now = Date.now }: RevisionRoutesOptions,
) {
  app.post<{
    Params: { projectId: string };
    Body: {
      changeRequest: string;
      simulate?: { outcome: Simulation['outcome']; durationMs?: number };
      context?: ProjectContext;
    };
  }>(
    '/projects/:projectId/revisions',
    {
      config: { operationId: 'createRevision', rateLimit: 'create' },
      // Room for a codebase digest (`context`); every other route keeps the global limit.
      bodyLimit: CONTEXT_BODY_LIMIT_BYTES,
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
        },
        body: schemaRef('CreateRevisionRequest'),
        response: {
          202: schemaRef('RevisionAcceptedResponse'),
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 402, 403, 404, 413, 415, 422, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const id = projectId.toLowerCase();
      const { changeRequest, simulate, context } = request.body;
      if (changeRequest.trim() === '') {
        throw new ApiError('VALIDATION_ERROR', 'changeRequest must say what to change.', {
          details: { invalid_fields: { changeRequest: 'must not be blank' } },
        });
      }
      if (simulate !== undefined && request.principal.mode !== 'test') {
        throw new ApiError('VALIDATION_ERROR', 'simulate is only available with test keys.', {
          details: {
            invalid_fields: { simulate: 'is only available with test keys (pgs_test_…)' },
          },
        });
      }
      // Checked and redacted before anything is claimed or stored: the raw text goes no further.
      const repository = await preparedContext(context);
      const respond = (created: Extract<CreateRevisionOutcome, { outcome: 'created' }>) => ({
        status: 202,
        headers: {
          location: `/api/v1/projects/${id}/revisions/${created.revision}`,
          'retry-after': String(pollHint(created.estimatedCompletionMs)),
        },
        body: JSON.stringify({
          success: true,
          data: {
            projectId: id,
            revision: created.revision,
            status: 'in_progress',
            estimatedCompletionMs: created.estimatedCompletionMs,
          },
        }),
      });
      return withIdempotency(db, request, reply, `createRevision ${id}`, async (remember) => {
        let outcome: CreateRevisionOutcome;
        try {
          outcome = await revisions.create(
            request.principal,
            id,
            {
              changeRequest,
              simulate: simulate && {
                outcome: simulate.outcome,
                durationMs: simulate.durationMs ?? 0,
              },
              repository,
            },
            { withinTransaction: (tx, created) => remember(tx, respond(created)) },
          );
        } catch (error) {
          if (error instanceof InsufficientCreditsError) {
            throw new ApiError(
              'INSUFFICIENT_CREDITS',
              error.message.replace('project', 'revision'),
              {
                details: { required: error.required, available: error.available },
              },
            );
          }
          throw error;
        }
        switch (outcome.outcome) {
          case 'created':
            return respond(outcome);
          case 'not_found':
            throw projectNotFound(projectId);
          case 'not_completed':
            throw new ApiError(
              'PROJECT_NOT_COMPLETED',
              outcome.status === 'in_progress'
                ? 'The project is still being generated; only a completed project can be revised.'
                : 'The project failed; only a completed project can be revised.',
              { details: { resource_type: 'project', resource_id: id, status: outcome.status } },
            );
          case 'revision_in_progress':
            throw new ApiError(
              'REVISION_IN_PROGRESS',
              `Revision ${outcome.revision} of this project is still running; wait for it to end or cancel it first.`,
              {
                details: { resource_type: 'project', resource_id: id, revision: outcome.revision },
              },
            );
          case 'not_grounded':
            throw new ApiError(
              'VALIDATION_ERROR',
              'This project was created without a codebase: create a grounded project (with context) to describe one.',
              {
                details: {
                  invalid_fields: {
                    context:
                      'this project was created without a codebase: create a grounded project',
                  },
                },
              },
            );
          default: {
            const never: never = outcome;
            throw new Error(`unknown outcome ${JSON.stringify(never)}`);
          }
        }
      });
    },
  );

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
      const project = await ownedProject(
        db,
        request.principal,
        request.params.projectId.toLowerCase(),
      );
      if (project === undefined) throw projectNotFound(request.params.projectId);
      const body = JSON.stringify({ success: true, data: await revisionHistory(db, project) });
      // Changes whenever a revision starts or ends: revalidate, by the body's own ETag.
      const etag = etagOf(body);
      reply.header('etag', etag);
      reply.header('vary', 'Authorization');
      reply.header('cache-control', 'private, no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

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
        const project = await ownedProject(db, request.principal, id);
        if (project === undefined) throw projectNotFound(projectId);
        const data = await revisionStatus(db, project, revision, now());
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
      return withIdempotency(db, request, reply, operation, async (remember) => {
        const bodyOf = async () => {
          const project = await ownedProject(db, request.principal, id);
          const data = project && (await revisionStatus(db, project, revision, now()));
          return JSON.stringify({ success: true, data });
        };
        const result = await revisions.cancel(id, revision, {
          owner: request.principal,
        });
        switch (result.outcome) {
          case 'cancelled': {
            const body = await bodyOf();
            const response = { status: 200, headers: {}, body };
            await db.transaction((tx) => remember(tx, response));
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
      const after = await pinnedRevision(db, request.principal, projectId, revision);
      let before: { filename: string; content: string }[] = [];
      let baseRevision = 0;
      if (from !== undefined) {
        // Any completed revision before it: the range's changes in one diff.
        before = (await pinnedRevision(db, request.principal, projectId, from)).data.project
          .documents;
        baseRevision = from;
      } else if (revision > 1) {
        const project = (await ownedProject(db, request.principal, projectId.toLowerCase()))!;
        // The revision before it that completed (a failed one in between changed nothing).
        for (let base = revision - 1; base >= 1; base--) {
          const found = await completedRevision(db, project, base);
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
