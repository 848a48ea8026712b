import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Tx } from '../db.ts';

/** Sends a notification to every process listening on `channel` (on commit, inside a transaction). */
export async function notify(tx: Tx, channel: string, payload: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/**
 * Calls `onMessage` for each notification on `channel`, from this process or any other on
 * the same database, until the returned function is called. On PostgreSQL it holds one
 * dedicated connection and reconnects after losing it (`onGap` is called then: messages
 * sent meanwhile are lost, so callers drop what they cached).
 */
export async function listen(
  database: Database,
  channel: string,
  onMessage: (payload: string) => void,
  onGap: () => void = () => {},
): Promise<() => Promise<void>> {
  if (database.kind === 'pglite') {
    return database.pglite!.listen(channel, onMessage);
  }
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const reconnect = () => {
    if (closed) return;
    onGap();
    retry = setTimeout(() => void connect().catch(reconnect), 1_000);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: database.url });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onMessage(message.payload);
    });
    next.on('error', () => {
      next.end().catch(() => {});
      if (client === next) reconnect();
    });
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    client = next;
  };
  await connect();
  return async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
