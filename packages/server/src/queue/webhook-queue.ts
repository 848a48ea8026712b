import { sql } from 'drizzle-orm';
import { fromDrizzle, type PgBoss } from 'pg-boss';
import { newUlid } from '../ids.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  findWebhookEndpoint,
  insertWebhookDelivery,
  listSubscribedEndpoints,
} from '../storage/sql/webhooks.ts';
import { deliver } from '../webhooks/delivery.ts';

/** A task's change of status (tasks/notify.ts's TaskUpdatedEvent, restated: queue sits below tasks). */
export interface TaskUpdatedEvent {
  projectId: string;
  accountId: string;
  mode: Mode;
  at: Date;
  /** The message's `data` (the contract's TaskUpdatedEventData). */
  data: { projectId: string; taskId: string };
}

/** The queue of webhook delivery attempts; one job per attempt. */
export const WEBHOOK_QUEUE = 'pgs-webhooks';

/**
 * Pauses before each retry of a failed delivery (30 s, 2 min, 10 min, 30 min, 1 h, 2 h,
 * 4 h, then every 8 h); the last one repeats until {@link WEBHOOK_GIVE_UP_AFTER_MS}.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000,
];
/** No attempt is scheduled later than this after a message's first attempt (24 h). */
export const WEBHOOK_GIVE_UP_AFTER_MS = 24 * 3600 * 1000;
/** A delivery must be answered with a 2xx within this (10 s). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A project's final event, as Projects reports it inside the transaction that records it. */
export interface ProjectEndedEvent {
  projectId: string;
  accountId: string;
  mode: Mode;
  type: 'project.completed' | 'project.failed' | 'project.revised';
  status: 'completed' | 'failed';
  at: Date;
  /** `project.revised`: the revision that completed (and is now current). */
  revision?: number;
}

/** One attempt at delivering one message to one endpoint. */
export interface WebhookJob {
  endpointId: string;
  /** `msg_<ULID>`, the same on every attempt. */
  messageId: string;
  eventType: string;
  projectId: string;
  /** The exact bytes sent (and signed) on every attempt. */
  body: string;
  /** 1 on the first attempt. */
  attempt: number;
  /** Epoch milliseconds of the first attempt; absent until it is made. */
  firstAttemptAt?: number;
}

export interface WebhookQueueOptions {
  /** PGS_WEBHOOKS_ALLOW_PRIVATE: http URLs and private addresses may be called. */
  allowPrivate?: boolean;
  /** Pauses before each retry; tests shorten it. */
  retryScheduleMs?: readonly number[];
  giveUpAfterMs?: number;
  timeoutMs?: number;
  /** Attempts made at once by this process. */
  concurrency?: number;
  /** How often due retries are looked for (pg-boss polling; at least 0.5). */
  pollingIntervalSeconds?: number;
}

/**
 * Signed webhook deliveries as durable pg-boss jobs, on the pg-boss instance of the
 * generation queue. A message is enqueued in the transaction that records the project's
 * final event (so it is sent at least once, never for an event rolled back); each failed
 * attempt is recorded with its retry enqueued in one transaction.
 *
 * @example
 * const webhooks = await WebhookQueue.create(boss, database.db, { allowPrivate: false });
 * await webhooks.start();
 */
export class WebhookQueue {
  readonly #boss: PgBoss;
  readonly #db: Db;
  readonly #options: Required<WebhookQueueOptions>;

  private constructor(boss: PgBoss, db: Db, options: Required<WebhookQueueOptions>) {
    this.#boss = boss;
    this.#db = db;
    this.#options = options;
  }

  static async create(
    boss: PgBoss,
    db: Db,
    options: WebhookQueueOptions = {},
  ): Promise<WebhookQueue> {
    await boss.createQueue(WEBHOOK_QUEUE, {
      notify: true,
      // These retries cover a worker that died mid-attempt (or a database error); failed
      // deliveries are retried on the schedule by new jobs.
      retryLimit: 5,
      retryDelay: 30,
      retryBackoff: true,
      expireInSeconds: 120,
    });
    return new WebhookQueue(boss, db, {
      allowPrivate: options.allowPrivate ?? false,
      retryScheduleMs: options.retryScheduleMs ?? WEBHOOK_RETRY_SCHEDULE_MS,
      giveUpAfterMs: options.giveUpAfterMs ?? WEBHOOK_GIVE_UP_AFTER_MS,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      concurrency: options.concurrency ?? 4,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
    });
  }

