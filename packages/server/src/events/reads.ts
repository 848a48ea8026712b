import type { Db } from '../storage/db.ts';
import { listProjectEvents, type ProjectEventRow } from '../storage/sql/events.ts';
import type { ProjectEventHub } from './hub.ts';

/**
 * A project's stored events after a position, read once for all the event streams that
 * ask for the same thing at the same time: an event announced to many open streams of one
 * project costs one query, not one per stream.
 *
 * A read is shared only by callers that asked after the project's latest announcement.
 * The hub tells its observers before it wakes any waiter, and this table forgets the
 * project's reads in flight right then (their callers keep them); a stream woken by the
 * announcement therefore starts, or joins, a read that began after it, and sees the event.
 *
 * @example
 * const reads = new SharedEventReads(db, hub);
 * const events = await reads.read(projectId, lastSentSeq);
 * reads.close();
 */
export class SharedEventReads {
  readonly #db: Db;
  /** Reads in flight, by project, then by the position they read after. */
  readonly #inFlight = new Map<string, Map<number, Promise<ProjectEventRow[]>>>();
  readonly #stopObserving: () => void;
  #queries = 0;

  constructor(db: Db, hub: ProjectEventHub) {
    this.#db = db;
    this.#stopObserving = hub.observe({
      onAnnouncement: (projectId) => {
        this.#inFlight.delete(projectId);
      },
      onGap: () => this.#inFlight.clear(),
    });
  }

  /** Queries made so far: fewer than reads asked for whenever streams shared one. */
  get queries(): number {
    return this.#queries;
  }

  /** The project's events with `seq > afterSeq`, oldest first. Callers must not modify the array. */
  read(projectId: string, afterSeq = 0): Promise<ProjectEventRow[]> {
    let reads = this.#inFlight.get(projectId);
    const shared = reads?.get(afterSeq);
    if (shared !== undefined) return shared;
    if (reads === undefined) {
      reads = new Map();
      this.#inFlight.set(projectId, reads);
    }
    this.#queries++;
    const read = listProjectEvents(this.#db, projectId, afterSeq);
    reads.set(afterSeq, read);
    const forget = () => {
      const current = this.#inFlight.get(projectId);
      if (current?.get(afterSeq) !== read) return;
      current.delete(afterSeq);
      if (current.size === 0) this.#inFlight.delete(projectId);
    };
    read.then(forget, forget);
    return read;
  }

  close(): void {
    this.#stopObserving();
    this.#inFlight.clear();
  }
}
