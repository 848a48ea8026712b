/**
 * Tracker connections, their inbound deliveries and the links of items to issues
 * (docs/trackers.md). Connections, deliveries and the reads of links belong to the
 * connection service (`trackers/`); the sync's own writes of links and syncs sit below.
 */
import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { trackerConnections, trackerDeliveries, trackerLinks } from '../schema.ts';
import type { Mode } from './accounts.ts';

export type TrackerConnectionRow = typeof trackerConnections.$inferSelect;
export type NewTrackerConnectionRow = typeof trackerConnections.$inferInsert;
export type TrackerLinkRow = typeof trackerLinks.$inferSelect;

const owned = (id: string, accountId: string, mode: Mode) =>
  and(
    eq(trackerConnections.id, id),
    eq(trackerConnections.accountId, accountId),
    eq(trackerConnections.mode, mode),
  );

export async function insertTrackerConnection(
  tx: Tx,
  row: NewTrackerConnectionRow,
): Promise<TrackerConnectionRow> {
  const [created] = await tx.insert(trackerConnections).values(row).returning();
  return created!;
}

/** How many connections an account has in a mode (the limit counts them). */
export async function countTrackerConnections(tx: Tx, accountId: string, mode: Mode) {
  const [row] = await tx
    .select({ n: count() })
    .from(trackerConnections)
    .where(and(eq(trackerConnections.accountId, accountId), eq(trackerConnections.mode, mode)));
  return row?.n ?? 0;
}

/** Serializes connection creation per account and mode (to the end of `tx`), so the limit holds. */
export async function lockTrackerOwner(tx: Tx, accountId: string, mode: Mode): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trackers ${accountId} ${mode}`}))`);
}

/** An account's connections in a mode, oldest first. */
export async function listTrackerConnections(
  tx: Tx,
  accountId: string,
  mode: Mode,
): Promise<TrackerConnectionRow[]> {
  return tx
    .select()
    .from(trackerConnections)
    .where(and(eq(trackerConnections.accountId, accountId), eq(trackerConnections.mode, mode)))
    .orderBy(trackerConnections.createdAt, trackerConnections.id);
}

