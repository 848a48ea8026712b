import { openapiDocument, schemaRef } from '@pgs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IdempotencyKeys, StoredResponse } from '../../accounts/idempotency-keys.ts';
import { ApiError } from '../../errors.ts';
import type { RateLimiter } from '../../limits/rate-limiter.ts';
import type {
  Connections,
  ConnectionView,
  CreateConnectionInput,
} from '../../trackers/connections.ts';
import { type InboundDeps, receiveDelivery } from '../../trackers/inbound.ts';
import { withIdempotency } from '../idempotency.ts';
import { withoutStack } from '../plugins/errors.ts';
import { rateLimitError } from '../plugins/rate-limit.ts';
import { closedQuery } from '../query.ts';
import { errorResponses } from './schemas.ts';

export interface ConnectionRoutesOptions {
  connections: Connections;
  /** Where Idempotency-Key claims and answers are kept. */
  idempotency: IdempotencyKeys;
  /**
   * Where trackers reach this server (`PGS_PUBLIC_URL`); absent, the request's own
   * protocol and host, which on a local `npm start` no tracker can reach.
   */
  publicUrl?: string | undefined;
}

const connectionParams = {
  type: 'object',
  required: ['connectionId'],
  additionalProperties: false,
  properties: { connectionId: openapiDocument.components.parameters.ConnectionId.schema },
} as const;
const versionHeader = { type: 'object', properties: { 'api-version': { type: 'string' } } };

/**
 * Where the tracker is to send its deliveries: the public address when configured, else
 * this server as the request reached it (behind a trusted proxy, its forwarded host).
 */
function webhookUrl(request: FastifyRequest, publicUrl: string | undefined, id: string): string {
  const origin = publicUrl ?? `${request.protocol}://${request.host}`;
  return `${origin}/api/v1/connections/${id}/webhook`;
}

const shown = (request: FastifyRequest, publicUrl: string | undefined, view: ConnectionView) => ({
  ...view,
  webhookUrl: webhookUrl(request, publicUrl, view.id),
});

/** A remembered 201 with its sealed webhook secret opened (see createConnection). */
async function openReplayed(connections: Connections, stored: StoredResponse) {
  const body = JSON.parse(stored.body) as {
    data?: { connection?: { id?: string }; webhook?: { secret?: string } };
  };
  const id = body.data?.connection?.id;
  const webhook = body.data?.webhook;
  if (id === undefined || webhook?.secret === undefined) return stored;
  webhook.secret = await connections.openForReplay(id, webhook.secret);
  return { ...stored, body: JSON.stringify(body) };
}

/**
 * Tracker connections (`createConnection`, `listConnections`, `getConnection`,
 * `deleteConnection`): always the caller's account and mode.
 */
export async function connectionRoutes(app: FastifyInstance, options: ConnectionRoutesOptions) {
  createConnection(app, options);
  listConnections(app, options);
  getConnection(app, options);
  deleteConnection(app, options);
}

