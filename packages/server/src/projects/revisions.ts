import type { CreateRevisionRequest, ProjectType } from '@pgs/contract';
import type { Principal } from '../accounts/service.ts';
import { refundCredits, reserveCredits } from '../credits/ledger.ts';
import { recordEvent } from '../events/hub.ts';
import { type GenerationMeter, NO_METER } from '../metrics/meter.ts';
import { documentPlan } from '../runs/catalogue.ts';
import { durationsFor, estimateRemainingMs } from '../runs/estimate.ts';
import { revisableKinds, revisionPrice } from '../runs/revision-plan.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { insertRepositoryContext } from '../storage/sql/contexts.ts';
import { lockProject, type ProjectRow, updateProject } from '../storage/sql/projects.ts';
import {
  discardRevisionParts,
  findRevision,
  insertRevision,
  latestRevisionNumber,
  type RevisionRow,
  transitionRevision,
} from '../storage/sql/revisions.ts';
import { cachedGenerationStats } from '../storage/sql/stats.ts';
import { SILENT_TASK_LOG, type TaskSyncLog } from '../tasks/completion.ts';
import { type AdmittedRevision, admitRevision, revisableProject } from './admission.ts';
import type { Dispatcher, ProjectOwner } from './dispatch.ts';
import { FAILURE_CODES } from './result.ts';
import { completeRevision, type SettledRevision } from './revision-completion.ts';

/** The longest change request accepted, in characters. */
export const MAX_CHANGE_REQUEST = 4000;

/** A revision just started. */
export interface CreatedRevision {
  projectId: string;
  revision: number;
  estimatedCompletionMs: number;
}

export type CancelRevisionOutcome =
  | { outcome: 'cancelled'; revision: RevisionRow }
  | { outcome: 'project_not_found' }
  | { outcome: 'revision_not_found' }
  | { outcome: 'not_in_progress'; status: 'completed' | 'failed' }
  /** Revision 1 is the project's creation, still running: it is cancelled as the project. */
  | { outcome: 'creation_in_progress' };

/** The revision's error message when it fails or is cancelled: nothing changed, all refunded. */
export const revisionFailureMessage = (
  why: 'failed' | 'cancelled' | 'unreadable',
  revision: number,
  current: number,
  refunded: number,
) => {
  const refund =
    refunded > 0
      ? `its ${refunded} ${refunded === 1 ? 'credit was' : 'credits were'} refunded`
      : 'nothing was charged';
  const cause = {
    failed: `Revision ${revision} could not be generated`,
    cancelled: `Revision ${revision} was cancelled`,
    unreadable: `Revision ${revision} found nothing in the change request that it could apply to the requirements; say what to add, change or remove`,
  }[why];
  return `${cause}; ${refund}, and revision ${current} stays current.`;
};

/**
 * A project's revisions: creation (price reserved, job enqueued, one transaction), and the
 * final transitions, each with its credit movement in the same transaction, guarded so it
 * happens once. Completion is all or nothing: the revision's documents, the carried-over
 * ones and the project's new current body appear in one commit; a revision that fails
 * leaves no trace but its history entry and a refund.
 */
export class Revisions {
  readonly #db: Db;
  readonly #dispatcher: Dispatcher;
  readonly #engineFor: (mode: Mode) => string;
  readonly #now: () => number;
  readonly #meter: GenerationMeter;
  readonly #log: TaskSyncLog;

  constructor(
    db: Db,
    dispatcher: Dispatcher,
    engineFor: (mode: Mode) => string,
    now: () => number = Date.now,
    meter: GenerationMeter = NO_METER,
    /** Where a failed task sync at completion is told (the tasks catch up on their next read). */
    log: TaskSyncLog = SILENT_TASK_LOG,
  ) {
    this.#db = db;
    this.#dispatcher = dispatcher;
    this.#engineFor = engineFor;
    this.#now = now;
    this.#meter = meter;
    this.#log = log;
  }

