import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { fromDrizzle, fromPglite, type JobWithMetadata, PgBoss } from 'pg-boss';
import type { Database, Db, Tx } from '../storage/db.ts';
import { listen, notify } from '../storage/driver/notifications.ts';
import { allowOneMoreRetry, retryNow } from '../storage/sql/queue.ts';
import { SyncQueue, type SyncQueueOptions } from './sync-queue.ts';
import {
  type ProjectEndedEvent,
  type TaskUpdatedEvent,
  WebhookQueue,
  type WebhookQueueOptions,
} from './webhook-queue.ts';

/** The queue of project generations; one job per project, its id the project's. */
export const GENERATE_QUEUE = 'pgs-generate';
/** Where a generation lands after its last retry failed. */
export const DEAD_QUEUE = 'pgs-generate-dead';
/**
 * Announces, on commit, that a generation job is due (payload: the project id). PGS sends it
 * instead of pg-boss's own queue notification, which wakes every idle worker of the queue:
 * one job, four fetches, three of them empty and, on PGlite, queued ahead of the workflow's
 * first reads. This one wakes a single idle worker per job.
 */
export const GENERATION_DUE_CHANNEL = 'pgs_generation_due';

/**
 * The job id of a revision's run: a UUID derived from the project and the revision number
 * (RFC 4122's name-based form, version 5), so enqueuing it twice is harmless, as for
 * projects.
 */
