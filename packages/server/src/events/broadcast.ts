/**
 * Messages to every API process on the same database (NOTIFY/LISTEN), for whoever above
 * storage needs them without the database: the MCP endpoint's cancellations.
 */
import type { Database } from '../storage/db.ts';
import { listen, notify } from '../storage/driver/notifications.ts';

/**
 * Announces a message on a channel to every process, and hears them.
 *
 * @example
 * const stop = await broadcast.listen('pgs_mcp_cancelled', (payload) => abort(payload));
 * await broadcast.announce('pgs_mcp_cancelled', payload); // every listener, this process's too
 */
export interface Broadcast {
  /** Sends `payload` on `channel` to every listener, this process's included. */
  announce(channel: string, payload: string): Promise<void>;
  /** Calls `onMessage` for each message on `channel` until the returned function is called. */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * The broadcast over the database's notifications.
 *
 * @example
 * const cancellations = await McpCancellations.start(databaseBroadcast(database));
 */
export function databaseBroadcast(database: Database): Broadcast {
  return {
    announce: (channel, payload) => database.db.transaction((tx) => notify(tx, channel, payload)),
    listen: (channel, onMessage) => listen(database, channel, onMessage),
  };
}
