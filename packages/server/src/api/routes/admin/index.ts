import type {
  AdminCreateAccountRequest,
  AdminCreateKeyRequest,
  AdminGrantCreditsRequest,
} from '@pgs/contract';
import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../../../accounts/service.ts';
import { ApiError } from '../../../errors.ts';
import { errorResponses } from '../schemas.ts';

export interface AdminRoutesOptions {
  accounts: Accounts;
}

const notFound = (resourceType: 'account' | 'key', id: string) =>
  new ApiError('RESOURCE_NOT_FOUND', `No ${resourceType} with this identifier exists.`, {
    details: { resource_type: resourceType, resource_id: id },
  });

const idParams = (name: string, schema: 'AccountId' | 'KeyId') => ({
  type: 'object',
  required: [name],
  additionalProperties: false,
  properties: { [name]: schemaRef(schema) },
});

/** The operator API under `/admin/v1`: accounts, API keys and credit grants. */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions) {
  adminCreateAccount(app, options);
  adminGetAccount(app, options);
  adminCreateKey(app, options);
  adminRevokeKey(app, options);
  adminGrantCredits(app, options);
}

/** Opens an account: POST /admin/v1/accounts. */
function adminCreateAccount(app: FastifyInstance, { accounts }: AdminRoutesOptions): void {
  app.post<{ Body: AdminCreateAccountRequest | undefined }>(
    '/accounts',
    {
      config: { operationId: 'adminCreateAccount' },
      // The body is optional: no body means an account without a name.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        body: schemaRef('AdminCreateAccountRequest'),
        response: {
          201: schemaRef('AdminAccountResponse'),
          ...errorResponses(400, 401, 403, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const account = await accounts.createAccount({ name: request.body?.name ?? null });
      return reply.code(201).send({ success: true, data: account });
    },
  );
}

/** One account: GET /admin/v1/accounts/:accountId. */
function adminGetAccount(app: FastifyInstance, { accounts }: AdminRoutesOptions): void {
  app.get<{ Params: { accountId: string } }>(
    '/accounts/:accountId',
    {
      config: { operationId: 'adminGetAccount' },
      schema: {
        params: idParams('accountId', 'AccountId'),
        response: { 200: schemaRef('AdminAccountResponse'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const account = await accounts.getAccount(request.params.accountId);
      if (account === undefined) throw notFound('account', request.params.accountId);
      return { success: true, data: account };
    },
  );
}

/** Issues an API key: POST /admin/v1/keys. */
function adminCreateKey(app: FastifyInstance, { accounts }: AdminRoutesOptions): void {
  app.post<{ Body: AdminCreateKeyRequest }>(
    '/keys',
    {
      config: { operationId: 'adminCreateKey' },
      schema: {
        body: schemaRef('AdminCreateKeyRequest'),
        response: {
          201: schemaRef('AdminKeyCreatedResponse'),
          ...errorResponses(400, 401, 403, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const { mode, accountId, credits, name } = request.body;
      const created = await accounts.createKey({ mode, accountId, credits, name });
      return reply.code(201).send({ success: true, data: created });
    },
  );
}

/** Revokes an API key: DELETE /admin/v1/keys/:keyId. */
function adminRevokeKey(app: FastifyInstance, { accounts }: AdminRoutesOptions): void {
  app.delete<{ Params: { keyId: string } }>(
    '/keys/:keyId',
    {
      config: { operationId: 'adminRevokeKey' },
      schema: {
        params: idParams('keyId', 'KeyId'),
        response: { 200: schemaRef('AdminKeyRevokedResponse'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const key = await accounts.revokeKey(request.params.keyId);
      if (key === undefined) throw notFound('key', request.params.keyId);
      return { success: true, data: key };
    },
  );
}

/** Grants credits to an account: POST /admin/v1/credits/grants. */
function adminGrantCredits(app: FastifyInstance, { accounts }: AdminRoutesOptions): void {
  app.post<{ Body: AdminGrantCreditsRequest }>(
    '/credits/grants',
    {
      config: { operationId: 'adminGrantCredits' },
      schema: {
        body: schemaRef('AdminGrantCreditsRequest'),
        response: {
          201: schemaRef('AdminGrantResponse'),
          ...errorResponses(400, 401, 403, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const { accountId, mode, amount } = request.body;
      const balance = await accounts.grantCredits({ accountId, mode, amount });
      return reply.code(201).send({ success: true, data: { accountId, mode, amount, balance } });
    },
  );
}
