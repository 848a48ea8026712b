import { sql } from 'drizzle-orm';
import { fromDrizzle, type JobWithMetadata, type PgBoss } from 'pg-boss';
import type { Tx } from '../storage/db.ts';

/** The queue of tracker syncs (docs/trackers.md); one job per sync. */
export const SYNC_QUEUE = 'pgs-tracker-syncs';

interface SyncJobData {
  syncId: string;
}

/** One attempt at a sync's job, as the handler is given it. */
export interface SyncAttempt {
  syncId: string;
  /** No retry follows this attempt if it throws. */
  lastAttempt: boolean;
  /** Aborts when the job's claim lapses or the worker stops. */
  signal: AbortSignal;
}

export interface SyncQueueOptions {
  /** Syncs run at once by this process (each makes its calls one at a time). */
  concurrency?: number;
  /** How often an idle worker looks for due syncs (pg-boss polling; at least 0.5). */
  pollingIntervalSeconds?: number;
  /**
   * Retries of a sync's job: a worker that died, or another sync of the same project and
   * connection still running (the job waits its turn this way). Default 20, backing off
   * from 2 s up to 60 s: about 15 minutes of waiting.
   */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A worker silent for this long (a crash) loses the job to another. */
  heartbeatSeconds?: number;
}

type WorkerSettings = Required<Pick<SyncQueueOptions, 'concurrency' | 'pollingIntervalSeconds'>>;

/**
 * Tracker syncs as durable pg-boss jobs, on the pg-boss instance of the generation queue
 * (PGlite or PostgreSQL alike). A sync's job is enqueued in the transaction that records the
 * sync; a crash mid-sync is retried by pg-boss, and the engine's links and its search by
 * marker make the retry safe.
 *
 * @example
 * const syncs = await SyncQueue.create(boss);
 * await syncs.start((job) => projectSyncs.run(job));
 */
export class SyncQueue {
  readonly #boss: PgBoss;
  readonly #options: WorkerSettings;
  #working = false;

  private constructor(boss: PgBoss, options: WorkerSettings) {
    this.#boss = boss;
    this.#options = options;
  }

  static async create(boss: PgBoss, options: SyncQueueOptions = {}): Promise<SyncQueue> {
    const settings = {
      notify: true,
      retryLimit: options.retryLimit ?? 20,
      retryDelay: options.retryDelaySeconds ?? 2,
      retryBackoff: true,
      retryDelayMax: 60,
      heartbeatSeconds: options.heartbeatSeconds ?? 30,
      expireInSeconds: 3600,
    };
    await boss.createQueue(SYNC_QUEUE, settings);
    return new SyncQueue(boss, {
      concurrency: options.concurrency ?? 2,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
    });
  }

  /** Enqueues a sync's job inside `tx` (it exists exactly when the sync does). */
  async enqueueSync(tx: Tx, syncId: string): Promise<void> {
    const data: SyncJobData = { syncId };
    await this.#boss.send(SYNC_QUEUE, data, { db: fromDrizzle(tx as never, sql) });
  }

  /** Starts this process's sync workers. */
  async start(run: (job: SyncAttempt) => Promise<void>): Promise<void> {
    this.#working = true;
    await this.#boss.work<SyncJobData>(
      SYNC_QUEUE,
      {
        includeMetadata: true,
        localConcurrency: this.#options.concurrency,
        pollingIntervalSeconds: this.#options.pollingIntervalSeconds,
      },
      async ([received]) => {
        if (received === undefined) return;
        const job = received as JobWithMetadata<SyncJobData>;
        await run({
          syncId: job.data.syncId,
          lastAttempt: job.retryCount >= job.retryLimit,
          signal: job.signal,
        });
      },
    );
  }

  /** Stops taking sync jobs, waiting for the running ones up to pg-boss's own limit. */
  async stop(): Promise<void> {
    if (!this.#working) return;
    this.#working = false;
    await this.#boss.offWork(SYNC_QUEUE, { wait: true });
  }
}
