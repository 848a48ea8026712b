/**
 * The periodic reconcile (docs/trackers.md, "Reconcile"): a webhook delivery can be lost (the
 * server was down, the tracker gave up), so the workers read each linked issue now and then
 * and apply a state PGS has not seen. The newest change wins: the issue's updatedAt against
 * the task's, so a task moved in PGS after the issue's last change keeps its status.
 */
import type { Logger } from 'pino';
import {
  claimDueConnection,
  findTrackerConnection,
  listTaskLinks,
} from '../storage/sql/trackers.ts';
import type { ExternalMove } from '../tasks/external.ts';
import type { TaskDispatcher } from '../tasks/notify.ts';
import { type ConnectionDeps, openRow } from './connections.ts';
import { applyObservation } from './observe.ts';
import { TrackerRequestError } from './providers/provider.ts';

/** What a reconcile is built from. */
export interface ReconcileDeps extends ConnectionDeps {
  dispatcher?: TaskDispatcher | undefined;
  /** The clock (tests inject one). */
  now: () => number;
}

/** What one reconcile of a connection did. */
export interface ReconcileResult {
  /** Linked issues read. */
  read: number;
  moves: ExternalMove[];
  /** Issues the tracker would not give (each is tried again next time). */
  failed: number;
}

/**
 * Reads every issue linked to a task through the connection and applies the changes newer
 * than what PGS has. A tracker that limits our rate ends this round early (the rest waits
 * for the next); an issue it refuses (deleted) is counted and skipped.
 *
 * @example
 * const { moves } = await reconcileConnection(deps, 'tc_01J…');
 */
export async function reconcileConnection(
  deps: ReconcileDeps,
  connectionId: string,
): Promise<ReconcileResult> {
  const row = await findTrackerConnection(deps.db, connectionId);
  const result: ReconcileResult = { read: 0, moves: [], failed: 0 };
  if (row === undefined) return result;
  const { client, connection } = await openRow(deps, row);
  for (const link of await listTaskLinks(deps.db, row.id)) {
    let issue: Awaited<ReturnType<typeof client.get>>;
    try {
      issue = await client.get(link.externalId);
    } catch (error) {
      result.failed++;
      if (error instanceof TrackerRequestError && error.retryable) break;
      continue;
    }
    result.read++;
    const changedAt = new Date(issue.updatedAt);
    if (link.externalUpdatedAt !== null && changedAt <= link.externalUpdatedAt) continue;
    // An issue's updatedAt moves on a comment or a label too: only a state PGS has not seen
    // moves the task; any other edit is recorded as seen and changes nothing (observe.ts,
    // which weighs it again under the link's lock, against a delivery arriving meanwhile).
    const move = await applyObservation(
      deps.db,
      link,
      { state: issue.state, changedAt },
      { connection, at: new Date(deps.now()), dispatcher: deps.dispatcher, stateOnly: true },
    );
    if (move !== undefined) result.moves.push(move);
  }
  return result;
}

/**
 * Reconciles every connection due (never reconciled, or last more than `intervalMs` ago),
 * each claimed by setting its `reconciledAt`, so workers running together share the work.
 * Returns the ids reconciled.
 *
 * @example
 * await reconcileDue(deps, 300_000, log);
 */
export async function reconcileDue(
  deps: ReconcileDeps,
  intervalMs: number,
  log?: Pick<Logger, 'warn' | 'info'>,
): Promise<string[]> {
  const done: string[] = [];
  for (;;) {
    const now = deps.now();
    const due = await deps.db.transaction((tx) =>
      claimDueConnection(tx, new Date(now - intervalMs), new Date(now)),
    );
    if (due === undefined || done.includes(due.id)) return done;
    done.push(due.id);
    try {
      const result = await reconcileConnection(deps, due.id);
      if (result.moves.length > 0 || result.failed > 0) {
        log?.info(
          {
            connectionId: due.id,
            read: result.read,
            moved: result.moves.length,
            failed: result.failed,
          },
          'tracker reconciled',
        );
      }
    } catch (error) {
      // Never the error's own text: a tracker's SDK may quote the request it made.
      log?.warn(
        { connectionId: due.id, error: error instanceof Error ? error.name : 'unknown' },
        'tracker reconcile failed',
      );
    }
  }
}

/**
 * Runs {@link reconcileDue} on a timer in a worker process.
 *
 * @example
 * const stop = startReconciler(deps, 300_000, log);
 * stop();
 */
export function startReconciler(
  deps: ReconcileDeps,
  intervalMs: number,
  log: Pick<Logger, 'warn' | 'info'>,
): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      reconcileDue(deps, intervalMs, log)
        .catch((error: unknown) =>
          log.warn(
            { error: error instanceof Error ? error.name : 'unknown' },
            'tracker reconcile failed',
          ),
        )
        .finally(() => {
          running = false;
        });
    },
    Math.min(intervalMs, 30_000),
  );
  timer.unref();
  return () => clearInterval(timer);
}
