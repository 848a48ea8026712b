/**
 * Reads and small corrections on pg-boss's job table (`pgboss.job`, on the same database
 * as ours). pg-boss's own counts (`getQueue`) are refreshed by its monitor every few
 * seconds; metrics read the table itself, at scrape time.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';

/** One queue's jobs by state, and the wait of its oldest ready job. */
export interface QueueRow {
  queue: string;
  ready: number;
  deferred: number;
  active: number;
  oldestReadyAgeSeconds: number;
}

/**
 * Counts the jobs of the given queues: ready (created or retry, due), deferred (not yet
 * due), active; and how long the oldest ready one has waited since it was created.
 *
 * @example
 * const rows = await readQueueStats(db, ['pgs-generate']);
 */
export async function readQueueStats(tx: Tx, queues: readonly string[]): Promise<QueueRow[]> {
  const result = await tx.execute(sql`
    select name,
      count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as ready,
      count(*) filter (where state in ('created', 'retry') and start_after > now())::int as deferred,
      count(*) filter (where state = 'active')::int as active,
      coalesce(extract(epoch from now() - min(created_on)
        filter (where state in ('created', 'retry') and start_after <= now())), 0)::float8 as oldest
    from pgboss.job
    where name in (${sql.join(
      queues.map((queue) => sql`${queue}`),
      sql`, `,
    )})
      and state in ('created', 'retry', 'active')
    group by name`);
  const rows = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const byName = new Map(rows.map((row) => [String(row.name), row]));
  return queues.map((queue) => {
    const row = byName.get(queue);
    return {
      queue,
      ready: Number(row?.ready ?? 0),
      deferred: Number(row?.deferred ?? 0),
      active: Number(row?.active ?? 0),
      oldestReadyAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
    };
  });
}

/**
 * Gives an active attempt one more retry, so that failing it on purpose (a worker handing
 * its job back at shutdown) does not use up one of the job's retries. Returns whether the
 * job was active.
 */
export async function allowOneMoreRetry(tx: Tx, queue: string, jobId: string): Promise<boolean> {
  const result = await tx.execute(sql`
    update pgboss.job set retry_limit = retry_limit + 1
    where name = ${queue} and id = ${jobId} and state = 'active'
    returning id`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/** Makes jobs waiting for a retry due now (a handed-back job needs no back-off). */
export async function retryNow(tx: Tx, queue: string, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await tx.execute(sql`
    update pgboss.job set start_after = now()
    where name = ${queue} and state = 'retry' and id in (${sql.join(
      jobIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
}
