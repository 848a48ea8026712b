import { randomUUID } from 'node:crypto';
import type { Conventions } from '@pgs/contract';
import type { Principal } from '../accounts/service.ts';
import { refundCredits, reserveCredits, settleCredits } from '../credits/ledger.ts';
import { announceCreated, PROJECT_DELETED_CHANNEL, recordEvent } from '../events/hub.ts';
import { type GenerationMeter, NO_METER } from '../metrics/meter.ts';
import { documentPlan, inferProjectType } from '../runs/catalogue.ts';
import { durationsFor, estimateRemainingMs } from '../runs/estimate.ts';
import { priceOf, priceOfKinds, priceWithoutType } from '../runs/pricing.ts';
import type { Db, Tx } from '../storage/db.ts';
import { notify } from '../storage/driver/notifications.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { insertRepositoryContext } from '../storage/sql/contexts.ts';
import { findConventions } from '../storage/sql/conventions.ts';
import {
  deleteProjectRows,
  findProject,
  insertProject,
  listDocuments,
  lockProject,
  transitionProject,
} from '../storage/sql/projects.ts';
import { cachedGenerationStats } from '../storage/sql/stats.ts';
import { SILENT_TASK_LOG, syncAtCompletion, type TaskSyncLog } from '../tasks/completion.ts';
import {
  type AdmittedProject,
  admitProject,
  type ProjectRequest,
  type UnpricedEngines,
} from './admission.ts';
import type { Dispatcher, ProjectOwner } from './dispatch.ts';
import { announceEnded, type CancelOutcome, cancelLocked, owner } from './project-end.ts';
import { budgetMessage, completedStatus, etagOf, FAILURE_CODES } from './result.ts';
import { abandonRevisionLocked } from './revisions.ts';

export type { Dispatcher, ProjectEnded, ProjectOwner } from './dispatch.ts';
// The types callers name with Projects (app.ts, the routes, the harness) stay importable from here.
export type { CancelOutcome } from './project-end.ts';

/** A project just created. */
export interface CreatedProject {
  projectId: string;
  estimatedCompletionMs: number;
}

/**
 * Project life cycle: creation (price reserved, job enqueued, one transaction), and the
 * two final transitions, each with its credit movement in the same transaction and
 * guarded so it happens once.
 *
 * @example
 * const input = await projects.admit(principal, { idea: 'A habit tracker for remote teams' });
 * const { projectId } = await projects.create(principal, input);
 */
export class Projects {
  readonly #db: Db;
  readonly #dispatcher: Dispatcher;
  readonly #engineFor: (mode: Mode) => string;
  readonly #now: () => number;
  readonly #meter: GenerationMeter;

  readonly #unpricedEngines: UnpricedEngines;
  readonly #log: TaskSyncLog;
  /** What ending a project early needs (project-end.ts). */
  readonly #endDeps: { dispatcher: Dispatcher; now: () => number };

  /**
   * @param engineFor The engine that generates a key mode's projects (for estimates).
   * @param meter Told of credit movements once their transaction has committed.
   * @param unpricedEngines The engines a mode may call that have no known price: a creation
   *   with a budget (`maxCostUsd`) is refused while there is one (default: none).
   */
  constructor(
    db: Db,
    dispatcher: Dispatcher,
    engineFor: (mode: Mode) => string,
    now: () => number = Date.now,
    meter: GenerationMeter = NO_METER,
    unpricedEngines: UnpricedEngines = () => [],
    /** Where a failed task sync at completion is told (the tasks catch up on their next read). */
    log: TaskSyncLog = SILENT_TASK_LOG,
  ) {
    this.#db = db;
    this.#dispatcher = dispatcher;
    this.#engineFor = engineFor;
    this.#now = now;
    this.#meter = meter;
    this.#unpricedEngines = unpricedEngines;
    this.#log = log;
    this.#endDeps = { dispatcher, now };
  }

