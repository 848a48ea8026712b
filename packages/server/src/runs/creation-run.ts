/**
 * The steps of one creation's run (runs/workflow.ts schedules them): the definition, and
 * each document written, checked and stored with its provenance and the new estimate.
 */
import type { ProjectType } from '@pgs/contract';
import type { GenerationMeter } from '../metrics/meter.ts';
import type { Budget } from '../models/budget.ts';
import type { CallResult, ModelCaller } from '../models/calls.ts';
import type { ProjectDefinition } from '../models/context.ts';
import type { ChainModel } from '../models/sdk/providers.ts';
import { type DocumentKind, STAGES } from './catalogue.ts';
import { defineProject } from './definition.ts';
import { DEFINITION_KIND, estimateRemainingMs, type Simulation, statKey } from './estimate.ts';
import type { RunDocument, RunProject, RunStore } from './ports.ts';
import type { PromptHouse } from './prompts/conventions.ts';
import type { PromptRepository } from './prompts/repository.ts';
import { usageColumns } from './usage.ts';
import { writeDocument } from './write-document.ts';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What every creation of a process shares: the store, the caller, the clock, the meter. */
export interface CreationDeps {
  store: RunStore;
  caller: ModelCaller;
  log: Logger;
  meter: GenerationMeter;
  now: () => number;
  contextTokenBudget: number;
}

/** What one run of a creation starts from. */
export interface CreationStart {
  project: RunProject;
  simulate: Simulation | null;
  chain: readonly ChainModel[];
  budget: Budget | undefined;
  repository: PromptRepository | undefined;
  /** Stages an earlier run of this project announced: not announced again. */
  announced: Iterable<string>;
  /** Its house conventions and language (prompts/conventions.ts). */
  house?: PromptHouse | undefined;
}

/**
 * One creation's run in progress: its model chain (after a model gave up, the rest of the run
 * starts with the one that took over), the stages it announced and the steps it takes.
 *
 * @example
 * const run = new CreationRun(deps, { project, simulate, chain, budget, repository, announced: [] });
 * const definition = await run.define(signal);
 */
export class CreationRun {
  readonly #deps: CreationDeps;
  readonly #start: CreationStart;
  readonly #announced: Set<string>;
  #chain: readonly ChainModel[];

  constructor(deps: CreationDeps, start: CreationStart) {
    this.#deps = deps;
    this.#start = start;
    this.#announced = new Set(start.announced);
    this.#chain = start.chain;
  }

  /** Records a stage's start once per project. */
  async startStage(stage: string): Promise<void> {
    if (this.#announced.has(stage)) return;
    this.#announced.add(stage);
    const { id } = this.#start.project;
    await this.#deps.store.write((w) =>
      w.events.append(id, 'stage.started', { stage }, { whileInProgress: true }),
    );
  }

  #served = (result: Pick<CallResult, 'index'>, from: readonly ChainModel[]) => {
    if (result.index > 0 && from === this.#chain) this.#chain = this.#chain.slice(result.index);
  };

  /** The project's definition: the stored one, or written (and stored) by the first call. */
  async define(signal: AbortSignal): Promise<ProjectDefinition> {
    const { project, budget, repository } = this.#start;
    if (project.name !== null && project.description !== null && project.questionnaire !== null)
      return {
        name: project.name,
        description: project.description,
        type: project.type as ProjectType,
        questionnaire: project.questionnaire as ProjectDefinition['questionnaire'],
      };
    const { store, now } = this.#deps;
    // The definition opens the first stage. The call starts at once and the stage's event
    // is recorded while it runs (a transaction off the pickup's critical path); both are
    // awaited before anything of the definition is stored, so watchers still see the
    // stage start before its results. The call stops if the event finds the project ended.
    const started = now();
    const from = this.#chain;
    const stageFailed = new AbortController();
    const defining = defineProject(
      this.#deps.caller,
      from,
      project,
      AbortSignal.any([signal, stageFailed.signal]),
      budget,
      repository,
      this.#start.house?.conventions,
    );
    const opening = this.startStage(STAGES[0]).catch((error: unknown) => {
      stageFailed.abort(error);
      throw error;
    });
    const [defined] = await Promise.all([defining, opening]);
    this.#served(defined, from);
    const { definition } = defined;
    await store.write(async (w) => {
      await w.updateProject(project.id, {
        name: definition.name,
        description: definition.description,
        questionnaire: definition.questionnaire,
        type: definition.type,
      });
      await w.insertProvenance({
        projectId: project.id,
        kind: DEFINITION_KIND,
        engine: defined.engine,
        promptVersion: defined.version,
        ...usageColumns(defined.usage),
        attempts: defined.attempts,
        durationMs: Math.max(0, Math.round(now() - started)),
        repairs: defined.repairs,
        initialFindings: defined.initialFindings,
        findings: defined.findings,
        trimmed: repository?.trimmed ?? [],
      });
    });
    await this.#measured(DEFINITION_KIND, defined.engine, started);
    return definition;
  }

