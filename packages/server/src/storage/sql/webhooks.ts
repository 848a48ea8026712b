import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { webhookDeliveries, webhookEndpoints } from '../schema.ts';
import type { Mode } from './accounts.ts';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookDeliveryRow = typeof webhookDeliveries.$inferInsert;

const owned = (id: string, accountId: string, mode: Mode) =>
  and(
    eq(webhookEndpoints.id, id),
    eq(webhookEndpoints.accountId, accountId),
    eq(webhookEndpoints.mode, mode),
  );

export async function insertWebhookEndpoint(
  tx: Tx,
  row: typeof webhookEndpoints.$inferInsert,
): Promise<WebhookEndpointRow> {
  const [created] = await tx.insert(webhookEndpoints).values(row).returning();
  return created!;
}

/** How many endpoints an account has in a mode (the limit counts them). */
export async function countWebhookEndpoints(tx: Tx, accountId: string, mode: Mode) {
  const [row] = await tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.mode, mode)));
  return row?.n ?? 0;
}

/** An account's endpoints in a mode, oldest first. */
export async function listWebhookEndpoints(
  tx: Tx,
  accountId: string,
  mode: Mode,
): Promise<WebhookEndpointRow[]> {
  return tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.mode, mode)))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
}

/** The endpoint with this id, only if it belongs to this account and mode. */
export async function findOwnedWebhookEndpoint(
  tx: Tx,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(owned(id, accountId, mode));
  return row;
}

export async function findWebhookEndpoint(
  tx: Tx,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

/** Deletes an endpoint (and its delivery log); false when it is not the owner's. */
export async function deleteOwnedWebhookEndpoint(
  tx: Tx,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<boolean> {
  const deleted = await tx
    .delete(webhookEndpoints)
    .where(owned(id, accountId, mode))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}

/** The endpoints of an account and mode subscribed to an event type. */
export async function listSubscribedEndpoints(
  tx: Tx,
  accountId: string,
  mode: Mode,
  eventType: string,
): Promise<Pick<WebhookEndpointRow, 'id'>[]> {
  return tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.accountId, accountId),
        eq(webhookEndpoints.mode, mode),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([eventType])}::jsonb`,
      ),
    );
}

export async function insertWebhookDelivery(tx: Tx, row: NewWebhookDeliveryRow): Promise<void> {
  await tx.insert(webhookDeliveries).values(row);
}

/** An endpoint's most recent delivery attempts, newest first. */
export async function listWebhookDeliveries(
  tx: Tx,
  endpointId: string,
  limit = 50,
): Promise<WebhookDeliveryRow[]> {
  return tx
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * Deletes at most `batch` delivery attempts made before `before`; returns how many. Small
 * batches keep each statement short (PGlite runs one at a time, on the server's thread).
 */
export async function deleteWebhookDeliveriesBefore(
  tx: Tx,
  before: Date,
  batch: number,
): Promise<number> {
  const old = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(lt(webhookDeliveries.attemptedAt, before))
    .limit(batch);
  const rows = await tx
    .delete(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, old))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/** Serializes endpoint creation per account and mode (to the end of `tx`), so the limit holds. */
export async function lockWebhookOwner(tx: Tx, accountId: string, mode: Mode): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks ${accountId} ${mode}`}))`);
}
