/**
 * A tracker's webhook delivery (docs/trackers.md, "The webhook"): verified by the provider's
 * own signature over the exact bytes received, deduplicated by those bytes (a delivery id is
 * an unsigned header), and each
 * issue change it carries applied to the linked task, as the tracker: closed → `done`,
 * reopened → `todo`. A change older than what PGS last saw of the issue is ignored (newest
 * wins), since trackers do not promise to deliver in order; the check and the write share one
 * transaction with the link's row locked (observe.ts), so two deliveries for one issue
 * arriving together are weighed one after the other.
 */
import { createHash } from 'node:crypto';
import {
  deleteTrackerDelivery,
  findLinksByExternalId,
  insertTrackerDelivery,
} from '../storage/sql/trackers.ts';
import type { ExternalMove } from '../tasks/external.ts';
import type { TaskDispatcher } from '../tasks/notify.ts';
import type { ConnectionDeps } from './connections.ts';
import { connectionWithSecret } from './connections.ts';
import { applyObservation } from './observe.ts';
import { adapterFor } from './providers/index.ts';
import type { InboundChange, TrackerProvider } from './providers/provider.ts';

/** What the inbound route is built from. */
export interface InboundDeps extends ConnectionDeps {
  /** Told of each task's change (the `task.updated` webhook). */
  dispatcher?: TaskDispatcher | undefined;
  /** The clock deliveries are judged stale by and changes are dated with. */
  now: () => number;
}

/** What became of a delivery. */
export type InboundResult =
  | { kind: 'unknown_connection' }
  /** Unsigned, wrongly signed or stale: `reason` is for the log, never the answer. */
  | { kind: 'refused'; reason: string }
  | {
      kind: 'accepted';
      deliveryId: string;
      /** The delivery was received before: nothing changed. */
      replayed: boolean;
      /** Tasks moved. */
      moves: ExternalMove[];
      /** Changes of linked issues that moved nothing (older than what PGS saw, or no move). */
      ignored: number;
    };

/**
 * Receives one delivery to a connection's webhook.
 *
 * @example
 * const result = await receiveDelivery(deps, 'tc_01J…', headers, rawBody);
 * if (result.kind === 'refused') reply.code(401);
 */
export async function receiveDelivery(
  deps: InboundDeps,
  connectionId: string,
  headers: Record<string, string | undefined>,
  rawBody: Buffer,
): Promise<InboundResult> {
  const found = await connectionWithSecret(deps, connectionId);
  if (found === undefined) return { kind: 'unknown_connection' };
  const { row, secret } = found;
  const adapter = (deps.adapters ?? adapterFor)(row.provider);
  if (adapter === undefined) return { kind: 'refused', reason: `no ${row.provider} adapter` };
  const at = new Date(deps.now());
  const verdict = await adapter.verifyWebhook({ headers, rawBody, secret, now: at });
  if (!verdict.ok) return { kind: 'refused', reason: verdict.reason };
  const { deliveryId, changes } = verdict.delivery;
  // Deduplicated by what is signed, the body: a tracker's delivery id is an unsigned header,
  // so a captured delivery replayed under a new id is still the same delivery.
  const signed = `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  if (!(await insertTrackerDelivery(deps.db, row.id, signed, at))) {
    return { kind: 'accepted', deliveryId, replayed: true, moves: [], ignored: 0 };
  }
  try {
    const moves: ExternalMove[] = [];
    let ignored = 0;
    for (const change of changes) {
      const outcome = await applyChange(deps, row, change, at);
      moves.push(...outcome.moves);
      ignored += outcome.ignored;
    }
    return { kind: 'accepted', deliveryId, replayed: false, moves, ignored };
  } catch (error) {
    // Not applied: forget the delivery, so the tracker's retry of it is not a replay.
    await deleteTrackerDelivery(deps.db, row.id, signed).catch(() => {});
    throw error;
  }
}

async function applyChange(
  deps: InboundDeps,
  row: { id: string; provider: TrackerProvider; accountId: string; mode: 'live' | 'test' },
  change: InboundChange,
  at: Date,
): Promise<{ moves: ExternalMove[]; ignored: number }> {
  const seen = { state: change.state, changedAt: new Date(change.updatedAt) };
  const context = { connection: row, at, dispatcher: deps.dispatcher };
  const moves: ExternalMove[] = [];
  let ignored = 0;
  for (const link of await findLinksByExternalId(deps.db, row.id, change.externalId)) {
    if (!link.itemId.startsWith('T-')) continue;
    // The newest-wins check, the move and the record in one transaction (observe.ts).
    const move = await applyObservation(deps.db, link, seen, context);
    if (move === undefined) ignored++;
    else moves.push(move);
  }
  return { moves, ignored };
}