  /** Tells the meter, and the stored timings a real run's estimates come from, what a step took. */
  async #measured(kind: string, engine: string, started: number): Promise<void> {
    const { store, meter, now } = this.#deps;
    meter.documentGenerated(kind, engine, (now() - started) / 1000);
    if (!this.#start.simulate)
      await store.recordGenerationTime(statKey(engine, kind), now() - started);
  }

  /**
   * Writes one document of the plan from the stored documents it builds on, stores it with its
   * event and provenance, and updates the estimate. `stored` and `running` are the run's.
   */
  async writeDocument(
    step: {
      plan: readonly DocumentKind[];
      definition: ProjectDefinition;
      stored: Map<string, RunDocument>;
      running: Map<string, number>;
      durationOf: (kind: string) => number;
    },
    doc: DocumentKind,
    signal: AbortSignal,
  ): Promise<void> {
    const { project, budget, repository } = this.#start;
    const { now } = this.#deps;
    await this.startStage(doc.stage);
    const started = now();
    step.running.set(doc.kind, started);
    const written = await writeDocument({
      caller: this.#deps.caller,
      log: this.#deps.log,
      contextTokenBudget: this.#deps.contextTokenBudget,
      chain: this.#chain,
      served: this.#served,
      plan: step.plan,
      doc,
      project,
      definition: step.definition,
      stored: step.stored,
      signal,
      budget,
      repository,
      house: this.#start.house,
    });
    const row: RunDocument = {
      projectId: project.id,
      revision: 1,
      writtenIn: 1,
      type: doc.kind,
      filename: doc.filename,
      content: written.content,
      stage: doc.stage,
      tokensUsed: written.produced.usage.input + written.produced.usage.output,
      generatedAt: new Date(now()),
      position: step.plan.indexOf(doc),
    };
    await this.#store(row, written, started);
    step.stored.set(doc.kind, row);
    step.running.delete(doc.kind);
    await this.#measured(doc.kind, written.produced.engine, started);
    await this.updateEstimate(step);
  }

  async #store(
    row: RunDocument,
    written: Awaited<ReturnType<typeof writeDocument>>,
    started: number,
  ): Promise<void> {
    const { now } = this.#deps;
    await this.#deps.store.write(async (w) => {
      // Also locks the project row: a project cancelled meanwhile stores nothing more.
      await w.events.append(
        row.projectId,
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
      await w.insertDocument(row);
      await w.insertProvenance({
        projectId: row.projectId,
        kind: row.type,
        engine: written.produced.engine,
        promptVersion: written.version,
        ...usageColumns(written.produced.usage),
        attempts: written.produced.attempts,
        durationMs: Math.max(0, Math.round(now() - started)),
        repairs: written.produced.repairs,
        initialFindings: written.initialFindings,
        findings: written.findings,
        trimmed: written.trimmed,
      });
    });
  }

  /** Stores when the project should end, from what is stored, running and left. */
  async updateEstimate(step: {
    plan: readonly DocumentKind[];
    stored: ReadonlyMap<string, unknown>;
    running: ReadonlyMap<string, number>;
    durationOf: (kind: string) => number;
  }): Promise<void> {
    const now = this.#deps.now();
    const remaining = estimateRemainingMs({
      plan: step.plan,
      done: new Set(step.stored.keys()),
      running: step.running,
      defined: true,
      durationOf: step.durationOf,
      now,
    });
    await this.#deps.store.updateProject(this.#start.project.id, {
      estimatedCompletionAt: new Date(now + remaining),
    });
  }
}
