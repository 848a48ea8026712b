import { randomUUID } from 'node:crypto';
import type { ProjectType } from '@pgs/contract';
import type { Principal } from '../accounts/service.ts';
import { refundCredits, reserveCredits, settleCredits } from '../credits/ledger.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  findProject,
  insertProject,
  listDocuments,
  type ProjectRow,
  transitionProject,
} from '../storage/sql/projects.ts';
import { readGenerationStats } from '../storage/sql/stats.ts';
import {
  type DocumentKind,
  documentPlan,
  inferProjectType,
  priceOf,
  priceOfKinds,
  priceWithoutType,
} from './catalogue.ts';
import {
  DEFINITION_KIND,
  estimateRemainingMs,
  priorDurationMs,
  spreadDuration,
  statKey,
} from './estimate.ts';
import { completedStatus, etagOf } from './result.ts';

/** Test keys only: make a project end a given way after a given time. */
export interface Simulation {
  outcome: 'completed' | 'failed';
  durationMs: number;
}

export interface CreateProjectInput {
  idea: string;
  type?: ProjectType | undefined;
  name?: string | undefined;
  simulate?: Simulation | undefined;
}

/** A project just created. */
export interface CreatedProject {
  projectId: string;
  estimatedCompletionMs: number;
}

/** Puts a project's generation on the queue, inside the creating transaction. */
export interface Dispatcher {
  enqueue(projectId: string, tx: Tx): Promise<void>;
}

/**
 * Expected milliseconds per kind for a project: the simulated spread for a simulation,
 * else the durations measured here, else a prior by the kind's weight.
 */
export function durationsFor(
  plan: readonly DocumentKind[],
  simulate: Simulation | null | undefined,
  measured: ReadonlyMap<string, number>,
  engine: string,
): (kind: string) => number {
  if (simulate) {
    const delays = spreadDuration(plan, simulate.durationMs);
    return (kind) => delays.get(kind) ?? 0;
  }
  const weights = new Map(plan.map((doc) => [doc.kind, doc.weight]));
  return (kind) =>
    measured.get(statKey(engine, kind)) ??
    priorDurationMs(kind === DEFINITION_KIND ? 2 : (weights.get(kind) ?? 3), engine);
}

/**
 * Project life cycle: creation (price reserved, job enqueued, one transaction), and the
 * two final transitions, each with its credit movement in the same transaction and
 * guarded so it happens once.
 *
 * @example
 * const { projectId } = await projects.create(principal, { idea: 'A habit tracker for remote teams' });
 */
export class Projects {
  readonly #db: Db;
  readonly #dispatcher: Dispatcher;
  readonly #engineFor: (mode: Mode) => string;
  readonly #now: () => number;

  /**
   * @param engineFor The engine that generates a key mode's projects (for estimates).
   */
  constructor(
    db: Db,
    dispatcher: Dispatcher,
    engineFor: (mode: Mode) => string,
    now: () => number = Date.now,
  ) {
    this.#db = db;
    this.#dispatcher = dispatcher;
    this.#engineFor = engineFor;
    this.#now = now;
  }

  /** Creates a project; throws InsufficientCreditsError when the balance does not cover its price. */
  async create(
    principal: Principal,
    input: CreateProjectInput,
    options: {
      /** Runs inside the creating transaction (e.g. to remember an idempotent response). */
      withinTransaction?: (tx: Tx, created: CreatedProject) => Promise<void>;
    } = {},
  ): Promise<CreatedProject> {
    // Without a requested type the definition stage chooses one; until then the type
    // inferred from the idea drives the estimate, and the dearest type's price is reserved.
    const type = input.type ?? inferProjectType(input.idea);
    const plan = documentPlan(type);
    const price = input.type ? priceOf(type) : priceWithoutType();
    const projectId = randomUUID();
    const durationOf = durationsFor(
      plan,
      input.simulate,
      await readGenerationStats(this.#db),
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
        simulate: input.simulate ?? null,
        creditsReserved: price,
        estimatedCompletionAt: new Date(now + estimatedCompletionMs),
        createdAt: new Date(now),
      });
      await reserveCredits(tx, { ...principal, projectId, amount: price });
      await this.#dispatcher.enqueue(projectId, tx);
      await options.withinTransaction?.(tx, { projectId, estimatedCompletionMs });
    });
    return { projectId, estimatedCompletionMs };
  }

  /**
   * Completes a project from its stored documents: serializes the response once, charges
   * exactly the documents generated and releases the rest. Returns false if the project
   * was no longer in progress.
   */
  async complete(projectId: string): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const row = await findProject(tx, projectId);
      if (row === undefined || row.status !== 'in_progress' || row.type === null) return false;
      const documents = await listDocuments(tx, projectId);
      const consumed = priceOfKinds(
        row.type,
        documents.map((doc) => doc.type),
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
      return true;
    });
  }

  /** Fails a project and refunds its whole reservation. Returns false if it was no longer in progress. */
  async fail(projectId: string, message: string): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const row = await findProject(tx, projectId);
      if (row === undefined || row.status !== 'in_progress') return false;
      const updated = await transitionProject(tx, projectId, {
        status: 'failed',
        errorCode: 'generation_failed',
        errorMessage: message,
        creditsConsumed: 0,
        generationTimeMs: Math.max(0, this.#now() - row.createdAt.getTime()),
        estimatedCompletionAt: null,
        completedAt: new Date(this.#now()),
      });
      if (!updated) return false;
      await refundCredits(tx, { ...owner(row), projectId, reserved: row.creditsReserved });
      return true;
    });
  }
}

const owner = (row: ProjectRow) => ({ accountId: row.accountId, mode: row.mode });
