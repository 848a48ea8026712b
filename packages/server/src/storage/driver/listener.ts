import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../db.ts';

/** What {@link listenChannels} is told of, in the order the database delivers it. */
export interface ListenerHandlers {
  /** A notification on one of the channels, from this process or any other. */
  onMessage(channel: string, payload: string): void;
  /** The connection was lost: notifications sent from now until `onResume` are lost. */
  onGap?(): void;
  /** Listening again after a gap (callers rebuild what they derive from notifications). */
  onResume?(): void;
}

/** A subscription to several channels on one connection. */
export interface ChannelListener {
  /**
   * Resolves `true` once every notification committed before the call has been handed to
   * `onMessage`; `false` when that cannot be known (connection lost, time-out), and the
   * caller must ask the database instead. Calls made while one barrier is in flight share
   * the next one, so the database sees at most one barrier per round trip however many
   * callers wait.
   */
  sync(): Promise<boolean>;
  /**
   * The barrier is always already passed (PGlite: listeners run before the committing
   * statement returns), so a caller may skip {@link sync} and its promise.
   */
  readonly barrierFree: boolean;
  stop(): Promise<void>;
}

/** A barrier not answered within this time is given up (callers read the database). */
const SYNC_TIMEOUT_MS = 2_000;

/**
 * Listens on `channels` through one connection, so that what arrives on each is in commit
 * order with the others (PostgreSQL delivers one session's notifications in the order their
 * transactions committed), and offers a barrier ({@link ChannelListener.sync}).
 *
 * On PostgreSQL the barrier is a NOTIFY this connection sends to a channel only it listens
 * on: when it comes back, every notification of a transaction that committed before it was
 * sent has been delivered. On PGlite (one process holds the data directory) the listeners
 * run as the committing statement's answer is read, before the writer's own code goes on,
 * so the barrier is always already passed.
 *
 * @example
 * const listener = await listenChannels(database, ['pgs_project_events'], { onMessage });
 * if (await listener.sync()) answerFromMemory();
 */
export async function listenChannels(
  database: Database,
  channels: readonly string[],
  handlers: ListenerHandlers,
): Promise<ChannelListener> {
  if (database.kind === 'pglite') {
    const pglite = database.pglite!;
    const stops = await Promise.all(
      channels.map((channel) =>
        pglite.listen(channel, (payload) => handlers.onMessage(channel, payload)),
      ),
    );
    return {
      sync: async () => true,
      barrierFree: true,
      stop: async () => {
        await Promise.all(stops.map((stop) => stop()));
      },
    };
  }
  return PostgresListener.start(database.url!, channels, handlers);
}

interface Barrier {
  token: string;
  promise: Promise<boolean>;
  resolve: (synced: boolean) => void;
}

function barrier(token: string): Barrier {
  let resolve!: (synced: boolean) => void;
  const promise = new Promise<boolean>((r) => {
    resolve = r;
  });
  return { token, promise, resolve };
}

class PostgresListener implements ChannelListener {
  readonly barrierFree = false;
  readonly #url: string;
  readonly #channels: readonly string[];
  readonly #handlers: ListenerHandlers;
  /** Only this connection listens here: its barriers reach no one else's handlers. */
  readonly #syncChannel = `pgs_sync_${randomBytes(8).toString('hex')}`;
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #counter = 0;
  /** The barrier sent and not yet back. */
  #inFlight: Barrier | undefined;
  /** Callers that came after `#inFlight` was sent: it may have committed before them. */
  #next: Barrier | undefined;

  private constructor(url: string, channels: readonly string[], handlers: ListenerHandlers) {
    this.#url = url;
    this.#channels = channels;
    this.#handlers = handlers;
  }

  static async start(url: string, channels: readonly string[], handlers: ListenerHandlers) {
    const listener = new PostgresListener(url, channels, handlers);
    await listener.#connect();
    return listener;
  }

  sync(): Promise<boolean> {
    if (this.#client === undefined) return Promise.resolve(false);
    if (this.#next === undefined) this.#next = barrier(`${++this.#counter}`);
    const waiting = this.#next.promise;
    if (this.#inFlight === undefined) this.#send();
    return waiting;
  }

  async stop(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#settleAll(false);
    await this.#client?.end().catch(() => {});
  }

  #send(): void {
    const sent = this.#next;
    const client = this.#client;
    if (sent === undefined || client === undefined) return;
    this.#next = undefined;
    this.#inFlight = sent;
    const timer = setTimeout(() => this.#arrived(sent.token, false), SYNC_TIMEOUT_MS);
    timer.unref();
    void sent.promise.then(() => clearTimeout(timer));
    client
      .query('select pg_notify($1, $2)', [this.#syncChannel, sent.token])
      .catch(() => this.#arrived(sent.token, false));
  }

  /** A barrier came back (or was given up): release its callers, send the next one. */
  #arrived(token: string, synced: boolean): void {
    const current = this.#inFlight;
    if (current === undefined || current.token !== token) return;
    this.#inFlight = undefined;
    current.resolve(synced);
    this.#send();
  }

  #settleAll(synced: boolean): void {
    const pending = [this.#inFlight, this.#next];
    this.#inFlight = undefined;
    this.#next = undefined;
    for (const b of pending) b?.resolve(synced);
  }

  #reconnect(): void {
    if (this.#closed) return;
    this.#client = undefined;
    this.#settleAll(false);
    this.#handlers.onGap?.();
    this.#retry = setTimeout(() => {
      this.#connect().then(
        () => this.#handlers.onResume?.(),
        () => this.#reconnect(),
      );
    }, 1_000);
    this.#retry.unref();
  }

  async #connect(): Promise<void> {
    const next = new pg.Client({ connectionString: this.#url });
    next.on('notification', (message) => {
      if (message.payload === undefined) return;
      if (message.channel === this.#syncChannel) this.#arrived(message.payload, true);
      else this.#handlers.onMessage(message.channel, message.payload);
    });
    next.on('error', () => {
      next.end().catch(() => {});
      if (this.#client === next) this.#reconnect();
    });
    await next.connect();
    try {
      for (const channel of [...this.#channels, this.#syncChannel]) {
        await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    this.#client = next;
  }
}