/** The connection with this id, only if it belongs to this account and mode. */
export async function findOwnedTrackerConnection(
  tx: Tx,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<TrackerConnectionRow | undefined> {
  const [row] = await tx
    .select()
    .from(trackerConnections)
    .where(owned(id, accountId, mode));
  return row;
}

/** The connection with this id, whoever owns it (the inbound webhook, the reconcile). */
export async function findTrackerConnection(
  tx: Tx,
  id: string,
): Promise<TrackerConnectionRow | undefined> {
  const [row] = await tx.select().from(trackerConnections).where(eq(trackerConnections.id, id));
  return row;
}

/** Deletes a connection (its links, syncs and deliveries cascade); false when not the owner's. */
export async function deleteOwnedTrackerConnection(
  tx: Tx,
  id: string,
  accountId: string,
  mode: Mode,
): Promise<boolean> {
  const deleted = await tx
    .delete(trackerConnections)
    .where(owned(id, accountId, mode))
    .returning({ id: trackerConnections.id });
  return deleted.length > 0;
}

/** Every connection's id and sealed secrets (the re-seal after a key rotation). */
export async function listSealedConnections(
  tx: Tx,
): Promise<Pick<TrackerConnectionRow, 'id' | 'credentials' | 'webhookSecret'>[]> {
  return tx
    .select({
      id: trackerConnections.id,
      credentials: trackerConnections.credentials,
      webhookSecret: trackerConnections.webhookSecret,
    })
    .from(trackerConnections)
    .orderBy(trackerConnections.id);
}

/** Replaces a connection's sealed secrets, only if they are still `was` (a re-seal race). */
export async function resealConnection(
  tx: Tx,
  id: string,
  was: { credentials: string; webhookSecret: string },
  now: { credentials: string; webhookSecret: string },
): Promise<boolean> {
  const rows = await tx
    .update(trackerConnections)
    .set(now)
    .where(
      and(
        eq(trackerConnections.id, id),
        eq(trackerConnections.credentials, was.credentials),
        eq(trackerConnections.webhookSecret, was.webhookSecret),
      ),
    )
    .returning({ id: trackerConnections.id });
  return rows.length > 0;
}

/**
 * Claims a connection due for reconcile (never reconciled, or last before `dueBefore`) by
 * setting its `reconciledAt` to `now`; processes that reconcile at once each claim different
 * connections. Undefined when none is due.
 */
export async function claimDueConnection(
  tx: Tx,
  dueBefore: Date,
  now: Date,
): Promise<TrackerConnectionRow | undefined> {
  const due = tx
    .select({ id: trackerConnections.id })
    .from(trackerConnections)
    .where(
      or(isNull(trackerConnections.reconciledAt), lt(trackerConnections.reconciledAt, dueBefore)),
    )
    .orderBy(sql`${trackerConnections.reconciledAt} asc nulls first`, trackerConnections.id)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await tx
    .update(trackerConnections)
    .set({ reconciledAt: now })
    .where(eq(trackerConnections.id, sql`(${due})`))
    .returning();
  return row;
}

/** Records a delivery; false when the connection already had it (a replay). */
export async function insertTrackerDelivery(
  tx: Tx,
  connectionId: string,
  deliveryId: string,
  receivedAt: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(trackerDeliveries)
    .values({ connectionId, deliveryId, receivedAt })
    .onConflictDoNothing()
    .returning({ deliveryId: trackerDeliveries.deliveryId });
  return rows.length > 0;
}

/** Deletes deliveries received before `before` (the retention sweep); returns how many. */
export async function deleteTrackerDeliveriesBefore(tx: Tx, before: Date): Promise<number> {
  const rows = await tx
    .delete(trackerDeliveries)
    .where(lt(trackerDeliveries.receivedAt, before))
    .returning({ deliveryId: trackerDeliveries.deliveryId });
  return rows.length;
}

/** The links of a connection to one external issue (an issue may serve several projects). */
export async function findLinksByExternalId(
  tx: Tx,
  connectionId: string,
  externalId: string,
): Promise<TrackerLinkRow[]> {
  return tx
    .select()
    .from(trackerLinks)
    .where(
      and(eq(trackerLinks.connectionId, connectionId), eq(trackerLinks.externalId, externalId)),
    )
    .orderBy(trackerLinks.projectId, trackerLinks.itemId);
}

/** Every link of a connection to a task (`T-n`), for the reconcile. */
export async function listTaskLinks(tx: Tx, connectionId: string): Promise<TrackerLinkRow[]> {
  return tx
    .select()
    .from(trackerLinks)
    .where(and(eq(trackerLinks.connectionId, connectionId), sql`${trackerLinks.itemId} like 'T-%'`))
    .orderBy(trackerLinks.projectId, trackerLinks.itemId);
}

/**
 * One link's row, locked to the end of `tx` (`FOR UPDATE`): a delivery or a reconcile holds it
 * from its newest-wins check to its record of what it saw, so two changes of one issue are
 * weighed one after the other. Undefined when the link is gone (its connection was deleted).
 */
export async function lockTrackerLink(
  tx: Tx,
  link: Pick<TrackerLinkRow, 'connectionId' | 'projectId' | 'itemId'>,
): Promise<TrackerLinkRow | undefined> {
  const [row] = await tx
    .select()
    .from(trackerLinks)
    .where(
      and(
        eq(trackerLinks.connectionId, link.connectionId),
        eq(trackerLinks.projectId, link.projectId),
        eq(trackerLinks.itemId, link.itemId),
      ),
    )
    .for('update');
  return row;
}

/** What PGS last saw of a linked issue: its state and the tracker's time of that state. */
export async function recordLinkObserved(
  tx: Tx,
  link: Pick<TrackerLinkRow, 'connectionId' | 'projectId' | 'itemId'>,
  seen: { state: 'open' | 'closed'; externalUpdatedAt: Date },
  at: Date,
): Promise<void> {
  await tx
    .update(trackerLinks)
    .set({ ...seen, updatedAt: at })
    .where(
      and(
        eq(trackerLinks.connectionId, link.connectionId),
        eq(trackerLinks.projectId, link.projectId),
        eq(trackerLinks.itemId, link.itemId),
      ),
    );
}

/** Forgets a delivery (one that could not be applied, so its retry is not a replay). */
export async function deleteTrackerDelivery(
  tx: Tx,
  connectionId: string,
  deliveryId: string,
): Promise<void> {
  await tx
    .delete(trackerDeliveries)
    .where(
      and(
        eq(trackerDeliveries.connectionId, connectionId),
        eq(trackerDeliveries.deliveryId, deliveryId),
      ),
    );
}
