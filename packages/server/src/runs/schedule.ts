/**
 * The one scheduler of a run's document graph, shared by creations and revisions: each
 * document starts as soon as the documents it builds on are written, a few at once, and the
 * first failure stops the rest.
 */

/** A document of a run's graph: its kind, and the kinds it builds on. */
export interface ScheduledDocument {
  readonly kind: string;
  readonly dependsOn: readonly string[];
}

/** What {@link runSchedule} did: the kinds it wrote, in the order they finished. */
export interface ScheduleReport {
  written: string[];
}

/** Documents no order can reach: one of them waits on itself, or on a kind that never comes. */
export class UnreachableDocumentsError extends Error {
  readonly kinds: readonly string[];

  constructor(label: string, kinds: readonly string[]) {
    super(`${label} has unreachable documents: ${kinds.join(', ')}`);
    this.name = 'UnreachableDocumentsError';
    this.kinds = kinds;
  }
}

/**
 * Writes every document of `documents` not yet `done`, in dependency order, at most
 * `concurrency` at once, starting them in the order given. A dependency that is not among
 * `documents` is not waited on: it is not this run's to write (a revision reads the base's
 * version of a document it does not rewrite). The first `write` that throws aborts the
 * signal the others were given, waits for them to settle (what they cost is settled), and
 * is rethrown; nothing more starts. So does an abort of `signal`: nothing starts after it, and
 * the run throws its reason once the writes in flight settle. `concurrency` is a whole number
 * of at least 1 (RangeError otherwise). A resumed run passes what it stored as `done`.
 *
 * @example
 * const { written } = await runSchedule({
 *   label: 'plan for web',
 *   documents: plan,
 *   done: new Set(stored.keys()),
 *   concurrency: 4,
 *   signal,
 *   write: (doc, docSignal) => writeAndStore(doc, docSignal),
 * });
 */
export async function runSchedule<D extends ScheduledDocument>(input: {
  /** Names the graph in the error thrown when part of it cannot be reached. */
  label: string;
  documents: readonly D[];
  done: Iterable<string>;
  concurrency: number;
  signal: AbortSignal;
  write: (doc: D, signal: AbortSignal) => Promise<void>;
}): Promise<ScheduleReport> {
  const { documents, concurrency } = input;
  // Below one nothing could ever start, and the run would blame its graph for it.
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `${input.label}: concurrency must be a whole number of at least 1, not ${concurrency}`,
    );
  }
  const scheduled = new Set(documents.map((doc) => doc.kind));
  const done = new Set(input.done);
  const written: string[] = [];
  const waitsOn = (doc: D) => doc.dependsOn.filter((kind) => scheduled.has(kind));
  const remaining = () => documents.filter((doc) => !done.has(doc.kind));
  const abort = new AbortController();
  const signal = AbortSignal.any([input.signal, abort.signal]);
  const inFlight = new Map<string, Promise<string>>();
  try {
    while (remaining().length > 0) {
      // An abort from outside (a cancel, a shutdown) starts nothing more: what is in flight
      // was told and is awaited below, and the reason is what the run throws.
      signal.throwIfAborted();
      for (const doc of documents) {
        if (inFlight.size >= concurrency) break;
        if (done.has(doc.kind) || inFlight.has(doc.kind)) continue;
        if (!waitsOn(doc).every((kind) => done.has(kind))) continue;
        inFlight.set(
          doc.kind,
          input.write(doc, signal).then(() => doc.kind),
        );
      }
      if (inFlight.size === 0)
        throw new UnreachableDocumentsError(
          input.label,
          remaining().map((doc) => doc.kind),
        );
      const finished = await Promise.race(inFlight.values());
      inFlight.delete(finished);
      done.add(finished);
      written.push(finished);
    }
  } catch (error) {
    abort.abort(error);
    await Promise.allSettled(inFlight.values());
    throw error;
  }
  return { written };
}
