import type { ProjectType } from '@pgs/contract';
import { type ProjectEventHub, recordEvent } from '../events/hub.ts';
import { type GenerationMeter, NO_METER } from '../metrics/meter.ts';
import { Budget, BudgetExceededError } from '../models/budget.ts';
import { type CallResult, GenerationFailedError, ModelCaller } from '../models/calls.ts';
import type { ProjectDefinition } from '../models/context.ts';
import type { ChainModel } from '../models/providers.ts';
import type { Projects } from '../projects/projects.ts';
import { FAILURE_MESSAGES } from '../projects/result.ts';
import type { Db } from '../storage/db.ts';
import { listProjectEvents, ProjectEndedError } from '../storage/sql/events.ts';
import {
  type DocumentRow,
  findProject,
  insertDocument,
  listDocuments,
  type ProjectRow,
  updateProject,
} from '../storage/sql/projects.ts';
import { insertProvenance, spentMicroUsd } from '../storage/sql/provenance.ts';
import { cachedGenerationStats, recordGenerationTime } from '../storage/sql/stats.ts';
import { type DocumentKind, documentPlan, STAGES } from './catalogue.ts';
import { defineProject } from './definition.ts';
import {
  DEFINITION_KIND,
  durationsFor,
  estimateRemainingMs,
  type Simulation,
  statKey,
} from './estimate.ts';
import { runRepository } from './grounding.ts';
import type { ModelSelector } from './models.ts';
import { CONTEXT_TOKEN_BUDGET } from './prompts/render.ts';
import { REPOSITORY_TOKEN_BUDGET } from './prompts/repository.ts';
import { usageColumns } from './usage.ts';
import { writeDocument } from './write-document.ts';

export interface WorkflowOptions {
  /** Makes the model calls (retry policy, time-outs, concurrency); one per process. */
  caller?: ModelCaller;
  /** Documents generated at once within one project. */
  concurrency?: number;
  /** Tokens of earlier documents one prompt carries at most. */
  contextTokenBudget?: number;
  /** Tokens of a grounded project's codebase digest one prompt carries at most. */
  repositoryTokenBudget?: number;
  /**
   * Announcements of project events: a project that ends while it runs (cancelled,
   * deleted) has its model calls aborted at once. Without it, a run learns of the end only
   * when it next stores something.
   */
  events?: ProjectEventHub;
  now?: () => number;
  log?: Logger;
  /** Told how long each document took, by kind and engine (metrics). */
  meter?: GenerationMeter;
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const silent: Logger = { info() {}, warn() {} };

/**
 * The generation workflow of one project: the definition (name, description, type,
 * questionnaire) as structured output, then every document of the type's plan, each
 * started as soon as the documents it builds on are stored, written from their full
 * text, checked by the quality gate (and repaired once), and stored with its provenance
 * the moment it exists. A resumed run skips what is stored, so nothing is generated or
 * charged twice. Model failures follow the one retry policy of {@link ModelCaller}; a
 * call no model can answer fails the project and refunds it. Anything else (a crash, a
 * database error) throws, and the queue retries the whole run.
 *
 * The workflow knows no engine: the offline engine is a model like any other.
 *
 * @example
 * await workflow.run({ projectId, signal });
 */
export class GenerationWorkflow {
  readonly #db: Db;
  readonly #projects: Projects;
  readonly #models: ModelSelector;
  readonly #caller: ModelCaller;
  readonly #options: Required<Omit<WorkflowOptions, 'log' | 'caller' | 'events' | 'meter'>>;
  readonly #events: ProjectEventHub | undefined;
  readonly #log: Logger;
  readonly #meter: GenerationMeter;

  constructor(db: Db, projects: Projects, models: ModelSelector, options: WorkflowOptions = {}) {
    this.#db = db;
    this.#projects = projects;
    this.#models = models;
    this.#caller = options.caller ?? new ModelCaller();
    this.#options = {
      concurrency: options.concurrency ?? 4,
      contextTokenBudget: options.contextTokenBudget ?? CONTEXT_TOKEN_BUDGET,
      repositoryTokenBudget: options.repositoryTokenBudget ?? REPOSITORY_TOKEN_BUDGET,
      now: options.now ?? Date.now,
    };
    this.#log = options.log ?? silent;
    this.#events = options.events;
    this.#meter = options.meter ?? NO_METER;
  }

