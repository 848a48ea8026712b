import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { auditLedger } from '../../../credits/audit.ts';
import type { Db } from '../../../storage/db.ts';
import { errorResponses } from '../schemas.ts';

export interface AuditRoutesOptions {
  db: Db;
}

/**
 * `GET /admin/v1/audit`: every account's balances and reservations against the ledger.
 *
 * @example
 * await admin.register(auditRoutes, { db: database.db });
 */
export async function auditRoutes(app: FastifyInstance, { db }: AuditRoutesOptions) {
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
    async () => ({ success: true, data: await auditLedger(db) }),
  );
}
