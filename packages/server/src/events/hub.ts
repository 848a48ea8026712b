/**
 * A project's events: stored with the change they describe (same transaction) and
 * announced to every process by NOTIFY on commit. Long-polls and event streams wait on
 * them here instead of polling the database.
 */
import type { Database, Tx } from '../storage/db.ts';
import { type ChannelListener, listenChannels } from '../storage/driver/listener.ts';
import { notify } from '../storage/driver/notifications.ts';
import { appendProjectEvent, appendProjectEvents } from '../storage/sql/events.ts';

/** The channel on which a deleted project's id is announced (status caches forget it). */
export const PROJECT_DELETED_CHANNEL = 'pgs_project_deleted';

/** The channel on which a project id is announced when one of its events commits. */
export const PROJECT_EVENTS_CHANNEL = 'pgs_project_events';

/** The event types of a project's stream, in the order they can occur. */
export type ProjectEventType =
  | 'stage.started'
  | 'document.completed'
  | 'project.completed'
  | 'project.failed'
  | 'revision.started'
  | 'revision.analysed'
  | 'revision.completed'
  | 'revision.failed'
  /** A task of a completed project's plan changed status (docs/tasks.md). */
  | 'task.updated';

/** Events after which nothing more happens to a project. */
export const FINAL_EVENTS: ReadonlySet<string> = new Set(['project.completed', 'project.failed']);

/** Events that end a revision's run (the project goes on, completed). */
export const REVISION_END_EVENTS: ReadonlySet<string> = new Set([
  'revision.completed',
  'revision.failed',
]);

/**
 * Records an event inside `tx` and announces it when `tx` commits.
 *
 * @example
 * await db.transaction((tx) => recordEvent(tx, projectId, 'stage.started', { stage: 'design' }));
 */
export async function recordEvent(
  tx: Tx,
  projectId: string,
  type: ProjectEventType,
  data: Record<string, unknown>,
  options: { whileInProgress?: boolean; whileRevising?: number | undefined } = {},
): Promise<number> {
  const seq = await appendProjectEvent(tx, projectId, type, data, options);
  await notify(tx, PROJECT_EVENTS_CHANNEL, projectId);
  return seq;
}

/**
 * Records events of one type inside `tx` in a fixed number of statements, however many
 * (a revision may move a whole plan's tasks), announced once when `tx` commits.
 *
 * @example
 * await recordEvents(tx, projectId, 'task.updated', [first, second]);
 */
export async function recordEvents(
  tx: Tx,
  projectId: string,
  type: ProjectEventType,
  data: readonly Record<string, unknown>[],
): Promise<number[]> {
  if (data.length === 0) return [];
  const seqs = await appendProjectEvents(tx, projectId, type, data);
  await notify(tx, PROJECT_EVENTS_CHANNEL, projectId);
  return seqs;
}

/**
 * Announces a project just created, inside the creating transaction: every process's view
 * of which projects exist learns of it on commit (see {@link ProjectEventHub.observe}).
 *
 * @example
 * await announceCreated(tx, projectId);
 */
export async function announceCreated(tx: Tx, projectId: string): Promise<void> {
  await notify(tx, PROJECT_EVENTS_CHANNEL, projectId);
}

/** Told of every announcement, before any waiter on the project is woken. */
export interface AnnouncementObserver {
  /** `deleted`: the project was deleted (else one of its events, or its creation, committed). */
  onAnnouncement(projectId: string, deleted: boolean): void;
  /** Announcements may have been lost (the listening connection dropped). */
  onGap(): void;
  /** Listening again after a gap. */
  onResume?(): void;
}

/**
 * One process's subscription to every project's announcements, fanned out to whoever
 * waits on a given project. A lost connection (`onGap`) wakes every waiter, which then
 * re-reads what it needs: nothing is missed, at worst one read too many.
 *
 * @example
 * const hub = await ProjectEventHub.start(database);
 * const stop = hub.subscribe(projectId, () => wake());
 */
export class ProjectEventHub {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #observers = new Set<AnnouncementObserver>();
  #listener: ChannelListener | undefined;

