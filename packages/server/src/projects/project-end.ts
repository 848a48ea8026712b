/**
 * How a project in progress ends early (a cancel, a delete, its budget): failed, the
 * documents stored charged and the rest released, its final event recorded and the
 * dispatcher told, under the project row's lock. projects.ts calls it from each of them.
 */
import type { ProjectFailed } from '@pgs/contract';
import { settleCredits } from '../credits/ledger.ts';
import { recordEvent } from '../events/hub.ts';
import { priceOfKinds } from '../runs/pricing.ts';
import type { Tx } from '../storage/db.ts';
import { listDocuments, type ProjectRow, transitionProject } from '../storage/sql/projects.ts';
import type { Dispatcher } from './dispatch.ts';
import { cancellationMessage, FAILURE_CODES, failedStatus } from './result.ts';

/** What {@link Projects.cancel} did. */
export type CancelOutcome =
  | {
      outcome: 'cancelled';
      /** The status from now on, and its body as the status endpoint serves it. */
      status: ProjectFailed;
      body: string;
      /** Documents generated before the cancel, the credits charged for them, and released. */
      documents: number;
      charged: number;
      released: number;
    }
  | { outcome: 'not_found' }
  | { outcome: 'not_in_progress'; status: 'completed' | 'failed' };

/**
 * A project row's owner, as the ledger and the dispatcher take it.
 *
 * @example
 * await refundCredits(tx, { ...owner(row), projectId, reserved: row.creditsReserved });
 */
export const owner = (row: ProjectRow) => ({ accountId: row.accountId, mode: row.mode });

/**
 * Tells the dispatcher of a project's final event, in the transaction that records it
 * (webhook deliveries are enqueued there).
 *
 * @example
 * await announceEnded(dispatcher, tx, row, 'completed', now);
 */
export async function announceEnded(
  dispatcher: Dispatcher,
  tx: Tx,
  row: ProjectRow,
  status: 'completed' | 'failed',
  at: number,
): Promise<void> {
  await dispatcher.projectEnded?.(tx, {
    projectId: row.id,
    ...owner(row),
    type: status === 'completed' ? 'project.completed' : 'project.failed',
    status,
    at: new Date(at),
  });
}

/**
 * Cancels a project whose row `tx` holds locked and found in progress; `why` names another
 * reason to stop it the same way (its budget).
 *
 * @example
 * const cancelled = await cancelLocked({ dispatcher, now }, tx, row);
 */
export async function cancelLocked(
  deps: { dispatcher: Dispatcher; now: () => number },
  tx: Tx,
  row: ProjectRow,
  why: {
    code: string;
    message: (settled: { documents: number; charged: number; released: number }) => string;
  } = { code: FAILURE_CODES.cancelled, message: cancellationMessage },
): Promise<Extract<CancelOutcome, { outcome: 'cancelled' }>> {
  const documents = await listDocuments(tx, row.id);
  const charged =
    row.type === null
      ? 0
      : priceOfKinds(
          row.type,
          documents.map((doc) => doc.type),
          row.detail,
          { grounded: row.grounded },
        );
  const released = Math.max(0, row.creditsReserved - charged);
  const message = why.message({ documents: documents.length, charged, released });
  const now = deps.now();
  const updated = await transitionProject(tx, row.id, {
    status: 'failed',
    errorCode: why.code,
    errorMessage: message,
    creditsConsumed: charged,
    generationTimeMs: Math.max(0, now - row.createdAt.getTime()),
    estimatedCompletionAt: null,
    completedAt: new Date(now),
  });
  // The row is locked and was in progress: nothing else can have ended it.
  if (!updated) throw new Error(`project ${row.id} left in_progress under its lock`);
  await settleCredits(tx, {
    ...owner(row),
    projectId: row.id,
    reserved: row.creditsReserved,
    consumed: charged,
  });
  const status = failedStatus(row.id, why.code, message);
  await recordEvent(tx, row.id, 'project.failed', { status: 'failed', error: status.error });
  await announceEnded(deps.dispatcher, tx, row, 'failed', now);
  return {
    outcome: 'cancelled',
    status,
    body: JSON.stringify({ success: true, data: status }),
    documents: documents.length,
    charged,
    released,
  };
}