  /**
   * Checks a creation request against the rules that need no database (see
   * {@link admitProject}); throws DomainError VALIDATION_ERROR. Run before anything is
   * claimed (an Idempotency-Key) or stored.
   *
   * @example
   * const input = await projects.admit(principal, { idea: 'A habit tracker for remote teams' });
   */
  admit(principal: Principal, request: ProjectRequest): Promise<AdmittedProject> {
    return admitProject(principal, request, this.#unpricedEngines);
  }

  /** The account's current conventions, unless the creation opts out (`conventions: false`). */
  async #conventions(
    principal: Principal,
    input: AdmittedProject,
  ): Promise<{ version: number | null; body: Conventions }> {
    const row =
      input.conventions === false
        ? undefined
        : await findConventions(this.#db, principal.accountId, principal.mode);
    return row === undefined
      ? { version: null, body: {} }
      : { version: row.version, body: row.body as Conventions };
  }

  /** Reports a settlement (completion, cancel) after its transaction committed. */
  #settled(mode: Mode, consumed: number, released: number): void {
    this.#meter.credits(mode, 'consumed', consumed);
    this.#meter.credits(mode, 'refunded', released);
  }

  /** Creates a project; throws InsufficientCreditsError when the balance does not cover its price. */
  async create(
    principal: Principal,
    input: AdmittedProject,
    options: {
      /** Runs inside the creating transaction (e.g. to remember an idempotent response). */
      withinTransaction?: (tx: Tx, created: CreatedProject) => Promise<void>;
    } = {},
  ): Promise<CreatedProject> {
    // Without a requested type the definition stage chooses one; until then the type
    // inferred from the idea drives the estimate, and the dearest type's price is reserved.
    const type = input.type ?? inferProjectType(input.idea);
    // A project given a codebase also gets its overview, priced with the rest.
    const grounded = input.repository !== undefined;
    const plan = documentPlan(type, { grounded });
    // The house conventions in force fill what the request leaves open (docs/conventions.md).
    const house = await this.#conventions(principal, input);
    const detail = input.detail ?? house.body.detail ?? 'standard';
    const price = input.type
      ? priceOf(type, detail, { grounded })
      : priceWithoutType(detail, { grounded });
    const projectId = randomUUID();
    const durationOf = durationsFor(
      plan,
      input.simulate,
      await cachedGenerationStats(this.#db),
      this.#engineFor(principal.mode),
    );
    const now = this.#now();
    const estimatedCompletionMs = estimateRemainingMs({
      plan,
      done: new Set(),
      defined: false,
      durationOf,
      now,
    });
    await this.#db.transaction(async (tx) => {
      await insertProject(tx, {
        id: projectId,
        accountId: principal.accountId,
        mode: principal.mode,
        status: 'in_progress',
        idea: input.idea,
        type,
        typeRequested: input.type !== undefined,
        requestedName: input.name ?? null,
        answers: input.answers?.length ? input.answers : null,
        simulate: input.simulate ?? null,
        detail,
        requirementStyle: input.requirementStyle ?? house.body.requirementStyle ?? 'ears',
        conventionsVersion: house.version,
        language: input.language ?? house.body.language ?? null,
        maxCostMicroUsd: input.maxCostUsd === undefined ? null : Math.round(input.maxCostUsd * 1e6),
        creditsReserved: price,
        estimatedCompletionAt: new Date(now + estimatedCompletionMs),
        createdAt: new Date(now),
        grounded,
      });
      // In the creating transaction: a grounded project never exists without its digest.
      if (input.repository !== undefined) {
        await insertRepositoryContext(tx, { projectId, revision: 1, ...input.repository });
      }
      await reserveCredits(tx, { ...principal, projectId, amount: price });
      await this.#dispatcher.enqueue(projectId, tx);
      await options.withinTransaction?.(tx, { projectId, estimatedCompletionMs });
      // Every process's filter of existing ids learns of it on commit, so a read of it
      // anywhere after the creator's answer is not a 404 from memory.
      await announceCreated(tx, projectId);
    });
    this.#meter.credits(principal.mode, 'reserved', price);
    return { projectId, estimatedCompletionMs };
  }

  /**
   * Completes a project from its stored documents: serializes the response once, charges
   * exactly the documents generated and releases the rest. Returns false if the project
   * was no longer in progress.
   */
  async complete(projectId: string): Promise<boolean> {
    let settled: { mode: Mode; consumed: number; released: number } | undefined;
    const completed = await this.#db.transaction(async (tx) => {
      const row = await findProject(tx, projectId);
      if (row === undefined || row.status !== 'in_progress' || row.type === null) return false;
      const documents = await listDocuments(tx, projectId);
      const consumed = priceOfKinds(
        row.type,
        documents.map((doc) => doc.type),
        row.detail,
        { grounded: row.grounded },
      );
      const now = this.#now();
      const generationTimeMs = Math.max(0, now - row.createdAt.getTime());
      const data = completedStatus(row, documents, {
        creditsConsumed: consumed,
        generationTimeMs,
        documentsGenerated: documents.length,
      });
      const body = JSON.stringify({ success: true, data });
      const updated = await transitionProject(tx, projectId, {
        status: 'completed',
        creditsConsumed: consumed,
        generationTimeMs,
        resultBody: body,
        resultEtag: etagOf(body),
        estimatedCompletionAt: null,
        completedAt: new Date(now),
      });
      if (!updated) return false;
      await settleCredits(tx, {
        ...owner(row),
        projectId,
        reserved: row.creditsReserved,
        consumed,
      });
      // The plan becomes live work in the same commit. A savepoint: should reading it fail,
      // the project still completes, the failure is logged, and the first task request reads
      // the plan again.
      await syncAtCompletion(tx, projectId, 1, documents, new Date(now), undefined, this.#log);
      await recordEvent(tx, projectId, 'project.completed', {
        status: 'completed',
        documentsGenerated: documents.length,
        creditsConsumed: consumed,
      });
      await announceEnded(this.#dispatcher, tx, row, 'completed', now);
      settled = {
        mode: row.mode,
        consumed,
        released: Math.max(0, row.creditsReserved - consumed),
      };
      return true;
    });
    if (settled) this.#settled(settled.mode, settled.consumed, settled.released);
    return completed;
  }

  /** Fails a project and refunds its whole reservation. Returns false if it was no longer in progress. */
  async fail(projectId: string, message: string): Promise<boolean> {
    let refunded: { mode: Mode; amount: number } | undefined;
    const failed = await this.#db.transaction(async (tx) => {
      const row = await findProject(tx, projectId);
      if (row === undefined || row.status !== 'in_progress') return false;
      const updated = await transitionProject(tx, projectId, {
        status: 'failed',
        errorCode: FAILURE_CODES.failed,
        errorMessage: message,
        creditsConsumed: 0,
        generationTimeMs: Math.max(0, this.#now() - row.createdAt.getTime()),
        estimatedCompletionAt: null,
        completedAt: new Date(this.#now()),
      });
      if (!updated) return false;
      await refundCredits(tx, { ...owner(row), projectId, reserved: row.creditsReserved });
      await recordEvent(tx, projectId, 'project.failed', {
        status: 'failed',
        error: { code: FAILURE_CODES.failed, message },
      });
      await announceEnded(this.#dispatcher, tx, row, 'failed', this.#now());
      refunded = { mode: row.mode, amount: row.creditsReserved };
      return true;
    });
    if (refunded) this.#meter.credits(refunded.mode, 'refunded', refunded.amount);
    return failed;
  }

  /**
   * Cancels a project in progress: it ends `failed` (`generation_cancelled`), the documents
   * already stored are charged and the rest of the reservation released (the settlement of
   * a completion), and `project.failed` is recorded so watchers and the worker running it
   * learn at once; all in one transaction, under the project row's lock, guarded like
   * {@link fail} so it happens once. With `owner`, another account's or mode's project is
   * `not_found`.
   *
   * @example
   * const result = await projects.cancel(projectId, { owner: principal });
   * if (result.outcome === 'cancelled') console.log(result.status.error.message);
   */
  async cancel(
    projectId: string,
    options: {
      owner?: ProjectOwner | undefined;
      /** Runs inside the cancelling transaction (e.g. to remember an idempotent response). */
      withinTransaction?: (tx: Tx, body: string) => Promise<void>;
    } = {},
  ): Promise<CancelOutcome> {
    let mode: Mode | undefined;
    const outcome = await this.#db.transaction(async (tx): Promise<CancelOutcome> => {
      const row = await lockProject(tx, projectId, options.owner);
      if (row === undefined) return { outcome: 'not_found' };
      if (row.status !== 'in_progress') return { outcome: 'not_in_progress', status: row.status };
      const cancelled = await cancelLocked(this.#endDeps, tx, row);
      await options.withinTransaction?.(tx, cancelled.body);
      mode = row.mode;
      return cancelled;
    });
    if (mode !== undefined && outcome.outcome === 'cancelled')
      this.#settled(mode, outcome.charged, outcome.released);
    return outcome;
  }

  /**
   * Deletes a project with its documents, provenance and events; one still in progress is
   * cancelled first, in the same transaction and with the same settlement as
   * {@link cancel}. The ledger keeps its movements. Every process's status cache is told by
   * NOTIFY on commit. Returns false when there is no such project (of `owner`).
   *
   * @example
   * if (!(await projects.delete(projectId, { owner: principal }))) throw notFound(projectId);
   */
  async delete(
    projectId: string,
    options: { owner?: ProjectOwner | undefined } = {},
  ): Promise<boolean> {
    let settled: { mode: Mode; consumed: number; released: number } | undefined;
    const deleted = await this.#db.transaction(async (tx) => {
      const row = await lockProject(tx, projectId, options.owner);
      if (row === undefined) return false;
      // The worker running it learns from the project.failed event; its job then finds
      // no project and ends (run() skips a missing project).
      if (row.status === 'in_progress') {
        const cancelled = await cancelLocked(this.#endDeps, tx, row);
        settled = { mode: row.mode, consumed: cancelled.charged, released: cancelled.released };
      }
      // A revision running on it is cancelled and refunded the same way.
      const refunded = await abandonRevisionLocked(tx, row, 'cancelled', this.#now());
      if (refunded !== undefined) this.#meter.credits(row.mode, 'refunded', refunded);
      await deleteProjectRows(tx, projectId);
      await notify(tx, PROJECT_DELETED_CHANNEL, projectId);
      return true;
    });
    if (settled) this.#settled(settled.mode, settled.consumed, settled.released);
    return deleted;
  }

  /**
   * Ends a project in progress because the next model call could pass its budget: failed
   * with `budget_exceeded`, settled as a cancellation (the documents stored charged, the
   * rest released), `project.failed` recorded. Returns false if it was no longer in progress.
   */
  async stopForBudget(
    projectId: string,
    budget: { limitUsd: number; spentUsd: number },
  ): Promise<boolean> {
    let settled: { mode: Mode; consumed: number; released: number } | undefined;
    await this.#db.transaction(async (tx) => {
      const row = await lockProject(tx, projectId);
      if (row === undefined || row.status !== 'in_progress') return;
      const stopped = await cancelLocked(this.#endDeps, tx, row, {
        code: FAILURE_CODES.budget,
        message: (done) => budgetMessage(budget, done),
      });
      settled = { mode: row.mode, consumed: stopped.charged, released: stopped.released };
    });
    if (settled) this.#settled(settled.mode, settled.consumed, settled.released);
    return settled !== undefined;
  }
}
