import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { CreditReads } from '../../../credits/reads.ts';
import { errorResponses } from '../schemas.ts';

export interface AuditRoutesOptions {
  credits: CreditReads;
}

/**
 * `GET /admin/v1/audit`: every account's balances and reservations against the ledger.
 *
 * @example
 * await admin.register(auditRoutes, { credits: new CreditReads(database.db) });
 */
export async function auditRoutes(app: FastifyInstance, { credits }: AuditRoutesOptions) {
  app.get(
    '/audit',
    {
      config: { operationId: 'adminAuditLedger' },
      schema: {
        response: {
          200: schemaRef('AdminAuditResponse'),
          ...errorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async () => ({ success: true, data: await credits.audit() }),
  );
}