export function revisionJobId(projectId: string, revision: number): string {
  const hex = createHash('sha1').update(`${projectId}:r${revision}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface JobData {
  projectId: string;
  /** Set for a revision's run (2 and up). */
  revision?: number;
}

/** One attempt at a project's generation, or at one of its revisions. */
export interface GenerationJob {
  projectId: string;
  /** The revision being run; undefined for the project's creation. */
  revision?: number | undefined;
  /** 0 on the first attempt. */
  attempt: number;
  /** No retry follows this attempt if it throws. */
  lastAttempt: boolean;
  /** Aborts when the worker stops (shutdown: the job is handed back) or the job's claim lapses. */
  signal: AbortSignal;
}

export interface GenerationHandlers {
  /** Runs (or resumes) a generation; throwing retries it, up to the queue's limit. */
  run(job: GenerationJob): Promise<void>;
  /** A generation (or a revision's run) whose retries are exhausted. */
  dead(projectId: string, revision?: number): Promise<void>;
}

export interface GenerationQueueOptions {
  /** Generations run at once by this process. */
  concurrency?: number;
  /** Retries of a generation that failed unexpectedly (a crash, a database error). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A worker that stops sending heartbeats (a crash) loses its job to another after this. */
  heartbeatSeconds?: number;
  /**
   * How often an idle worker looks for due jobs unwoken (retries coming due, wakes lost):
   * default 2 s.
   */
  pollingIntervalSeconds?: number;
  /** Webhook deliveries (their own queue on the same pg-boss instance). */
  webhooks?: WebhookQueueOptions;
  /** Tracker syncs (their own queue on the same pg-boss instance). */
  syncs?: SyncQueueOptions;
}

/**
 * Dispatches generations as durable pg-boss jobs, on the embedded PGlite (its adapter,
 * LISTEN/NOTIFY) or on PostgreSQL. Creating a project enqueues in the same transaction,
 * so a project never exists without its job.
 *
 * @example
 * const queue = await createGenerationQueue(database);
 * await queue.start({ run: (job) => workflow.run(job), dead: (id) => workflow.giveUp(id) });
 */
export class GenerationQueue {
  readonly #boss: PgBoss;
  readonly #options: Required<Omit<GenerationQueueOptions, 'webhooks' | 'syncs'>>;
  /** Tracker syncs: enqueued by the sync routes, run by {@link SyncQueue.start}. */
  readonly syncs: SyncQueue;
  readonly #webhooks: WebhookQueue;
  readonly #db: Db;
  #working = false;
  /** Aborted by {@link release}: running generations stop and hand their jobs back. */
  readonly #releasing = new AbortController();
  /** Jobs this process handed back, made due again once their attempts have settled. */
  readonly #handedBack = new Set<string>();
  /** Stops listening for due jobs (set by {@link start}). */
  #stopListening: () => Promise<void> = async () => {};
  /** The next worker to wake, among the idle ones (round robin across a burst of jobs). */
  #nextWake = 0;
  readonly #database: Database;

  private constructor(
    boss: PgBoss,
    options: Required<Omit<GenerationQueueOptions, 'webhooks' | 'syncs'>>,
    webhooks: WebhookQueue,
    database: Database,
    syncs: SyncQueue,
  ) {
    this.syncs = syncs;
    this.#boss = boss;
    this.#options = options;
    this.#webhooks = webhooks;
    this.#database = database;
    this.#db = database.db;
  }

  static async create(
    database: Database,
    options: GenerationQueueOptions = {},
  ): Promise<GenerationQueue> {
    const settings = {
      concurrency: options.concurrency ?? 4,
      retryLimit: options.retryLimit ?? 3,
      retryDelaySeconds: options.retryDelaySeconds ?? 2,
      heartbeatSeconds: options.heartbeatSeconds ?? 10,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
    };
    // Missed heartbeats are found by the supervisor's pass (default every 60 s): run it every
    // 5 s so a dead worker's job is retried within about 15 s.
    const common = {
      useListenNotify: true,
      schedule: false,
      monitorIntervalSeconds: 5,
      superviseIntervalSeconds: 5,
    } as const;
    const boss =
      database.kind === 'pglite'
        ? new PgBoss({ ...common, db: fromPglite(database.pglite!) })
        : new PgBoss({ ...common, connectionString: database.url!, max: 4 });
    boss.on('error', () => {
      // pg-boss reports maintenance hiccups here and carries on; job failures reach handlers.
    });
    await boss.start();
    await boss.createQueue(DEAD_QUEUE, { retryLimit: 5, retryDelay: 1, retryBackoff: true });
    const generate = {
      // Due jobs are announced on GENERATION_DUE_CHANNEL instead (see there).
      notify: false,
      retryLimit: settings.retryLimit,
      retryDelay: settings.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: 60,
      heartbeatSeconds: settings.heartbeatSeconds,
      expireInSeconds: 6 * 3600,
      deadLetter: DEAD_QUEUE,
    };
    await boss.createQueue(GENERATE_QUEUE, generate);
    // createQueue leaves an existing queue as it is: data made by an earlier version has
    // pg-boss's notification on.
    await boss.updateQueue(GENERATE_QUEUE, generate);
    const webhooks = await WebhookQueue.create(boss, database.db, options.webhooks);
    const syncs = await SyncQueue.create(boss, options.syncs);
    return new GenerationQueue(boss, settings, webhooks, database, syncs);
  }

  /** Enqueues, inside `tx`, the webhook messages of a project's final event. */
  async projectEnded(tx: Tx, event: ProjectEndedEvent): Promise<void> {
    await this.#webhooks.projectEnded(tx, event);
  }

  /** Enqueues, inside `tx`, the `task.updated` webhook messages of a task's change of status. */
  async taskUpdated(tx: Tx, event: TaskUpdatedEvent): Promise<void> {
    await this.#webhooks.taskUpdated(tx, event);
  }

  /** The same for a batch of changes (a revision's, an expiry's), in a fixed number of statements. */
  async tasksUpdated(tx: Tx, events: readonly TaskUpdatedEvent[]): Promise<void> {
    await this.#webhooks.tasksUpdated(tx, events);
  }

  /**
   * Enqueues a project's generation, inside `tx` when given, and wakes one idle worker (in
   * whichever process) when it commits; enqueuing twice is harmless.
   */
  async enqueue(projectId: string, tx?: Tx): Promise<void> {
    await this.#boss.send(
      GENERATE_QUEUE,
      { projectId },
      { id: projectId, ...(tx ? { db: fromDrizzle(tx as never, sql) } : {}) },
    );
    await notify(tx ?? this.#db, GENERATION_DUE_CHANNEL, projectId);
  }

  /** Enqueues a revision's run inside `tx`, like {@link enqueue}. */
  async enqueueRevision(projectId: string, revision: number, tx?: Tx): Promise<void> {
    const id = revisionJobId(projectId, revision);
    await this.#boss.send(GENERATE_QUEUE, { projectId, revision } satisfies JobData, {
      id,
      ...(tx ? { db: fromDrizzle(tx as never, sql) } : {}),
    });
    await notify(tx ?? this.#db, GENERATION_DUE_CHANNEL, id);
  }

  /**
   * Wakes one idle generation worker of this process, taking turns across a burst. A worker
   * that is fetching or running counts as busy: it fetches again as soon as it is done.
   */
  #wakeOne(): void {
    const idle = this.workers().filter((worker) => worker.jobs === 0);
    if (idle.length === 0) return;
    this.#boss.notifyWorker(idle[this.#nextWake++ % idle.length]!.id);
  }

  /** This process's generation workers: how many jobs each holds, and when it last fetched. */
  workers(): { id: string; jobs: number; lastFetchedOn: number | null }[] {
    return this.#boss
      .getWipData()
      .filter((worker) => worker.name === GENERATE_QUEUE)
      .map(({ id, count, lastFetchedOn }) => ({ id, jobs: count, lastFetchedOn }));
  }

  /** Wakes every generation worker of this process (due jobs may have gone unannounced). */
  #wakeAll(): void {
    for (const worker of this.workers()) this.#boss.notifyWorker(worker.id);
  }

  /** Starts this process's workers (generations and webhook deliveries). */
  async start(handlers: GenerationHandlers): Promise<void> {
    this.#working = true;
    await this.#webhooks.start();
    await this.#boss.work<JobData>(
      GENERATE_QUEUE,
      {
        includeMetadata: true,
        localConcurrency: this.#options.concurrency,
        pollingIntervalSeconds: this.#options.pollingIntervalSeconds,
      },
      async ([received]) => {
        if (received === undefined) return;
        // includeMetadata is set, so the job carries its retry counters.
        const job = received as JobWithMetadata<JobData>;
        try {
          await handlers.run({
            projectId: job.data.projectId,
            revision: job.data.revision,
            attempt: job.retryCount,
            lastAttempt: job.retryCount >= job.retryLimit,
            signal: AbortSignal.any([job.signal, this.#releasing.signal]),
          });
        } catch (error) {
          if (this.#releasing.signal.aborted) {
            // Handed back at shutdown: pg-boss fails this attempt when we rethrow, which
            // must not use up one of the job's retries (nor, on its last, fail the project).
            if (await allowOneMoreRetry(this.#db, GENERATE_QUEUE, job.id))
              this.#handedBack.add(job.id);
          }
          throw error;
        }
      },
    );
    // Announcements lost while the connection was down are made up for by one fetch each.
    const unlisten = await listen(
      this.#database,
      GENERATION_DUE_CHANNEL,
      () => this.#wakeOne(),
      () => this.#wakeAll(),
    );
    this.#stopListening = async () => {
      this.#stopListening = async () => {};
      await unlisten();
    };
    await this.#boss.work<JobData>(DEAD_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
      if (job !== undefined) await handlers.dead(job.data.projectId, job.data.revision);
    });
  }

  /**
   * Embedded mode only (this process holds the data directory's lock, so no other worker
   * exists): attempts left `active` by a process that died are failed now, so their retry
   * starts at once instead of after the heartbeat expires; a project with no job gets one.
   */
  async recover(
    projectIds: readonly string[],
    revisions: readonly { projectId: string; revision: number }[] = [],
  ): Promise<{ resumed: number; requeued: number }> {
    let resumed = 0;
    let requeued = 0;
    const runs = [
      ...projectIds.map((projectId) => ({ projectId, revision: undefined, id: projectId })),
      ...revisions.map((r) => ({ ...r, id: revisionJobId(r.projectId, r.revision) })),
    ];
    for (const { projectId, revision, id } of runs) {
      const [job] = await this.#boss.findJobs(GENERATE_QUEUE, { id });
      if (job === undefined) {
        if (revision === undefined) await this.enqueue(projectId);
        else await this.enqueueRevision(projectId, revision);
        requeued++;
      } else if (job.state === 'active') {
        await this.#boss.fail(
          GENERATE_QUEUE,
          { id: job.id, retryCount: job.retryCount },
          {
            reason: 'the process running this generation stopped',
          },
        );
        resumed++;
      }
    }
    return { resumed, requeued };
  }

  /**
   * Shutdown, first step: this process takes no more jobs, and its running generations
   * are aborted (their model calls with them) and handed back: each attempt is failed
   * without using up a retry, then made due at once, so another worker, or this server's
   * next start, resumes it where it stopped (stored documents are kept; nothing is charged
   * before completion). Enqueuing still works until {@link stop}, for requests in flight.
   * Resolves once the running attempts have settled, or after `timeoutMs`.
   *
   * @example
   * await queue.release(5_000); // then drain HTTP, then queue.stop()
   */
  async release(timeoutMs = 5_000): Promise<void> {
    if (!this.#working || this.#releasing.signal.aborted) return;
    this.#releasing.abort(new Error('the server is shutting down; the job is handed back'));
    await this.#stopListening();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([
        this.#boss.offWork(GENERATE_QUEUE, { wait: true }),
        this.#boss.offWork(DEAD_QUEUE, { wait: true }),
        // A sync stopped here is retried by its job; its links make that safe.
        this.syncs.stop(),
      ]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    await retryNow(this.#db, GENERATE_QUEUE, [...this.#handedBack]);
  }

  /** Stops the workers (waiting for running jobs up to `timeoutMs`) and the queue. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.#stopListening();
    await this.#boss.stop({ graceful: this.#working, timeout: timeoutMs, close: true });
  }
}
