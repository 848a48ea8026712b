/**
 * What a tracker says of a linked issue, applied in one transaction (docs/trackers.md, "The
 * webhook" and "Reconcile"): the project's row locked first, as every task writer locks it,
 * then the link's row (`FOR UPDATE`); the newest-wins check against what PGS last saw of the
 * issue, the task's move and the record of what was seen all happen under those locks. Two
 * deliveries for one issue (or a delivery and the reconcile) therefore wait for each other,
 * and the older change, weighed after the newer was recorded, is ignored: checked and written
 * in separate transactions, both could pass the check and the older record the link last.
 */
import { DomainError } from '../errors.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  lockTrackerLink,
  recordLinkObserved,
  type TrackerLinkRow,
} from '../storage/sql/trackers.ts';
import { applyExternalChange, type ExternalMove } from '../tasks/external.ts';
import type { TaskDispatcher } from '../tasks/notify.ts';
import { openProject } from '../tasks/open.ts';
import type { IssueState, TrackerProvider } from './providers/provider.ts';

/** A linked issue's state as the tracker reported it, and the tracker's time of it. */
export interface Observation {
  state: IssueState;
  changedAt: Date;
}

/** Whose connection saw it, when, and who hears of a move. */
export interface ObserveContext {
  connection: { provider: TrackerProvider; accountId: string; mode: Mode };
  at: Date;
  dispatcher?: TaskDispatcher | undefined;
  /**
   * Only a state PGS has not seen may move the task (the reconcile: an issue's updatedAt
   * moves on a comment or a label too, which is recorded as seen and moves nothing).
   */
  stateOnly?: boolean;
}

/** The note a tracker's move carries in the task's history. */
export function moveNote(
  provider: TrackerProvider,
  link: Pick<TrackerLinkRow, 'externalKey' | 'url'>,
  state: IssueState,
): string {
  return `Issue ${link.externalKey} ${state === 'closed' ? 'closed' : 'reopened'} on ${provider} (${link.url}).`;
}

/**
 * Applies one observation of a linked task's issue: moves the task (closed → `done`,
 * reopened → `todo`) as the tracker, unless PGS saw a newer change of the issue or the task
 * moved in PGS since, and records what was seen. Undefined when nothing moved.
 *
 * @example
 * const move = await applyObservation(db, link, { state: 'closed', changedAt }, { connection, at });
 */
export async function applyObservation(
  db: Db,
  link: Pick<TrackerLinkRow, 'connectionId' | 'projectId' | 'itemId'>,
  seen: Observation,
  { connection, at, dispatcher, stateOnly = false }: ObserveContext,
): Promise<ExternalMove | undefined> {
  const owner = { accountId: connection.accountId, mode: connection.mode };
  return db.transaction(async (tx) => {
    const projectId = await openForTracker(tx, owner, link.projectId, at, dispatcher);
    const current = await lockTrackerLink(tx, link);
    if (current === undefined) return undefined;
    if (current.externalUpdatedAt !== null && seen.changedAt <= current.externalUpdatedAt) {
      return undefined;
    }
    const moves = projectId !== undefined && !(stateOnly && seen.state === current.state);
    const move = moves
      ? await applyExternalChange(
          tx,
          projectId,
          current.itemId,
          {
            state: seen.state,
            agent: connection.provider,
            note: moveNote(connection.provider, current, seen.state),
            notAfterTaskChange: seen.changedAt,
          },
          at,
          { ...owner, dispatcher },
        )
      : undefined;
    await recordLinkObserved(
      tx,
      current,
      { state: seen.state, externalUpdatedAt: seen.changedAt },
      at,
    );
    return move;
  });
}

/**
 * The project opened for a tracker's write (its row locked), or undefined when it is gone or
 * not completed: the change then moves nothing, and is still recorded as seen.
 */
async function openForTracker(
  tx: Tx,
  owner: { accountId: string; mode: Mode },
  projectId: string,
  at: Date,
  dispatcher: TaskDispatcher | undefined,
): Promise<string | undefined> {
  try {
    // No key makes this change: the tracker does, named as the history entry's agent.
    const caller = { ...owner, keyId: '' };
    return (await openProject(tx, caller, projectId, at, dispatcher, { write: true })).id;
  } catch (error) {
    if (
      error instanceof DomainError &&
      (error.code === 'RESOURCE_NOT_FOUND' || error.code === 'PROJECT_NOT_COMPLETED')
    ) {
      return undefined;
    }
    throw error;
  }
}
