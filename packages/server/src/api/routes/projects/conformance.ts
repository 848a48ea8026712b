import { type CreateConformanceCheckRequest, schemaRef } from '@pgs/contract';
import { CONTEXT_BODY_LIMIT_BYTES } from '@pgs/contract/repository';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../../accounts/idempotency-keys.ts';
import type { ConformanceChecks } from '../../../conformance/service.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import { projectIdParams } from './common.ts';

export interface ConformanceRoutesOptions {
  checks: ConformanceChecks;
  idempotency: IdempotencyKeys;
}

const checkParams = {
  type: 'object',
  required: ['projectId', 'checkId'],
  additionalProperties: false,
  properties: {
    ...projectIdParams.properties,
    checkId: { type: 'string', pattern: '^chk_[0-9A-HJKMNP-TV-Z]{26}$' },
  },
} as const;
const headers = { type: 'object', properties: { 'api-version': { type: 'string' } } } as const;
const json = 'application/json; charset=utf-8';

/** The 202 of createConformanceCheck, as sent and as remembered for its Idempotency-Key. */
const accepted = (check: { id: string; projectId: string }) => ({
  status: 202,
  headers: { location: `/api/v1/projects/${check.projectId}/conformance/${check.id}` },
  body: JSON.stringify({ success: true, data: check }),
});

/** `/projects/{projectId}/conformance` routes of API v1 (docs/conformance.md): the rules live in `ConformanceChecks`. */
export async function conformanceRoutes(
  app: FastifyInstance,
  { checks, idempotency }: ConformanceRoutesOptions,
) {
  app.post<{ Params: { projectId: string }; Body: CreateConformanceCheckRequest }>(
    '/projects/:projectId/conformance',
    {
      config: { operationId: 'createConformanceCheck', rateLimit: 'manage' },
      // Room for a codebase digest, as createProject and createRevision.
      bodyLimit: CONTEXT_BODY_LIMIT_BYTES,
      schema: {
        params: projectIdParams,
        headers: {
          type: 'object',
          properties: { ...headers.properties, 'idempotency-key': { type: 'string' } },
        },
        body: schemaRef('CreateConformanceCheckRequest'),
        response: {
          202: schemaRef('ConformanceCheckResponse'),
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const operation = `createConformanceCheck ${projectId.toLowerCase()}`;
      return withIdempotency(idempotency, request, reply, operation, async (remember) => {
        const check = await checks.create(request.principal, projectId, request.body, {
          withinTransaction: (tx, made) => remember(tx, accepted(made)),
        });
        return accepted(check);
      });
    },
  );

  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/conformance',
    {
      config: { operationId: 'listConformanceChecks', rateLimit: 'list' },
      schema: {
        params: projectIdParams,
        headers,
        response: {
          200: schemaRef('ConformanceCheckListResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const list = await checks.list(request.principal, request.params.projectId);
      reply.header('cache-control', 'no-store');
      return reply.type(json).send({ success: true, data: list });
    },
  );

  app.get<{ Params: { projectId: string; checkId: string } }>(
    '/projects/:projectId/conformance/:checkId',
    {
      config: { operationId: 'getConformanceCheck', rateLimit: 'status' },
      schema: {
        params: checkParams,
        headers,
        response: {
          200: schemaRef('ConformanceCheckResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { projectId, checkId } = request.params;
      const check = await checks.get(request.principal, projectId, checkId);
      reply.header('cache-control', 'no-store');
      return reply.type(json).send({ success: true, data: check });
    },
  );
}

/**
 * The trace body with `conformance` added to its `data`: the latest succeeded check of the
 * revision, live state like `progress`, so its tag joins the ETag.
 *
 * @example
 * const { body, tag } = await traceWithConformance(checks, principal, projectId, 2, body);
 */
export async function traceWithConformance(
  checks: ConformanceChecks,
  principal: { accountId: string; mode: 'live' | 'test' },
  projectId: string,
  revision: number,
  trace: string,
): Promise<{ body: string; tag: string }> {
  const latest = await checks.latest(principal, projectId, revision);
  if (latest === undefined) return { body: trace, tag: '' };
  if (!trace.endsWith('}}')) throw new Error('a trace body ends its data and the envelope');
  return {
    body: `${trace.slice(0, -2)},"conformance":${JSON.stringify(latest)}}}`,
    tag: latest.checkId.slice(-10),
  };
}