  /**
   * Checks a revision request against the rules that need no project (see
   * {@link admitRevision}); throws DomainError VALIDATION_ERROR.
   *
   * @example
   * const input = await revisions.admit(principal, { changeRequest: 'Add offline mode' });
   */
  admit(principal: Principal, request: CreateRevisionRequest): Promise<AdmittedRevision> {
    return admitRevision(principal, request);
  }

  /**
   * Starts a revision of a completed project (`projectId` as the caller wrote it). Throws
   * DomainError when the project is not the caller's, not completed, already revising, or
   * was created without the codebase the input brings, and InsufficientCreditsError when
   * the balance is short.
   *
   * @example
   * const { revision } = await revisions.create(principal, projectId, await revisions.admit(principal, body));
   */
  async create(
    principal: Principal,
    requestedId: string,
    input: AdmittedRevision,
    options: {
      withinTransaction?: (tx: Tx, created: CreatedRevision) => Promise<void>;
    } = {},
  ): Promise<CreatedRevision> {
    // UUIDs compare case-insensitively; the project is named in its canonical form.
    const projectId = requestedId.toLowerCase();
    const stats = await cachedGenerationStats(this.#db);
    let reserved: number | undefined;
    const created = await this.#db.transaction(async (tx): Promise<CreatedRevision> => {
      const row = await revisableProject(tx, principal, requestedId, input);
      const type = row.type as ProjectType;
      const revision = (await latestRevisionNumber(tx, projectId)) + 1;
      // A new digest also rewrites what describes the code, and is priced for it.
      // Answers rewrite the brief's register, and may touch every document built on it.
      const scope = {
        grounded: row.grounded,
        newDigest: input.repository !== undefined,
        answers: input.answers !== undefined,
      };
      const price = revisionPrice(type, row.detail, scope);
      const kinds = new Set(revisableKinds(type, scope));
      const plan = documentPlan(type, scope).filter((doc) => kinds.has(doc.kind));
      const now = this.#now();
      const estimatedCompletionMs = estimateRemainingMs({
        plan: plan.map((doc) => ({
          ...doc,
          dependsOn: doc.dependsOn.filter((dep) => kinds.has(dep)),
        })),
        done: new Set(),
        defined: false,
        durationOf: durationsFor(plan, input.simulate, stats, this.#engineFor(principal.mode)),
        now,
      });
      await insertRevision(tx, {
        projectId,
        revision,
        status: 'in_progress',
        changeRequest: input.changeRequest,
        answers: input.answers ?? null,
        simulate: input.simulate ?? null,
        creditsReserved: price,
        estimatedCompletionAt: new Date(now + estimatedCompletionMs),
        createdAt: new Date(now),
      });
      if (input.repository !== undefined) {
        await insertRepositoryContext(tx, { projectId, revision, ...input.repository });
      }
      await updateProject(tx, projectId, { revising: revision });
      await reserveCredits(tx, { ...principal, projectId, revision, amount: price });
      await recordEvent(tx, projectId, 'revision.started', {
        revision,
        changeRequest: input.changeRequest,
      });
      await this.#dispatcher.enqueueRevision?.(projectId, revision, tx);
      const created = { projectId, revision, estimatedCompletionMs };
      await options.withinTransaction?.(tx, created);
      reserved = price;
      return created;
    });
    if (reserved !== undefined) this.#meter.credits(principal.mode, 'reserved', reserved);
    return created;
  }

