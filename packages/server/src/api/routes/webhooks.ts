import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../accounts/idempotency-keys.ts';
import { ApiError } from '../../errors.ts';
import { newWebhookSecret } from '../../webhooks/delivery.ts';
import { MAX_WEBHOOK_ENDPOINTS, type WebhookEndpoints } from '../../webhooks/endpoints.ts';
import { checkWebhookUrl, type Resolver } from '../../webhooks/url-policy.ts';
import { withIdempotency } from '../idempotency.ts';
import { errorResponses } from './schemas.ts';

export { MAX_WEBHOOK_ENDPOINTS };
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
  endpoints: WebhookEndpoints;
  /** Where Idempotency-Key claims and answers are kept. */
  idempotency: IdempotencyKeys;
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

const publicEndpoint = (row: Awaited<ReturnType<WebhookEndpoints['list']>>[number]) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt.toISOString(),
});

const publicDelivery = (
  row: NonNullable<Awaited<ReturnType<WebhookEndpoints['deliveries']>>>[number],
) => ({
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
export async function webhookRoutes(app: FastifyInstance, options: WebhookRoutesOptions) {
  createWebhookEndpoint(app, options);
  listWebhookEndpoints(app, options);
  deleteWebhookEndpoint(app, options);
  listWebhookDeliveries(app, options);
}

/** Registers a webhook endpoint: POST /webhook-endpoints. */
function createWebhookEndpoint(
  app: FastifyInstance,
  { endpoints, idempotency, allowPrivate, resolve }: WebhookRoutesOptions,
): void {
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
      return withIdempotency(
        idempotency,
        request,
        reply,
        'createWebhookEndpoint',
        async (remember) => {
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
          const created = (row: Parameters<typeof publicEndpoint>[0]) => ({
            status: 201,
            headers: {},
            body: JSON.stringify({ success: true, data: { ...publicEndpoint(row), secret } }),
          });
          const row = await endpoints.create(
            { accountId, mode },
            { url: verdict.url.href, events: [...events], secret },
            (tx, row) => remember(tx, created(row)),
          );
          return created(row);
        },
      );
    },
  );
}

/** The caller's webhook endpoints: GET /webhook-endpoints. */
function listWebhookEndpoints(app: FastifyInstance, { endpoints }: WebhookRoutesOptions): void {
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
      const rows = await endpoints.list(request.principal);
      return { success: true, data: rows.map(publicEndpoint) };
    },
  );
}

/** Removes a webhook endpoint: DELETE /webhook-endpoints/:endpointId. */
function deleteWebhookEndpoint(app: FastifyInstance, { endpoints }: WebhookRoutesOptions): void {
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
      const { endpointId } = request.params;
      if (!(await endpoints.delete(request.principal, endpointId)))
        throw endpointNotFound(endpointId);
      return reply.code(204).send();
    },
  );
}

/** An endpoint's recent deliveries: GET /webhook-endpoints/:endpointId/deliveries. */
function listWebhookDeliveries(app: FastifyInstance, { endpoints }: WebhookRoutesOptions): void {
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
      const { endpointId } = request.params;
      const rows = await endpoints.deliveries(request.principal, endpointId, DELIVERIES_LISTED);
      if (rows === undefined) throw endpointNotFound(endpointId);
      return { success: true, data: rows.map(publicDelivery) };
    },
  );
}
