import { type Conventions, schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { HouseConventions } from '../../accounts/conventions.ts';
import { errorResponses } from './schemas.ts';

const versionHeader = { type: 'object', properties: { 'api-version': { type: 'string' } } };

/**
 * House conventions (`getConventions`, `putConventions`, `getConventionsVersion`): always the
 * caller's account and mode (docs/conventions.md).
 */
export async function conventionRoutes(
  app: FastifyInstance,
  { conventions }: { conventions: HouseConventions },
) {
  app.get(
    '/conventions',
    {
      config: { operationId: 'getConventions', rateLimit: 'conventions' },
      schema: {
        headers: versionHeader,
        response: {
          200: schemaRef('ConventionsResponse'),
          ...errorResponses(400, 401, 403, 404, 408, 413, 415, 429, 500, 503),
        },
      },
    },
    async (request) => ({ success: true, data: await conventions.get(request.principal) }),
  );

  app.put<{ Body: Conventions }>(
    '/conventions',
    {
      config: { operationId: 'putConventions', rateLimit: 'conventions' },
      schema: {
        headers: versionHeader,
        body: schemaRef('ConventionsRequest'),
        response: {
          200: schemaRef('ConventionsResponse'),
          ...errorResponses(400, 401, 403, 408, 413, 415, 429, 500, 503),
        },
      },
    },
    async (request) => ({
      success: true,
      data: await conventions.put(request.principal, request.body),
    }),
  );

  app.get<{ Params: { version: number } }>(
    '/conventions/versions/:version',
    {
      config: { operationId: 'getConventionsVersion', rateLimit: 'conventions' },
      schema: {
        headers: versionHeader,
        params: {
          type: 'object',
          required: ['version'],
          additionalProperties: false,
          properties: { version: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
        },
        response: {
          200: schemaRef('ConventionsResponse'),
          ...errorResponses(400, 401, 403, 404, 408, 413, 415, 429, 500, 503),
        },
      },
    },
    async (request) => ({
      success: true,
      data: await conventions.get(request.principal, request.params.version),
    }),
  );
}