  /** Runs or resumes a project's generation to its end. */
  async run({
    projectId,
    signal,
  }: {
    projectId: string;
    signal: AbortSignal;
  }): Promise<'completed' | 'failed' | 'skipped' | 'ended'> {
    const project = await findProject(this.#db, projectId);
    if (project === undefined || project.status !== 'in_progress' || project.type === null)
      return 'skipped';
    // A project that ends meanwhile (cancelled, deleted) stops its model calls at once.
    const ended = new AbortController();
    const stopWatching = this.#events?.subscribe(projectId, () => {
      findProject(this.#db, projectId)
        .then((row) => {
          if (row?.status !== 'in_progress') ended.abort(new ProjectEndedError('project ended'));
        })
        .catch(() => {});
    });
    // The project's limit on model calls, from what its stored parts already cost (a resumed
    // run); every call of the run holds its worst case against it first.
    const budget =
      project.maxCostMicroUsd === null
        ? undefined
        : new Budget(
            project.maxCostMicroUsd / 1e6,
            (await spentMicroUsd(this.#db, projectId)) / 1e6,
          );
    try {
      await this.#generate(project, AbortSignal.any([signal, ended.signal]), budget);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof BudgetExceededError && budget !== undefined) {
        // The calls in flight have ended (#generate waits for them): what they cost is settled.
        this.#log.info(
          {
            projectId,
            limitUsd: error.limitUsd,
            spentUsd: budget.spentUsd,
            nextUsd: error.nextUsd,
          },
          'generation stopped: the next call could pass the budget',
        );
        await this.#projects.stopForBudget(projectId, {
          limitUsd: error.limitUsd,
          spentUsd: budget.spentUsd,
        });
        return 'failed';
      }
      if (ended.signal.aborted || error instanceof ProjectEndedError) {
        this.#log.info({ projectId }, 'generation stopped: the project ended');
        return 'ended';
      }
      if (error instanceof GenerationFailedError) {
        this.#log.warn(
          { projectId, engine: error.engine, reason: error.reason, attempts: error.attempts },
          error.reason === 'unauthorized'
            ? `generation failed: ${error.engine} refused the credentials (check its API key)`
            : 'generation failed',
        );
        const message =
          error.reason === 'timeout' ? FAILURE_MESSAGES.timeout : FAILURE_MESSAGES.failure;
        await this.#projects.fail(projectId, message);
        return 'failed';
      }
      throw error;
    } finally {
      stopWatching?.();
    }
    await this.#projects.complete(projectId);
    this.#log.info({ projectId }, 'generation completed');
    return 'completed';
  }

  /** A run whose retries are exhausted: fail the project and refund it. */
  async giveUp(projectId: string): Promise<void> {
    await this.#projects.fail(projectId, FAILURE_MESSAGES.exhausted);
  }

  async #generate(
    project: ProjectRow,
    signal: AbortSignal,
    budget: Budget | undefined,
  ): Promise<void> {
    const simulate = (project.simulate as Simulation | null) ?? null;
    // Stages announced by an earlier run of this project are not announced again.
    const announced = new Set(
      (await listProjectEvents(this.#db, project.id))
        .filter((event) => event.type === 'stage.started')
        .map((event) => (event.data as { stage: string }).stage),
    );
    const startStage = async (stage: string) => {
      if (announced.has(stage)) return;
      announced.add(stage);
      await this.#db.transaction((tx) =>
        recordEvent(tx, project.id, 'stage.started', { stage }, { whileInProgress: true }),
      );
    };
    let chain = this.#models.forProject({ ...project, simulate });
    // Every prompt of a grounded project opens with its digest, fitted once for the run.
    const { repositoryTokenBudget } = this.#options;
    const repository = (await runRepository(this.#db, project, 1, repositoryTokenBudget))?.prompt;
    const engine = chain[0]!.engine;
    const stats = await cachedGenerationStats(this.#db);
    // After a model gave up, the rest of the run starts with the one that took over.
    const served = (result: Pick<CallResult, 'index'>, from: readonly ChainModel[]) => {
      if (result.index > 0 && from === chain) chain = chain.slice(result.index);
    };

    let definition: ProjectDefinition;
    if (project.name === null || project.description === null || project.questionnaire === null) {
      // The definition opens the first stage. The call starts at once and the stage's event
      // is recorded while it runs (a transaction off the pickup's critical path); both are
      // awaited before anything of the definition is stored, so watchers still see the
      // stage start before its results. The call stops if the event finds the project ended.
      const started = this.#options.now();
      const from = chain;
      const stageFailed = new AbortController();
      const defining = defineProject(
        this.#caller,
        from,
        project,
        AbortSignal.any([signal, stageFailed.signal]),
        budget,
        repository,
      );
      const opening = startStage(STAGES[0]).catch((error: unknown) => {
        stageFailed.abort(error);
        throw error;
      });
      const [defined] = await Promise.all([defining, opening]);
      served(defined, from);
      definition = defined.definition;
      await this.#db.transaction(async (tx) => {
        await updateProject(tx, project.id, {
          name: definition.name,
          description: definition.description,
          questionnaire: definition.questionnaire,
          type: definition.type,
        });
        await insertProvenance(tx, {
          projectId: project.id,
          kind: DEFINITION_KIND,
          engine: defined.engine,
          promptVersion: defined.version,
          ...usageColumns(defined.usage),
          attempts: defined.attempts,
          durationMs: Math.max(0, Math.round(this.#options.now() - started)),
          repairs: defined.repairs,
          initialFindings: defined.initialFindings,
          findings: defined.findings,
          trimmed: repository?.trimmed ?? [],
        });
      });
      this.#meter.documentGenerated(
        DEFINITION_KIND,
        defined.engine,
        (this.#options.now() - started) / 1000,
      );
      if (!simulate) {
        await recordGenerationTime(
          this.#db,
          statKey(defined.engine, DEFINITION_KIND),
          this.#options.now() - started,
        );
      }
    } else {
      definition = {
        name: project.name,
        description: project.description,
        type: project.type as ProjectType,
        questionnaire: project.questionnaire as ProjectDefinition['questionnaire'],
      };
    }

    const type = definition.type;
    const plan = documentPlan(type, { grounded: project.grounded });
    const durationOf = durationsFor(plan, simulate, stats, engine);
    const stored = new Map(
      (await listDocuments(this.#db, project.id)).map((doc) => [doc.type, doc]),
    );
    const running = new Map<string, number>();
    const updateEstimate = async () => {
      const now = this.#options.now();
      const remaining = estimateRemainingMs({
        plan,
        done: new Set(stored.keys()),
        running,
        defined: true,
        durationOf,
        now,
      });
      await updateProject(this.#db, project.id, {
        estimatedCompletionAt: new Date(now + remaining),
      });
    };
    await updateEstimate();

    const generateDocument = async (
      doc: DocumentKind,
      position: number,
      docSignal: AbortSignal,
    ) => {
      await startStage(doc.stage);
      const started = this.#options.now();
      running.set(doc.kind, started);
      const { content, produced, version, initialFindings, findings, trimmed } =
        await writeDocument({
          caller: this.#caller,
          log: this.#log,
          contextTokenBudget: this.#options.contextTokenBudget,
          chain,
          served,
          plan,
          doc,
          project,
          definition,
          stored,
          signal: docSignal,
          budget,
          repository,
        });
      const row: DocumentRow = {
        projectId: project.id,
        revision: 1,
        writtenIn: 1,
        type: doc.kind,
        filename: doc.filename,
        content,
        stage: doc.stage,
        tokensUsed: produced.usage.input + produced.usage.output,
        generatedAt: new Date(this.#options.now()),
        position,
      };
      await this.#db.transaction(async (tx) => {
        // Also locks the project row: a project cancelled meanwhile stores nothing more.
        await recordEvent(
          tx,
          project.id,
          'document.completed',
          {
            type: row.type,
            filename: row.filename,
            stage: row.stage,
            tokens_used: row.tokensUsed,
            generated_at: row.generatedAt.toISOString(),
          },
          { whileInProgress: true },
        );
        await insertDocument(tx, row);
        await insertProvenance(tx, {
          projectId: project.id,
          kind: doc.kind,
          engine: produced.engine,
          promptVersion: version,
          ...usageColumns(produced.usage),
          attempts: produced.attempts,
          durationMs: Math.max(0, Math.round(this.#options.now() - started)),
          repairs: produced.repairs,
          initialFindings,
          findings,
          trimmed,
        });
      });
      stored.set(doc.kind, row);
      running.delete(doc.kind);
      this.#meter.documentGenerated(
        doc.kind,
        produced.engine,
        (this.#options.now() - started) / 1000,
      );
      if (!simulate) {
        await recordGenerationTime(
          this.#db,
          statKey(produced.engine, doc.kind),
          this.#options.now() - started,
        );
      }
      await updateEstimate();
    };

    // Run every document whose inputs are stored, up to `concurrency` at once.
    const abort = new AbortController();
    const docSignal = AbortSignal.any([signal, abort.signal]);
    const inFlight = new Map<string, Promise<string>>();
    try {
      while (stored.size < plan.length) {
        for (const [position, doc] of plan.entries()) {
          if (inFlight.size >= this.#options.concurrency) break;
          if (stored.has(doc.kind) || inFlight.has(doc.kind)) continue;
          if (!doc.dependsOn.every((kind) => stored.has(kind))) continue;
          inFlight.set(
            doc.kind,
            generateDocument(doc, position, docSignal).then(() => doc.kind),
          );
        }
        if (inFlight.size === 0) throw new Error(`plan for ${type} has unreachable documents`);
        const finished = await Promise.race(inFlight.values());
        inFlight.delete(finished);
      }
    } catch (error) {
      abort.abort(error);
      await Promise.allSettled(inFlight.values());
      throw error;
    }
  }
}