  /** Enqueues, inside `tx`, one message per endpoint of the owner subscribed to the event. */
  async projectEnded(tx: Tx, event: ProjectEndedEvent): Promise<void> {
    await this.#enqueue(tx, event, event.type, {
      projectId: event.projectId,
      status: event.status,
      ...(event.revision === undefined ? {} : { revision: event.revision }),
    });
  }

  /** Enqueues, inside `tx`, a `task.updated` message per endpoint subscribed to it. */
  async taskUpdated(tx: Tx, event: TaskUpdatedEvent): Promise<void> {
    await this.#enqueue(tx, event, 'task.updated', event.data);
  }

  /**
   * Enqueues, inside `tx`, a `task.updated` message per event and subscribed endpoint, in
   * two statements however many tasks moved (one read of the endpoints, one insert of the
   * jobs): the caller holds the project's lock. The events are of one account and mode.
   */
  async tasksUpdated(tx: Tx, events: readonly TaskUpdatedEvent[]): Promise<void> {
    const [first] = events;
    if (first === undefined) return;
    const endpoints = await listSubscribedEndpoints(
      tx,
      first.accountId,
      first.mode,
      'task.updated',
    );
    if (endpoints.length === 0) return;
    const jobs = events.flatMap((event) => {
      const body = JSON.stringify({
        type: 'task.updated',
        timestamp: event.at.toISOString(),
        data: event.data,
      });
      return endpoints.map((endpoint) => {
        const job: WebhookJob = {
          endpointId: endpoint.id,
          messageId: `msg_${newUlid()}`,
          eventType: 'task.updated',
          projectId: event.projectId,
          body,
          attempt: 1,
        };
        return { data: job };
      });
    });
    await this.#boss.insert(WEBHOOK_QUEUE, jobs, { db: fromDrizzle(tx as never, sql) });
  }

  async #enqueue(
    tx: Tx,
    event: { projectId: string; accountId: string; mode: Mode; at: Date },
    type: string,
    data: unknown,
  ): Promise<void> {
    const endpoints = await listSubscribedEndpoints(tx, event.accountId, event.mode, type);
    if (endpoints.length === 0) return;
    const body = JSON.stringify({ type, timestamp: event.at.toISOString(), data });
    for (const endpoint of endpoints) {
      const job: WebhookJob = {
        endpointId: endpoint.id,
        messageId: `msg_${newUlid()}`,
        eventType: type,
        projectId: event.projectId,
        body,
        attempt: 1,
      };
      await this.#boss.send(WEBHOOK_QUEUE, job, { db: fromDrizzle(tx as never, sql) });
    }
  }

  /** Starts this process's delivery workers. */
  async start(): Promise<void> {
    await this.#boss.work<WebhookJob>(
      WEBHOOK_QUEUE,
      {
        localConcurrency: this.#options.concurrency,
        pollingIntervalSeconds: this.#options.pollingIntervalSeconds,
        // Retries wait on `startAfter`, which no NOTIFY announces: poll at the same pace.
        notifyPollingIntervalSeconds: this.#options.pollingIntervalSeconds,
      },
      async ([job]) => {
        if (job !== undefined) await this.#attempt(job.data);
      },
    );
  }

  async #attempt(job: WebhookJob): Promise<void> {
    const endpoint = await findWebhookEndpoint(this.#db, job.endpointId);
    // A deleted endpoint gets no more attempts.
    if (endpoint === undefined) return;
    const options = this.#options;
    const result = await deliver({
      url: endpoint.url,
      secret: endpoint.secret,
      messageId: job.messageId,
      body: job.body,
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
    });
    const firstAttemptAt = job.firstAttemptAt ?? result.startedAt;
    let next: Date | null = null;
    if (!result.ok) {
      const schedule = options.retryScheduleMs;
      const pause = schedule[Math.min(job.attempt - 1, schedule.length - 1)] ?? 0;
      const at = Date.now() + pause;
      if (at <= firstAttemptAt + options.giveUpAfterMs) next = new Date(at);
    }
    await this.#db.transaction(async (tx) => {
      await insertWebhookDelivery(tx, {
        endpointId: endpoint.id,
        messageId: job.messageId,
        eventType: job.eventType,
        projectId: job.projectId,
        attempt: job.attempt,
        statusCode: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        attemptedAt: new Date(result.startedAt),
        nextAttemptAt: next,
        state: result.ok ? 'succeeded' : next === null ? 'failed' : 'retrying',
      });
      if (next !== null) {
        const retry: WebhookJob = { ...job, attempt: job.attempt + 1, firstAttemptAt };
        await this.#boss.send(WEBHOOK_QUEUE, retry, {
          startAfter: next,
          db: fromDrizzle(tx as never, sql),
        });
      }
    });
  }
}
