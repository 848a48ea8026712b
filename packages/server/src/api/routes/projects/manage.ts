import { openapiDocument, type ProjectState, schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../../accounts/idempotency-keys.ts';
import { ApiError } from '../../../errors.ts';
import type { Projects } from '../../../projects/projects.ts';
import type { ProjectReads } from '../../../projects/reads.ts';
import type { ProjectStatusReader } from '../../../projects/status.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import { projectIdParams, projectNotFound } from './common.ts';

export interface ManageRoutesOptions {
  statusReader: ProjectStatusReader;
  projects: Projects;
  reads: ProjectReads;
  /** Where Idempotency-Key claims and answers are kept. */
  idempotency: IdempotencyKeys;
}

const parameters = openapiDocument.components.parameters;

/**
 * Listing, cancelling and deleting projects (`listProjects`, `cancelProject`,
 * `deleteProject`): always the caller's own projects, in the caller's mode.
 */
export async function manageRoutes(app: FastifyInstance, options: ManageRoutesOptions) {
  listProjects(app, options);
  cancelProject(app, options);
  deleteProject(app, options);
}

/** The caller's projects, paged: GET /projects. */
function listProjects(app: FastifyInstance, { reads }: ManageRoutesOptions): void {
  app.get<{ Querystring: { limit?: number; starting_after?: string; status?: ProjectState } }>(
    '/projects',
    {
      config: { operationId: 'listProjects', rateLimit: 'list' },
      schema: {
        // Unknown parameters are refused: a misspelt cursor would otherwise page forever.
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            limit: parameters.ListLimit.schema,
            starting_after: parameters.StartingAfter.schema,
            status: parameters.ProjectStatusFilter.schema,
          },
        },
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        response: {
          200: schemaRef('ProjectListResponse'),
          ...errorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async (request) => {
      const { limit, status, starting_after: startingAfter } = request.query;
      return reads.list(request.principal, { limit, status, startingAfter });
    },
  );
}

/** Cancels a project's creation in progress: POST /projects/:projectId/cancel. */
function cancelProject(app: FastifyInstance, { projects, idempotency }: ManageRoutesOptions): void {
  app.post<{ Params: { projectId: string } }>(
    '/projects/:projectId/cancel',
    {
      config: { operationId: 'cancelProject', rateLimit: 'manage' },
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
        },
        response: {
          200: schemaRef('ProjectCancelledResponse'),
          409: schemaRef('OperationErrorResponse'),
          422: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const id = projectId.toLowerCase();
      // The request has no body: the project is what a key must not be reused for.
      return withIdempotency(
        idempotency,
        request,
        reply,
        `cancelProject ${id}`,
        async (remember) => {
          const result = await projects.cancel(id, {
            owner: request.principal,
            withinTransaction: (tx, body) => remember(tx, { status: 200, headers: {}, body }),
          });
          switch (result.outcome) {
            case 'cancelled':
              return { status: 200, headers: {}, body: result.body };
            case 'not_found':
              throw projectNotFound(projectId);
            case 'not_in_progress':
              throw new ApiError(
                'PROJECT_NOT_IN_PROGRESS',
                `The project is already ${result.status}; only a project in progress can be cancelled.`,
                { details: { resource_type: 'project', resource_id: id, status: result.status } },
              );
            default: {
              const never: never = result;
              throw new Error(`unknown cancel outcome ${JSON.stringify(never)}`);
            }
          }
        },
      );
    },
  );
}

/** Deletes a project: DELETE /projects/:projectId. */
function deleteProject(
  app: FastifyInstance,
  { statusReader, projects }: ManageRoutesOptions,
): void {
  app.delete<{ Params: { projectId: string } }>(
    '/projects/:projectId',
    {
      config: { operationId: 'deleteProject', rateLimit: 'manage' },
      schema: {
        params: projectIdParams,
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        response: { 204: { type: 'null' }, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const id = projectId.toLowerCase();
      if (!(await projects.delete(id, { owner: request.principal })))
        throw projectNotFound(projectId);
      // This process at once; the others when the NOTIFY reaches them.
      statusReader.forget(id);
      return reply.code(204).send();
    },
  );
}