  /**
   * Completes a revision: carries every document it did not rewrite over from the current
   * revision, makes it current (the status body, its ETag), charges the analysis fee and
   * the rewritten documents and releases the rest. False when it was no longer running.
   */
  async complete(projectId: string, revision: number): Promise<boolean> {
    let settled: SettledRevision | undefined;
    const completed = await this.#db.transaction(async (tx) => {
      settled = await completeRevision(tx, projectId, revision, {
        dispatcher: this.#dispatcher,
        now: this.#now,
        log: this.#log,
      });
      return settled !== undefined;
    });
    if (settled) {
      this.#meter.credits(settled.mode, 'consumed', settled.consumed);
      this.#meter.credits(settled.mode, 'refunded', settled.released);
    }
    return completed;
  }

  /** Fails a running revision and refunds it whole; false when it was no longer running. */
  async fail(
    projectId: string,
    revision: number,
    why: 'failed' | 'unreadable' = 'failed',
  ): Promise<boolean> {
    let refunded: { mode: Mode; amount: number } | undefined;
    const failed = await this.#db.transaction(async (tx) => {
      const project = await lockProject(tx, projectId);
      if (project === undefined || project.revising !== revision) return false;
      const amount = await abandonRevisionLocked(tx, project, why, this.#now());
      if (amount === undefined) return false;
      refunded = { mode: project.mode, amount };
      return true;
    });
    if (refunded) this.#meter.credits(refunded.mode, 'refunded', refunded.amount);
    return failed;
  }

  /** Cancels a running revision of the caller's project; the previous revision stays current. */
  async cancel(
    projectId: string,
    revision: number,
    options: {
      owner?: ProjectOwner | undefined;
      withinTransaction?: (tx: Tx, row: RevisionRow) => Promise<void>;
    } = {},
  ): Promise<CancelRevisionOutcome> {
    let refunded: { mode: Mode; amount: number } | undefined;
    const outcome = await this.#db.transaction(async (tx): Promise<CancelRevisionOutcome> => {
      const project = await lockProject(tx, projectId, options.owner);
      if (project === undefined) return { outcome: 'project_not_found' };
      if (revision === 1) {
        // Revision 1 has no row of its own: it is the creation, in the project's row.
        return project.status === 'in_progress'
          ? { outcome: 'creation_in_progress' }
          : { outcome: 'not_in_progress', status: project.status };
      }
      const row = await findRevision(tx, projectId, revision);
      if (row === undefined) return { outcome: 'revision_not_found' };
      if (row.status !== 'in_progress') return { outcome: 'not_in_progress', status: row.status };
      const amount = await abandonRevisionLocked(tx, project, 'cancelled', this.#now());
      if (amount === undefined) throw new Error(`revision ${revision} not running under its lock`);
      const ended = (await findRevision(tx, projectId, revision))!;
      await options.withinTransaction?.(tx, ended);
      refunded = { mode: project.mode, amount };
      return { outcome: 'cancelled', revision: ended };
    });
    if (refunded) this.#meter.credits(refunded.mode, 'refunded', refunded.amount);
    return outcome;
  }
}

/**
 * Ends the revision running on a project whose row `tx` holds locked: failed, refunded
 * whole, what it stored discarded, `revision.failed` recorded. Returns the credits
 * refunded, or undefined when no revision was running.
 */
export async function abandonRevisionLocked(
  tx: Tx,
  project: ProjectRow,
  why: 'failed' | 'cancelled' | 'unreadable',
  now: number,
): Promise<number | undefined> {
  const revision = project.revising;
  if (revision === null) return undefined;
  const row = await findRevision(tx, project.id, revision);
  if (row === undefined || row.status !== 'in_progress') return undefined;
  const code = why === 'cancelled' ? FAILURE_CODES.cancelled : FAILURE_CODES.failed;
  const message = revisionFailureMessage(
    why,
    revision,
    project.currentRevision,
    row.creditsReserved,
  );
  await transitionRevision(tx, project.id, revision, {
    status: 'failed',
    errorCode: code,
    errorMessage: message,
    creditsConsumed: 0,
    generationTimeMs: Math.max(0, now - row.createdAt.getTime()),
    estimatedCompletionAt: null,
    completedAt: new Date(now),
  });
  await discardRevisionParts(tx, project.id, revision);
  await refundCredits(tx, {
    ...owner(project),
    projectId: project.id,
    revision,
    reserved: row.creditsReserved,
  });
  await recordEvent(tx, project.id, 'revision.failed', {
    revision,
    status: 'failed',
    error: { code, message },
  });
  await updateProject(tx, project.id, { revising: null });
  return row.creditsReserved;
}

const owner = (row: ProjectRow) => ({ accountId: row.accountId, mode: row.mode });
