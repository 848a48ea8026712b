import { LRUCache } from 'lru-cache';
import type { Principal } from '../accounts/service.ts';
import type { ProjectEventHub } from '../events/hub.ts';
import type { Db } from '../storage/db.ts';
import { findOwnedProjectStatus, findProjectResultBody } from '../storage/sql/projects.ts';
import { LiveView, type LiveViewOptions, type PendingRead } from './live-view.ts';
import { etagOf, FAILURE_CODES, FAILURE_MESSAGES, failedStatus } from './result.ts';

/** A status response ready to send: the body bytes and their validator. */
export interface StatusView {
  status: 'in_progress' | 'completed' | 'failed';
  body: Buffer;
  etag: string;
  /** While in progress: the remaining time estimated, in milliseconds. */
  estimatedCompletionMs?: number;
  /** The revision the body describes (`PGS-Revision`): 1 until a revision completes. */
  revision?: number;
}

interface FinalView extends StatusView {
  accountId: string;
  mode: string;
}

function view(status: StatusView['status'], data: unknown): StatusView {
  const body = Buffer.from(JSON.stringify({ success: true, data }));
  return { status, body, etag: etagOf(body) };
}

export interface StatusReaderOptions {
  /** Bytes of final (completed or failed) bodies kept in memory. */
  cacheBytes?: number;
  now?: () => number;
  /**
   * The process's announcements: with them, in-progress projects and unknown ids are
   * answered from memory behind the hub's barrier (see {@link LiveView}); without them,
   * every in-progress read asks the database.
   */
  hub?: ProjectEventHub;
  /** Options of the live view (with `hub`). */
  live?: LiveViewOptions;
  /**
   * The hub's barrier is always already passed (PGlite: listeners run before the writer's
   * own code continues), so reads skip awaiting it: no promise and no microtask per read.
   */
  barrierFree?: boolean;
}

/** What {@link ProjectStatusReader.peek} answers when only a read can tell. */
export const MUST_READ: unique symbol = Symbol('must read');

/**
 * Reads project status for the status endpoint. Completed and failed projects never
 * change, so their bodies are serialized once and served from an LRU of bytes, with the
 * owner checked against the cached entry. With a hub, projects in progress are answered
 * from the {@link LiveView} and ids that never existed from its filter, once the hub's
 * barrier says every announcement committed before the read has arrived; a read that
 * cannot be sure asks the database.
 *
 * @example
 * const reader = new ProjectStatusReader(db);
 * const view = await reader.read(principal, projectId); // undefined → 404
 */
export class ProjectStatusReader {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #final: LRUCache<string, FinalView>;
  /**
   * Projects deleted lately: a read that began before a deletion and ends after it must not
   * cache the body again (ids are never reused, so remembering them is always right).
   */
  readonly #deleted = new LRUCache<string, true>({ max: 10_000 });
  readonly #hub: ProjectEventHub | undefined;
  readonly #barrierFree: boolean;
  readonly #live: LiveView | undefined;
  /**
   * The last in-progress answer built per project: reads in the same millisecond (a burst
   * of polls, every long-poll woken at once) share one body and its ETag instead of
   * serializing and hashing it each. Keyed by the estimate's end and the remaining time,
   * so an entry is only reused when the bytes would be identical.
   */
  readonly #inProgressViews = new LRUCache<
    string,
    { at: number | null; remaining: number; view: StatusView }
  >({ max: 10_000 });
  #stopObserving: () => void = () => {};
  readonly #counts = { memory: 0, database: 0 };
  /** Database reads in flight behind the barrier, by project and owner. */
  readonly #flights = new Map<
    string,
    { pending: PendingRead; promise: Promise<StatusView | undefined> }
  >();

