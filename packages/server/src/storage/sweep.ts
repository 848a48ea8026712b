import type { Db } from './db.ts';
import { deleteExpiredIdempotencyKeys } from './sql/idempotency.ts';
import { deleteTrackerDeliveriesBefore } from './sql/trackers.ts';
import { deleteWebhookDeliveriesBefore } from './sql/webhooks.ts';

/** How long the log of webhook delivery attempts keeps an attempt: 30 days. */
export const WEBHOOK_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface SweepOptions {
  /** The time the retention counts back from (default now). */
  now?: number;
  /** Delivery attempts deleted per statement (default 1,000). */
  batch?: number;
}

/**
 * How long a tracker's delivery is remembered, by a hash of its signed body (a replay within
 * it changes nothing): 30 days, beyond any tracker's own redelivery window.
 */
export const TRACKER_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** What one sweep deleted. */
export interface SweepResult {
  idempotencyKeys: number;
  webhookDeliveries: number;
  trackerDeliveries: number;
}

/**
 * Deletes what has outlived its retention: idempotency keys past their 24 hours, and
 * webhook delivery attempts older than {@link WEBHOOK_DELIVERY_RETENTION_MS}. Attempts go
 * in batches, one statement each, so a large backlog never holds the database (or, on
 * PGlite, the server's thread) for long. Every attempt of a message falls within 24 hours
 * of its first, so no message still being retried loses its log.
 *
 * @example
 * const { webhookDeliveries } = await sweepExpired(db);
 */
export async function sweepExpired(
  db: Db,
  { now = Date.now(), batch = 1_000 }: SweepOptions = {},
): Promise<SweepResult> {
  const idempotencyKeys = await deleteExpiredIdempotencyKeys(db);
  const before = new Date(now - WEBHOOK_DELIVERY_RETENTION_MS);
  let webhookDeliveries = 0;
  for (;;) {
    const deleted = await deleteWebhookDeliveriesBefore(db, before, batch);
    webhookDeliveries += deleted;
    if (deleted < batch) break;
  }
  const trackerDeliveries = await deleteTrackerDeliveriesBefore(
    db,
    new Date(now - TRACKER_DELIVERY_RETENTION_MS),
  );
  return { idempotencyKeys, webhookDeliveries, trackerDeliveries };
}
