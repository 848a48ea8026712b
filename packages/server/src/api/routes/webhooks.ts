import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';
import { newUlid } from '../../ids.ts';
import type { Db } from '../../storage/db.ts';
import {
  countWebhookEndpoints,
  deleteOwnedWebhookEndpoint,
  findOwnedWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  lockWebhookOwner,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from '../../storage/sql/webhooks.ts';
import { newWebhookSecret } from '../../webhooks/delivery.ts';
import { checkWebhookUrl, type Resolver } from '../../webhooks/url-policy.ts';
import { withIdempotency } from '../idempotency.ts';
import { errorResponses } from './schemas.ts';

/** Webhook endpoints one account may have in one mode. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** Delivery attempts listed per endpoint. */
export const DELIVERIES_LISTED = 50;
export const WEBHOOK_EVENT_TYPES = [
  'project.completed',
  'project.failed',
  'project.revised',
  'task.updated',
] as const;
/**
 * What an endpoint created without `events` hears: the project's ends. `task.updated` fires
 * with every move of the work, so an endpoint hears it only when it names it (and one
 * created before it existed does not start receiving it).
 */
export const DEFAULT_WEBHOOK_EVENTS: readonly string[] = [
  'project.completed',
  'project.failed',
  'project.revised',
];

export interface WebhookRoutesOptions {
  db: Db;
  /** PGS_WEBHOOKS_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** DNS resolution of URL hosts (tests substitute one). */
  resolve?: Resolver;
}

const endpointIdParams = {
  type: 'object',
  required: ['endpointId'],
  additionalProperties: false,
  properties: { endpointId: { type: 'string', pattern: '^we_[0-9A-HJKMNP-TV-Z]{26}$' } },
} as const;
const versionHeader = { type: 'object', properties: { 'api-version': { type: 'string' } } };

const endpointNotFound = (id: string) =>
  new ApiError('RESOURCE_NOT_FOUND', 'No webhook endpoint with this identifier exists.', {
    details: { resource_type: 'webhook_endpoint', resource_id: id },
  });

const publicEndpoint = (row: WebhookEndpointRow) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt.toISOString(),
});

const publicDelivery = (row: WebhookDeliveryRow) => ({
  webhookId: row.messageId,
  eventType: row.eventType,
  projectId: row.projectId,
  attempt: row.attempt,
  statusCode: row.statusCode,
  error: row.error,
  durationMs: row.durationMs,
  attemptedAt: row.attemptedAt.toISOString(),
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  state: row.state,
});

/**
 * Webhook endpoints (`createWebhookEndpoint`, `listWebhookEndpoints`,
 * `deleteWebhookEndpoint`, `listWebhookDeliveries`): always the caller's account and mode.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  { db, allowPrivate, resolve }: WebhookRoutesOptions,
) {
  app.post<{ Body: { url: string; events?: string[] } }>(
    '/webhook-endpoints',
    {
      config: { operationId: 'createWebhookEndpoint', rateLimit: 'webhooks' },
      schema: {
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
        },
        body: schemaRef('CreateWebhookEndpointRequest'),
        response: {
          201: schemaRef('WebhookEndpointCreatedResponse'),
          ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { accountId, mode } = request.principal;
      // The secret is in the 201, so an SDK retry of a request whose answer was lost must
      // replay that 201 rather than create a second endpoint with another secret.
      return withIdempotency(db, request, reply, 'createWebhookEndpoint', async (remember) => {
        const verdict = await checkWebhookUrl(request.body.url, {
          allowPrivate,
          ...(resolve ? { resolve } : {}),
        });
        if (!verdict.ok) {
          throw new ApiError('VALIDATION_ERROR', `url ${verdict.reason}.`, {
            details: { invalid_fields: { url: verdict.reason } },
          });
        }
        const events = WEBHOOK_EVENT_TYPES.filter((type) =>
          (request.body.events ?? DEFAULT_WEBHOOK_EVENTS).includes(type),
        );
        const secret = newWebhookSecret();
        return db.transaction(async (tx) => {
          await lockWebhookOwner(tx, accountId, mode);
          if ((await countWebhookEndpoints(tx, accountId, mode)) >= MAX_WEBHOOK_ENDPOINTS) {
            throw new ApiError(
              'VALIDATION_ERROR',
              `At most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per account and mode; delete one first.`,
              { details: { limit: MAX_WEBHOOK_ENDPOINTS } },
            );
          }
          const row = await insertWebhookEndpoint(tx, {
            id: `we_${newUlid()}`,
            accountId,
            mode,
            url: verdict.url.href,
            events,
            secret,
          });
          const response = {
            status: 201,
            headers: {},
            body: JSON.stringify({ success: true, data: { ...publicEndpoint(row), secret } }),
          };
          await remember(tx, response);
          return response;
        });
      });
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { operationId: 'listWebhookEndpoints', rateLimit: 'webhooks' },
      schema: {
        headers: versionHeader,
        response: {
          200: schemaRef('WebhookEndpointListResponse'),
          ...errorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async (request) => {
      const { accountId, mode } = request.principal;
      const rows = await listWebhookEndpoints(db, accountId, mode);
      return { success: true, data: rows.map(publicEndpoint) };
    },
  );

  app.delete<{ Params: { endpointId: string } }>(
    '/webhook-endpoints/:endpointId',
    {
      config: { operationId: 'deleteWebhookEndpoint', rateLimit: 'webhooks' },
      schema: {
        params: endpointIdParams,
        headers: versionHeader,
        response: { 204: { type: 'null' }, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      const { accountId, mode } = request.principal;
      const { endpointId } = request.params;
      if (!(await deleteOwnedWebhookEndpoint(db, endpointId, accountId, mode)))
        throw endpointNotFound(endpointId);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { endpointId: string } }>(
    '/webhook-endpoints/:endpointId/deliveries',
    {
      config: { operationId: 'listWebhookDeliveries', rateLimit: 'webhooks' },
      schema: {
        params: endpointIdParams,
        headers: versionHeader,
        response: {
          200: schemaRef('WebhookDeliveryListResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request) => {
      const { accountId, mode } = request.principal;
      const { endpointId } = request.params;
      const endpoint = await findOwnedWebhookEndpoint(db, endpointId, accountId, mode);
      if (endpoint === undefined) throw endpointNotFound(endpointId);
      const rows = await listWebhookDeliveries(db, endpoint.id, DELIVERIES_LISTED);
      return { success: true, data: rows.map(publicDelivery) };
    },
  );
}