  constructor(
    db: Db,
    {
      cacheBytes = 64 * 1024 * 1024,
      now = Date.now,
      hub,
      live = {},
      barrierFree = false,
    }: StatusReaderOptions = {},
  ) {
    this.#db = db;
    this.#barrierFree = barrierFree;
    this.#now = now;
    this.#final = new LRUCache({
      maxSize: cacheBytes,
      sizeCalculation: (v) => v.body.length + 256,
    });
    if (hub !== undefined) {
      this.#hub = hub;
      this.#live = LiveView.attach(db, hub, { now, ...live });
      // Announcements were lost: deletions among them.
      this.#live.onReset = () => this.#final.clear();
      // Deletions arrive on the hub's connection, in order with its barrier.
      this.#stopObserving = hub.observe({
        onAnnouncement: (projectId, deleted) => {
          if (deleted) this.forget(projectId);
          // A completed project's events are a revision's: the one completing changes the
          // body. Reads in flight meanwhile are stale and are not kept (#remember).
          else this.#final.delete(projectId);
        },
        onGap: () => {},
      });
    }
  }

  /** Reads answered from memory and from the database since the start (tests, metrics). */
  get counts(): Readonly<{ memory: number; database: number }> {
    return { ...this.#counts };
  }

  /** The live view (tests, metrics); undefined without a hub. */
  get live(): LiveView | undefined {
    return this.#live;
  }

  /**
   * The status from memory when no barrier needs awaiting (no hub, or PGlite's): the hot
   * path of a poll, with no promise. {@link MUST_READ} means "call {@link read}".
   *
   * @example
   * const peeked = reader.peek(principal, id);
   * const view = peeked === MUST_READ ? await reader.read(principal, id) : peeked;
   */
  peek(principal: Principal, projectId: string): StatusView | undefined | typeof MUST_READ {
    return this.#needsBarrier() ? MUST_READ : this.#fromMemory(principal, projectId);
  }

  /** The status of a project owned by the caller's account in the caller's mode, else `undefined`. */
  async read(principal: Principal, projectId: string): Promise<StatusView | undefined> {
    const live = this.#live;
    // Without a hub, cached final bodies are served as they always were; with one, every
    // answer from memory waits for the barrier (free on PGlite), so a deletion or an end
    // committed before this read began is seen.
    const synced = this.#needsBarrier() ? await this.#hub!.sync() : true;
    if (synced) {
      const known = this.#fromMemory(principal, projectId);
      if (known !== MUST_READ) return known;
    }
    if (!synced || live === undefined) return this.#fromDatabase(principal, projectId, undefined);
    // Concurrent reads of one project share one query (a completion wakes every long-poll
    // at once), as long as no announcement for it came since that query began: after the
    // barrier, any change committed before this read began has been announced.
    const key = `${projectId}\u0000${principal.accountId}\u0000${principal.mode}`;
    const flying = this.#flights.get(key);
    if (flying !== undefined && !flying.pending.stale) {
      this.#counts.memory++;
      return flying.promise;
    }
    const pending = live.beginRead(projectId);
    const promise = this.#fromDatabase(principal, projectId, pending).finally(() => {
      live.endRead(projectId, pending);
      if (this.#flights.get(key)?.pending === pending) this.#flights.delete(key);
    });
    this.#flights.set(key, { pending, promise });
    return promise;
  }

  /** Whether an answer from memory must first wait for the hub's barrier. */
  #needsBarrier(): boolean {
    return this.#hub !== undefined && !this.#barrierFree && !this.#hub.barrierFree;
  }

  /** The answer memory holds (behind the barrier), or {@link MUST_READ}. */
  #fromMemory(principal: Principal, projectId: string): StatusView | undefined | typeof MUST_READ {
    const cached = this.#final.get(projectId);
    if (cached !== undefined) {
      this.#counts.memory++;
      return cached.accountId === principal.accountId && cached.mode === principal.mode
        ? cached
        : undefined;
    }
    const live = this.#live;
    if (live === undefined) return MUST_READ;
    if (this.#deleted.has(projectId) || live.absent(projectId)) {
      this.#counts.memory++;
      return undefined;
    }
    const entry = live.get(projectId);
    if (entry === undefined) return MUST_READ;
    this.#counts.memory++;
    return entry.accountId === principal.accountId && entry.mode === principal.mode
      ? this.#inProgress(projectId, entry.estimatedCompletionAt)
      : undefined;
  }

  /** Reads the database; with `pending` (a read behind the barrier) it may feed the view. */
  async #fromDatabase(
    principal: Principal,
    projectId: string,
    pending: PendingRead | undefined,
  ): Promise<StatusView | undefined> {
    const live = this.#live;
    const readAt = this.#now();
    this.#counts.database++;
    const row = await findOwnedProjectStatus(
      this.#db,
      projectId,
      principal.accountId,
      principal.mode,
    );
    if (row === undefined) return undefined;
    live?.exists(projectId);
    switch (row.status) {
      case 'in_progress': {
        const at = row.estimatedCompletionAt?.getTime() ?? null;
        if (pending) {
          live!.remember(
            projectId,
            pending,
            { accountId: row.accountId, mode: row.mode, estimatedCompletionAt: at },
            readAt,
          );
        }
        return this.#inProgress(projectId, at);
      }
      case 'failed': {
        const failed = view(
          'failed',
          failedStatus(
            projectId,
            row.errorCode ?? FAILURE_CODES.failed,
            row.errorMessage ?? FAILURE_MESSAGES.unknown,
          ),
        );
        return this.#remember(projectId, row.accountId, row.mode, failed, pending);
      }
      case 'completed': {
        const text = await findProjectResultBody(this.#db, projectId);
        // Deleted between the two queries.
        if (text === undefined) return undefined;
        if (text === null) {
          throw new Error(`completed project ${projectId} has no stored result body`);
        }
        const body = Buffer.from(text);
        const etag = row.resultEtag ?? etagOf(body);
        return this.#remember(
          projectId,
          row.accountId,
          row.mode,
          { status: 'completed', body, etag, revision: row.currentRevision },
          pending,
        );
      }
      default: {
        const never: never = row.status;
        throw new Error(`unknown project status ${String(never)}`);
      }
    }
  }

  /** Drops a project's cached final body (it was deleted): the next read asks the database. */
  forget(projectId: string): void {
    this.#deleted.set(projectId, true);
    this.#inProgressViews.delete(projectId);
    this.#final.delete(projectId);
    this.#live?.onAnnouncement(projectId, true);
  }

  /** The in-progress body: the estimate's arithmetic on the remembered end. */
  #inProgress(projectId: string, estimatedCompletionAt: number | null): StatusView {
    const remaining =
      estimatedCompletionAt === null
        ? 0
        : Math.max(0, Math.round(estimatedCompletionAt - this.#now()));
    const last = this.#inProgressViews.get(projectId);
    if (last !== undefined && last.at === estimatedCompletionAt && last.remaining === remaining) {
      return last.view;
    }
    const built: StatusView = {
      ...view('in_progress', {
        projectId,
        status: 'in_progress',
        estimatedCompletionMs: remaining,
      }),
      estimatedCompletionMs: remaining,
    };
    this.#inProgressViews.set(projectId, { at: estimatedCompletionAt, remaining, view: built });
    return built;
  }

  /** Stops observing the hub. */
  close(): void {
    this.#stopObserving();
    this.#live?.close();
  }

  #remember(
    projectId: string,
    accountId: string,
    mode: string,
    v: StatusView,
    pending: PendingRead | undefined,
  ): StatusView {
    if (this.#deleted.has(projectId)) return v;
    // With a hub, only a read behind the barrier with no announcement since (a deletion
    // among them) may be kept: one made while announcements were lost may outlive a
    // deletion nobody told this process of.
    if (this.#hub !== undefined && (pending === undefined || pending.stale)) return v;
    this.#final.set(projectId, { ...v, accountId, mode });
    return v;
  }
}