  static async start(database: Database): Promise<ProjectEventHub> {
    const hub = new ProjectEventHub();
    // Deletions on the same connection as events: both arrive in commit order, behind
    // the same barrier (sync).
    hub.#listener = await listenChannels(
      database,
      [PROJECT_EVENTS_CHANNEL, PROJECT_DELETED_CHANNEL],
      {
        onMessage: (channel, projectId) => {
          const deleted = channel === PROJECT_DELETED_CHANNEL;
          for (const observer of hub.#observers) observer.onAnnouncement(projectId, deleted);
          if (!deleted) hub.#wake(projectId);
        },
        onGap: () => {
          for (const observer of hub.#observers) observer.onGap();
          for (const projectId of [...hub.#waiters.keys()]) hub.#wake(projectId);
        },
        onResume: () => {
          for (const observer of hub.#observers) observer.onResume?.();
        },
      },
    );
    return hub;
  }

  /**
   * Tells `observer` of every announcement (creations, events, deletions) until the
   * returned function is called; observers run before waiters are woken, so a waiter's
   * re-read already sees what they derive.
   */
  observe(observer: AnnouncementObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /**
   * Resolves `true` once every announcement committed before the call has reached the
   * observers (one shared round trip on PostgreSQL, none on PGlite); `false` when that
   * cannot be known, and the caller must read the database.
   */
  sync(): Promise<boolean> {
    return this.#listener?.sync() ?? Promise.resolve(false);
  }

  /** Whether {@link sync} would always resolve `true` at once (PGlite), so needs no call. */
  get barrierFree(): boolean {
    return this.#listener?.barrierFree ?? false;
  }

  /** Calls `onEvent` on every announcement for the project until the returned function is called. */
  subscribe(projectId: string, onEvent: () => void): () => void {
    let set = this.#waiters.get(projectId);
    if (set === undefined) {
      set = new Set();
      this.#waiters.set(projectId, set);
    }
    set.add(onEvent);
    return () => {
      set.delete(onEvent);
      if (set.size === 0 && this.#waiters.get(projectId) === set) this.#waiters.delete(projectId);
    };
  }

  /**
   * The one wait on a project's announcements: yields at once, then once after each
   * announcement (several while the caller was busy count as one), until `signal` aborts
   * or `waitMs` have passed since the wait began: an absolute deadline, which announcements
   * do not push back (not an idle timeout); ends at once when `signal` has aborted. It subscribes
   * before its first yield, so what the caller reads then sees every event committed
   * since, and unsubscribes when the loop ends or the caller leaves it (`break`).
   *
   * @example
   * for await (const _ of hub.wakes(projectId, { signal, waitMs: 30_000 })) {
   *   if (done(await read())) break;
   * }
   */
  async *wakes(
    projectId: string,
    { signal, waitMs }: { signal?: AbortSignal | undefined; waitMs?: number | undefined } = {},
  ): AsyncGenerator<void, void, undefined> {
    let pending = true;
    let wake: (() => void) | undefined;
    const unsubscribe = this.subscribe(projectId, () => {
      pending = true;
      wake?.();
    });
    const deadline = waitMs === undefined ? undefined : Date.now() + waitMs;
    try {
      for (;;) {
        if (signal?.aborted) return;
        if (pending) {
          pending = false;
          yield;
          continue;
        }
        const left = deadline === undefined ? undefined : deadline - Date.now();
        if (left !== undefined && left <= 0) return;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          };
          const timer = left === undefined ? undefined : setTimeout(done, left);
          signal?.addEventListener('abort', done, { once: true });
          wake = done;
          if (pending || signal?.aborted) done();
        });
      }
    } finally {
      unsubscribe();
    }
  }

  /**
   * A project's stored events after `after`, as they are stored: each `read` (the events
   * after a position, oldest first) follows a wake of {@link wakes}, so nothing polls. It
   * ends when `signal` aborts, when `waitMs` have passed since it began (an absolute
   * deadline, however many events came; not an idle timeout), or right after an event
   * `until` says ends what the caller follows (a run's end, for a stream that ends with it).
   *
   * @example
   * for await (const event of hub.follow(id, { read: (after) => reads.read(id, after), signal })) {
   *   send(event);
   * }
   */
  async *follow<E extends { seq: number }>(
    projectId: string,
    options: {
      read: (after: number) => Promise<readonly E[]>;
      after?: number | undefined;
      signal?: AbortSignal | undefined;
      waitMs?: number | undefined;
      until?: ((event: E) => boolean) | undefined;
    },
  ): AsyncGenerator<E, void, undefined> {
    const { read, until } = options;
    let seen = options.after ?? 0;
    for await (const _ of this.wakes(projectId, options)) {
      for (const event of await read(seen)) {
        seen = event.seq;
        yield event;
        if (until?.(event)) return;
      }
    }
  }

  /**
   * Resolves on the project's next announcement, or after `ms`, or when `signal` aborts:
   * `true` when woken by an event.
   */
  next(projectId: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
        resolve(woken);
      };
      const onAbort = () => done(false);
      const unsubscribe = this.subscribe(projectId, () => done(true));
      const timer = setTimeout(() => done(false), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) done(false);
    });
  }

  /** How many waiters are subscribed (tests and metrics). */
  get waiting(): number {
    let count = 0;
    for (const set of this.#waiters.values()) count += set.size;
    return count;
  }

  #wake(projectId: string): void {
    const set = this.#waiters.get(projectId);
    if (set === undefined) return;
    for (const onEvent of [...set]) onEvent();
  }

  async stop(): Promise<void> {
    await this.#listener?.stop();
    this.#observers.clear();
    for (const set of this.#waiters.values()) for (const onEvent of [...set]) onEvent();
    this.#waiters.clear();
  }
}

/**
 * Re-reads a value each time the project announces an event, until `done` says so, `ms`
 * pass, or `signal` aborts; resolves with the last value read. It subscribes before the
 * first read, so an event committed in between is not missed.
 *
 * @example
 * const view = await holdUntil(hub, id, 30_000, signal, () => reader.read(principal, id), (v) => v?.status !== 'in_progress');
 */
export async function holdUntil<T>(
  hub: ProjectEventHub,
  projectId: string,
  ms: number,
  signal: AbortSignal,
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  let last: { value: T } | undefined;
  for await (const _ of hub.wakes(projectId, { signal, waitMs: ms })) {
    last = { value: await read() };
    if (done(last.value)) break;
  }
  // Aborted before the first wake: the value as it is.
  return last === undefined ? read() : last.value;
}
