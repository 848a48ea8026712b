/**
 * The in-process view of live projects that lets a status read of an in-progress project,
 * or of an id that does not exist, be answered from memory. It is fed by the workflow's
 * own announcements (NOTIFY on commit, {@link ProjectEventHub}) and trusted only behind
 * the hub's barrier: see docs/performance.md for the guarantee.
 */
import { LRUCache } from 'lru-cache';
import type { AnnouncementObserver, ProjectEventHub } from '../events/hub.ts';
import type { Db } from '../storage/db.ts';
import { listProjectIdsAfter } from '../storage/sql/project-ids.ts';
import { IdFilter } from './id-filter.ts';

/** What the view keeps of a project in progress: its owner and the estimate's end. */
export interface LiveEntry {
  accountId: string;
  mode: string;
  /** When the workflow expects it to end (epoch ms); null: no estimate. */
  estimatedCompletionAt: number | null;
  /** When this was read from the database (epoch ms). */
  readAt: number;
}

/** A database read in flight: an announcement for its project meanwhile makes it stale. */
export interface PendingRead {
  stale: boolean;
}

export interface LiveViewOptions {
  /** Projects in progress remembered at most (least recently read go first). */
  maxEntries?: number;
  /**
   * How long an entry's estimate is trusted. The workflow rewrites the estimate after each
   * document without an announcement, so an entry is re-read after this long.
   */
  estimateMaxAgeMs?: number;
  /** Ids the filter of existing projects is first sized for (it doubles as they grow). */
  idCapacity?: number;
  /** Ids read per query while the filter is (re)built. */
  scanPageSize?: number;
  now?: () => number;
}

/**
 * Live projects in memory, and which ids exist. Every announcement on the hub (creation,
 * event, deletion) drops the project's entry and marks reads of it in flight stale, so a
 * value read from the database before an announcement is never kept after it.
 *
 * @example
 * const live = LiveView.attach(db, hub); // then, behind `await hub.sync()`:
 * live.get(id) ?? (live.absent(id) ? 'not found' : 'read the database');
 */
export class LiveView implements AnnouncementObserver {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #maxAge: number;
  readonly #pageSize: number;
  readonly #entries: LRUCache<string, LiveEntry>;
  readonly #pending = new Map<string, Set<PendingRead>>();
  /** Ids that exist (or existed); undefined until the first walk of the table ends. */
  #ids: IdFilter | undefined;
  /** The filter being built; announcements go to it too. */
  #building: IdFilter | undefined;
  #capacity: number;
  #rebuild: Promise<void> | undefined;
  #rebuildAgain = false;
  #stopObserving: () => void = () => {};
  /** Called when the view drops everything (a gap in announcements). */
  onReset: () => void = () => {};

  constructor(db: Db, options: LiveViewOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#maxAge = options.estimateMaxAgeMs ?? 1_000;
    this.#pageSize = options.scanPageSize ?? 10_000;
    this.#capacity = options.idCapacity ?? 1 << 20;
    this.#entries = new LRUCache({ max: options.maxEntries ?? 100_000 });
  }

  /**
   * A view observing `hub`, its filter of ids being built in the background (until then
   * {@link absent} is never true).
   */
  static attach(db: Db, hub: ProjectEventHub, options: LiveViewOptions = {}): LiveView {
    const view = new LiveView(db, options);
    view.#stopObserving = hub.observe(view);
    view.rebuildIds();
    return view;
  }

  /** The project's entry, if remembered and its estimate still fresh. */
  get(projectId: string): LiveEntry | undefined {
    const entry = this.#entries.get(projectId);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.readAt > this.#maxAge) return undefined;
    return entry;
  }

  /** True only when the project certainly does not exist (the filter never saw it). */
  absent(projectId: string): boolean {
    return this.#ids !== undefined && !this.#ids.has(projectId);
  }

  /** Registers a database read of the project; pass it to {@link remember} and {@link endRead}. */
  beginRead(projectId: string): PendingRead {
    const read = { stale: false };
    let set = this.#pending.get(projectId);
    if (set === undefined) {
      set = new Set();
      this.#pending.set(projectId, set);
    }
    set.add(read);
    return read;
  }

  endRead(projectId: string, read: PendingRead): void {
    const set = this.#pending.get(projectId);
    if (set === undefined) return;
    set.delete(read);
    if (set.size === 0) this.#pending.delete(projectId);
  }

  /** Keeps what `read` found of a project in progress, unless an announcement came meanwhile. */
  remember(
    projectId: string,
    read: PendingRead,
    entry: Omit<LiveEntry, 'readAt'>,
    readAt: number,
  ): void {
    if (read.stale) return;
    this.#entries.set(projectId, { ...entry, readAt });
  }

  /** A row was found: the id exists (the filter may not have heard yet). */
  exists(projectId: string): void {
    this.#ids?.add(projectId);
    this.#building?.add(projectId);
  }

  /** Entries held and the filter's size (tests, metrics). */
  get size(): { entries: number; ids: number; idBytes: number } {
    return {
      entries: this.#entries.size,
      ids: this.#ids?.count ?? 0,
      idBytes: (this.#ids?.bytes ?? 0) + (this.#building?.bytes ?? 0),
    };
  }

  onAnnouncement(projectId: string, deleted: boolean): void {
    this.#entries.delete(projectId);
    const pending = this.#pending.get(projectId);
    if (pending) for (const read of pending) read.stale = true;
    // A deleted id stays in the filter (a Bloom filter cannot forget): reads of it are
    // answered by the reader's memory of deletions, or by the database.
    if (!deleted) {
      this.exists(projectId);
      if (this.#ids !== undefined && this.#ids.count > this.#ids.capacity) {
        this.#capacity = this.#ids.capacity * 2;
        this.rebuildIds();
      }
    }
  }

  onGap(): void {
    // Announcements are lost from now on: nothing derived from them holds.
    this.#entries.clear();
    for (const set of this.#pending.values()) for (const read of set) read.stale = true;
    this.#ids = undefined;
    this.#building = undefined;
    this.onReset();
  }

  onResume(): void {
    this.rebuildIds();
  }

  /**
   * Walks the projects table into a new filter while announcements also feed it, then
   * swaps it in. Listening started first, so an id is either announced or walked.
   */
  rebuildIds(): void {
    if (this.#rebuild !== undefined) {
      this.#rebuildAgain = true;
      return;
    }
    this.#rebuild = this.#walk()
      .catch(() => {
        // The filter stays as it was (or absent): reads of unknown ids ask the database.
        this.#building = undefined;
      })
      .finally(() => {
        this.#rebuild = undefined;
        if (this.#rebuildAgain) {
          this.#rebuildAgain = false;
          this.rebuildIds();
        }
      });
  }

  /** Resolves when no rebuild of the filter is under way (tests). */
  async settled(): Promise<void> {
    while (this.#rebuild !== undefined) await this.#rebuild;
  }

  async #walk(): Promise<void> {
    const building = new IdFilter(this.#capacity);
    this.#building = building;
    let after: string | null = null;
    for (;;) {
      const ids = await listProjectIdsAfter(this.#db, after, this.#pageSize);
      // A gap during the walk discarded this filter.
      if (this.#building !== building) return;
      for (const id of ids) building.add(id);
      if (ids.length < this.#pageSize) break;
      after = ids.at(-1)!;
    }
    if (building.count > building.capacity) {
      this.#capacity = building.count * 2;
      this.#rebuildAgain = true;
    }
    this.#ids = building;
    this.#building = undefined;
  }

  /** Stops observing the hub. */
  close(): void {
    this.#stopObserving();
  }
}