/** Connects a tracker to the caller's account: POST /connections. */
function createConnection(
  app: FastifyInstance,
  { connections, idempotency, publicUrl }: ConnectionRoutesOptions,
): void {
  app.post<{ Body: CreateConnectionInput }>(
    '/connections',
    {
      config: { operationId: 'createConnection', rateLimit: 'connections' },
      schema: {
        headers: {
          type: 'object',
          properties: { 'api-version': { type: 'string' }, 'idempotency-key': { type: 'string' } },
        },
        body: schemaRef('CreateConnectionRequest'),
        response: {
          201: schemaRef('ConnectionCreatedResponse'),
          409: schemaRef('OperationErrorResponse'),
          422: schemaRef('OperationErrorResponse'),
          502: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 413, 415, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { accountId, mode } = request.principal;
      // The webhook secret is in the 201: a retry whose answer was lost replays that 201
      // rather than make a second connection with another secret. The stored copy (kept
      // 24 h) carries the secret sealed, opened again only to replay it.
      type Made = Awaited<ReturnType<Connections['create']>>;
      const created = (made: Made, secret: string) => ({
        status: 201,
        headers: {},
        body: JSON.stringify({
          success: true,
          data: {
            connection: shown(request, publicUrl, made.connection),
            webhook: {
              url: webhookUrl(request, publicUrl, made.connection.id),
              secret,
              help: made.webhookHelp,
            },
          },
        }),
      });
      return withIdempotency(
        idempotency,
        request,
        reply,
        'createConnection',
        async (remember) => {
          const made = await connections.create(
            { accountId, mode },
            request.body,
            async (tx, made) =>
              remember(
                tx,
                created(
                  made,
                  await connections.sealForReplay(made.connection.id, made.webhookSecret),
                ),
              ),
          );
          return created(made, made.webhookSecret);
        },
        async (stored) => openReplayed(connections, stored),
      );
    },
  );
}

/** The caller's tracker connections: GET /connections. */
function listConnections(
  app: FastifyInstance,
  { connections, publicUrl }: ConnectionRoutesOptions,
): void {
  app.get(
    '/connections',
    {
      config: { operationId: 'listConnections', rateLimit: 'connections' },
      schema: {
        headers: versionHeader,
        response: {
          200: schemaRef('ConnectionListResponse'),
          ...errorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async (request) => {
      const views = await connections.list(request.principal);
      return { success: true, data: views.map((view) => shown(request, publicUrl, view)) };
    },
  );
}

/** One tracker connection: GET /connections/:connectionId. */
function getConnection(
  app: FastifyInstance,
  { connections, publicUrl }: ConnectionRoutesOptions,
): void {
  app.get<{ Params: { connectionId: string } }>(
    '/connections/:connectionId',
    {
      config: { operationId: 'getConnection', rateLimit: 'connections' },
      schema: {
        params: connectionParams,
        headers: versionHeader,
        response: {
          200: schemaRef('ConnectionResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request) => {
      const view = await connections.get(request.principal, request.params.connectionId);
      return { success: true, data: shown(request, publicUrl, view) };
    },
  );
}

/** Removes a tracker connection: DELETE /connections/:connectionId. */
function deleteConnection(app: FastifyInstance, { connections }: ConnectionRoutesOptions): void {
  app.delete<{ Params: { connectionId: string } }>(
    '/connections/:connectionId',
    {
      config: { operationId: 'deleteConnection', rateLimit: 'connections' },
      schema: {
        params: connectionParams,
        headers: versionHeader,
        response: { 204: { type: 'null' }, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (request, reply) => {
      await connections.delete(request.principal, request.params.connectionId);
      return reply.code(204).send();
    },
  );
}

export interface TrackerWebhookOptions {
  inbound: InboundDeps;
  /** Counts refused deliveries per client address (the failed-authentication limit). */
  failures: RateLimiter;
}

/** A refused delivery counts as a failed authentication of its address. */
async function refusal(request: FastifyRequest, failures: RateLimiter, error: ApiError) {
  const decision = await failures.consume(request.ip);
  if (!decision.allowed) {
    return rateLimitError(decision, 'Too many refused webhook deliveries from this address.');
  }
  return error;
}

/**
 * `receiveTrackerWebhook`: registered outside the API key's scope (the tracker has no key),
 * authenticated by the provider's signature over the raw body, which this scope keeps as
 * bytes (its own content-type parser; the JSON parser of the API would re-serialise).
 */
export async function trackerWebhookRoutes(
  app: FastifyInstance,
  { inbound, failures }: TrackerWebhookOptions,
) {
  // A parameter the route does not read is refused here too, as in the API's own scope.
  app.addHook('onRoute', closedQuery);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post<{ Params: { connectionId: string } }>(
    '/connections/:connectionId/webhook',
    {
      config: { operationId: 'receiveTrackerWebhook' },
      schema: {
        params: connectionParams,
        response: {
          200: schemaRef('TrackerDeliveryResponse'),
          401: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 403, 404, 408, 413, 415, 429, 500),
        },
      },
    },
    async (request) => {
      const { connectionId } = request.params;
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const result = await receiveDelivery(inbound, connectionId, headers, body);
      if (result.kind === 'unknown_connection') {
        throw await refusal(
          request,
          failures,
          new ApiError('RESOURCE_NOT_FOUND', 'No connection with this identifier exists.', {
            details: { resource_type: 'connection', resource_id: connectionId },
          }),
        );
      }
      if (result.kind === 'refused') {
        // The reason stays in the log: the answer tells an attacker nothing more.
        request.log.info({ connectionId, reason: result.reason }, 'tracker delivery refused');
        throw await refusal(
          request,
          failures,
          withoutStack(() => new ApiError('WEBHOOK_SIGNATURE_INVALID', 'Signature invalid.')),
        );
      }
      return {
        success: true,
        data: {
          deliveryId: result.deliveryId,
          replayed: result.replayed,
          moved: result.moves,
          ignored: result.ignored,
        },
      };
    },
  );
}
