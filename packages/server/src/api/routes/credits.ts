import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { CreditReads } from '../../credits/reads.ts';
import { errorResponses } from './schemas.ts';

/** `GET /credits`: the calling key's balance in its mode. */
export async function creditRoutes(app: FastifyInstance, { credits }: { credits: CreditReads }) {
  app.get(
    '/credits',
    {
      config: { operationId: 'getCredits', rateLimit: 'credits' },
      schema: {
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        response: { 200: schemaRef('CreditsResponse'), ...errorResponses(400, 401, 403, 429, 500) },
      },
    },
    async (request) => {
      const { accountId, mode } = request.principal;
      const summary = await credits.summary(accountId, mode);
      return { success: true, data: { mode, ...summary } };
    },
  );
}
