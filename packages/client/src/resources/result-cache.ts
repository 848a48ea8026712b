import { PgsError } from '../errors.ts';

/** One remembered answer: its body, and what it needs to be revalidated. */
export interface CachedAnswer<T> {
  value: T;
  /** The `ETag` it came with, sent back as `If-None-Match`. */
  etag: string | undefined;
  /** The `PGS-Revision` it came with (a project's status). */
  revision: number | undefined;
}

/**
 * The client's memory of answers that are final or cheap to revalidate, the `max` most
 * recently used (insertion order doubles as recency: a hit is re-inserted, the oldest is
 * evicted). Keys are a project id (its status) or `<projectId>#<revision>` (an ended
 * revision): a version is part of the key, so no answer outlives what it describes.
 * Values go in and come out as copies, so a caller that edits its result cannot change
 * what the next caller gets.
 *
 * @example
 * const cache = new ResultCache(100);
 * cache.set(ResultCache.revisionKey(id, 2), { value: revision, etag: undefined, revision: 2 });
 */
export class ResultCache {
  readonly #max: number;
  readonly #entries = new Map<string, CachedAnswer<unknown>>();

  constructor(max: number) {
    if (!(Number.isSafeInteger(max) || max === Number.POSITIVE_INFINITY) || max < 0) {
      throw new PgsError('maxCachedProjects must be a non-negative integer (or Infinity).');
    }
    this.#max = max;
  }

  /** The key of one revision of a project. @example ResultCache.revisionKey(id, 2) */
  static revisionKey(projectId: string, revision: number): string {
    return `${projectId}#${revision}`;
  }

  /** A copy of the answer kept under `key`, made the most recent. */
  get<T>(key: string): CachedAnswer<T> | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return { ...hit, value: structuredClone(hit.value) as T };
  }

  /** Keeps a copy of `answer` under `key` (nothing when the cache is off). */
  set<T>(key: string, answer: CachedAnswer<T>): void {
    if (this.#max <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { ...answer, value: structuredClone(answer.value) });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Forgets a project's status and every revision of it kept. */
  forgetProject(projectId: string): void {
    for (const key of [...this.#entries.keys()]) {
      if (key === projectId || key.startsWith(`${projectId}#`)) this.#entries.delete(key);
    }
  }
}
