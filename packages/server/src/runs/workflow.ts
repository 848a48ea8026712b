import type { ProjectEventHub } from '../events/hub.ts';
import { type GenerationMeter, NO_METER } from '../metrics/meter.ts';
import { Budget, BudgetExceededError } from '../models/budget.ts';
import { GenerationFailedError, ModelCaller } from '../models/calls.ts';
import { documentPlan } from './catalogue.ts';
import { CreationRun } from './creation-run.ts';
import { durationsFor, type Simulation } from './estimate.ts';
import { runRepository } from './grounding.ts';
import { runHouse } from './house.ts';
import type { ModelSelector } from './models.ts';
import {
  type CreationEnds,
  FAILURE_MESSAGES,
  RunEndedError,
  type RunProject,
  type RunStore,
} from './ports.ts';
import { CONTEXT_TOKEN_BUDGET } from './prompts/render.ts';
import { REPOSITORY_TOKEN_BUDGET } from './prompts/repository.ts';
import { runSchedule } from './schedule.ts';

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
  readonly #store: RunStore;
  readonly #projects: CreationEnds;
  readonly #models: ModelSelector;
  readonly #caller: ModelCaller;
  readonly #options: Required<Omit<WorkflowOptions, 'log' | 'caller' | 'events' | 'meter'>>;
  readonly #events: ProjectEventHub | undefined;
  readonly #log: Logger;
  readonly #meter: GenerationMeter;

  constructor(
    store: RunStore,
    projects: CreationEnds,
    models: ModelSelector,
    options: WorkflowOptions = {},
  ) {
    this.#store = store;
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
    const project = await this.#store.project(projectId);
    if (project === undefined || project.status !== 'in_progress' || project.type === null)
      return 'skipped';
    // A project that ends meanwhile (cancelled, deleted) stops its model calls at once.
    const ended = new AbortController();
    const stopWatching = this.#events?.subscribe(projectId, () => {
      this.#store
        .project(projectId)
        .then((row) => {
          if (row?.status !== 'in_progress') ended.abort(new RunEndedError('project ended'));
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
            (await this.#store.spentMicroUsd(projectId)) / 1e6,
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
      if (ended.signal.aborted || error instanceof RunEndedError) {
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
    project: RunProject,
    signal: AbortSignal,
    budget: Budget | undefined,
  ): Promise<void> {
    const simulate = (project.simulate as Simulation | null) ?? null;
    const chain = this.#models.forProject({ ...project, simulate });
    // Every prompt of a grounded project opens with its digest, fitted once for the run.
    const { repositoryTokenBudget } = this.#options;
    const repository = (await runRepository(this.#store, project, 1, repositoryTokenBudget))
      ?.prompt;
    // Its house conventions and language, loaded once for the run (docs/conventions.md).
    const house = await runHouse(this.#store, project);
    const stats = await this.#store.generationStats();
    // Stages announced by an earlier run of this project are not announced again.
    const announced = (await this.#store.events(project.id))
      .filter((event) => event.type === 'stage.started')
      .map((event) => (event.data as { stage: string }).stage);
    const run = new CreationRun(
      {
        store: this.#store,
        caller: this.#caller,
        log: this.#log,
        meter: this.#meter,
        now: this.#options.now,
        contextTokenBudget: this.#options.contextTokenBudget,
      },
      { project, simulate, chain, budget, repository, announced, house },
    );
    const definition = await run.define(signal);
    const plan = documentPlan(definition.type, { grounded: project.grounded });
    const step = {
      plan,
      definition,
      stored: new Map((await this.#store.documents(project.id)).map((doc) => [doc.type, doc])),
      running: new Map<string, number>(),
      durationOf: durationsFor(plan, simulate, stats, chain[0]!.engine),
    };
    await run.updateEstimate(step);
    await runSchedule({
      label: `plan for ${definition.type}`,
      documents: plan,
      done: step.stored.keys(),
      concurrency: this.#options.concurrency,
      signal,
      write: (doc, docSignal) => run.writeDocument(step, doc, docSignal),
    });
  }
}
