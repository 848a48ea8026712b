import { LRUCache } from 'lru-cache';
import type { Principal } from '../accounts/service.ts';
import type { Database, Db } from '../storage/db.ts';
import { listen } from '../storage/notifications.ts';
import { findOwnedProjectStatus, findProjectResultBody } from '../storage/sql/projects.ts';
import { PROJECT_DELETED_CHANNEL } from './projects.ts';
import { etagOf, FAILURE_CODES, FAILURE_MESSAGES, failedStatus } from './result.ts';

/** A status response ready to send: the body bytes and their validator. */
export interface StatusView {
  status: 'in_progress' | 'completed' | 'failed';
  body: Buffer;
  etag: string;
  /** While in progress: the remaining time estimated, in milliseconds. */
  estimatedCompletionMs?: number;
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
}

/**
 * Reads project status for the status endpoint. Completed and failed projects never
 * change, so their bodies are serialized once and served from an LRU of bytes, with the
 * owner checked against the cached entry; only in-progress projects touch the database
 * on every read.
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

  constructor(db: Db, { cacheBytes = 64 * 1024 * 1024, now = Date.now }: StatusReaderOptions = {}) {
    this.#db = db;
    this.#now = now;
    this.#final = new LRUCache({
      maxSize: cacheBytes,
      sizeCalculation: (v) => v.body.length + 256,
    });
  }

  /** The status of a project owned by the caller's account in the caller's mode, else `undefined`. */
  async read(principal: Principal, projectId: string): Promise<StatusView | undefined> {
    const cached = this.#final.get(projectId);
    if (cached !== undefined) {
      return cached.accountId === principal.accountId && cached.mode === principal.mode
        ? cached
        : undefined;
    }
    const row = await findOwnedProjectStatus(
      this.#db,
      projectId,
      principal.accountId,
      principal.mode,
    );
    if (row === undefined) return undefined;
    switch (row.status) {
      case 'in_progress': {
        const remaining = row.estimatedCompletionAt
          ? Math.max(0, Math.round(row.estimatedCompletionAt.getTime() - this.#now()))
          : 0;
        return {
          ...view('in_progress', {
            projectId,
            status: 'in_progress',
            estimatedCompletionMs: remaining,
          }),
          estimatedCompletionMs: remaining,
        };
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
        return this.#remember(projectId, row.accountId, row.mode, failed);
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
        return this.#remember(projectId, row.accountId, row.mode, {
          status: 'completed',
          body,
          etag,
        });
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
    this.#final.delete(projectId);
  }

  /**
   * Forgets each project deleted by any process on the database, as its NOTIFY arrives;
   * a lost listening connection empties the cache (deletions meanwhile were missed).
   * Returns the function that stops listening.
   *
   * @example
   * const stop = await reader.watchDeletions(database);
   */
  async watchDeletions(database: Database): Promise<() => Promise<void>> {
    return listen(
      database,
      PROJECT_DELETED_CHANNEL,
      (projectId) => this.forget(projectId),
      () => this.#final.clear(),
    );
  }

  #remember(projectId: string, accountId: string, mode: string, v: StatusView): StatusView {
    if (this.#deleted.has(projectId)) return v;
    this.#final.set(projectId, { ...v, accountId, mode });
    return v;
  }
}
