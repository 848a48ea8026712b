import type { ProjectType } from '@pgs/contract';
import { stableIdsOf } from '@pgs/contract/document';
import type { ProjectEventHub } from '../events/hub.ts';
import { GenerationFailedError, ModelCaller } from '../models/calls.ts';
import type { ProjectDefinition, RequirementSlot } from '../models/context.ts';
import type { RequirementDelta } from '../models/deltas.ts';
import { documentPlan } from './catalogue.ts';
import type { Simulation } from './estimate.ts';
import { runRepository } from './grounding.ts';
import { runHouse } from './house.ts';
import type { ModelSelector } from './models.ts';
import {
  type RevisionEnds,
  type RunDocument,
  RunEndedError,
  type RunProject,
  type RunRevision,
  type RunStore,
} from './ports.ts';
import { CONTEXT_TOKEN_BUDGET } from './prompts/render.ts';
import { REPOSITORY_TOKEN_BUDGET } from './prompts/repository.ts';
import { initialRegister } from './revision-plan.ts';
import { type Base, RevisionRun, type Rewrites } from './revision-run.ts';
import { runSchedule } from './schedule.ts';
import { buildTrace } from './trace/index.ts';
import type { Trace } from './trace/types.ts';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RevisionWorkflowOptions {
  caller?: ModelCaller;
  concurrency?: number;
  contextTokenBudget?: number;
  /** Tokens of a grounded project's codebase digest one prompt carries at most. */
  repositoryTokenBudget?: number;
  events?: ProjectEventHub;
  now?: () => number;
  log?: Logger;
}

/**
 * One revision's run (docs/revisions.md): the impact step reads the change request into
 * requirement deltas, then every affected document is rewritten from its previous version,
 * the deltas and the revised documents it builds on, in the catalogue's order, each checked
 * by the gate with the revision rules. Each part is stored the moment it exists, under the
 * revision's number; completion (in {@link RevisionEnds}, projects/revisions.ts) carries the rest over and makes the
 * revision current in one commit. A resumed run skips what is stored.
 */
export class RevisionWorkflow {
  readonly #store: RunStore;
  readonly #revisions: RevisionEnds;
  readonly #models: ModelSelector;
  readonly #caller: ModelCaller;
  readonly #events: ProjectEventHub | undefined;
  readonly #now: () => number;
  readonly #log: Logger;
  readonly #concurrency: number;
  readonly #budget: number;
  readonly #repositoryBudget: number;

  constructor(
    store: RunStore,
    revisions: RevisionEnds,
    models: ModelSelector,
    options: RevisionWorkflowOptions = {},
  ) {
    this.#store = store;
    this.#revisions = revisions;
    this.#models = models;
    this.#caller = options.caller ?? new ModelCaller();
    this.#events = options.events;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? { info() {}, warn() {} };
    this.#concurrency = options.concurrency ?? 4;
    this.#budget = options.contextTokenBudget ?? CONTEXT_TOKEN_BUDGET;
    this.#repositoryBudget = options.repositoryTokenBudget ?? REPOSITORY_TOKEN_BUDGET;
  }

  async run({
    projectId,
    revision,
    signal,
  }: {
    projectId: string;
    revision: number;
    signal: AbortSignal;
  }): Promise<'completed' | 'failed' | 'skipped' | 'ended'> {
    const project = await this.#store.project(projectId);
    const row = await this.#store.revision(projectId, revision);
    if (
      project === undefined ||
      row === undefined ||
      row.status !== 'in_progress' ||
      project.revising !== revision ||
      project.type === null
    )
      return 'skipped';
    const ended = new AbortController();
    const stopWatching = this.#events?.subscribe(projectId, () => {
      this.#store
        .revision(projectId, revision)
        .then((now) => {
          if (now?.status !== 'in_progress') ended.abort(new RunEndedError('revision ended'));
        })
        .catch(() => {});
    });
    try {
      const outcome = await this.#revise(project, row, AbortSignal.any([signal, ended.signal]));
      if (outcome === 'unreadable') {
        await this.#revisions.fail(projectId, revision, 'unreadable');
        return 'failed';
      }
    } catch (error) {
      if (signal.aborted) throw error;
      if (ended.signal.aborted || error instanceof RunEndedError) return 'ended';
      if (error instanceof GenerationFailedError) {
        this.#log.warn(
          { projectId, revision, engine: error.engine, reason: error.reason },
          'revision failed',
        );
        await this.#revisions.fail(projectId, revision);
        return 'failed';
      }
      throw error;
    } finally {
      stopWatching?.();
    }
    await this.#revisions.complete(projectId, revision);
    this.#log.info({ projectId, revision }, 'revision completed');
    return 'completed';
  }

  /** A revision whose retries are exhausted: it fails and is refunded. */
  async giveUp(projectId: string, revision: number): Promise<void> {
    await this.#revisions.fail(projectId, revision);
  }

  async #base(project: RunProject): Promise<Base> {
    const revision = project.currentRevision;
    const documents = await this.#store.documents(project.id, revision);
    const prior = revision > 1 ? await this.#store.revision(project.id, revision) : undefined;
    const definition: ProjectDefinition = {
      name: project.name!,
      description: project.description!,
      type: project.type as ProjectType,
      questionnaire: (prior?.questionnaire ??
        project.questionnaire) as ProjectDefinition['questionnaire'],
    };
    const register =
      (prior?.register as RequirementSlot[] | null | undefined) ??
      initialRegister(definition, buildTrace(documents));
    return {
      revision,
      documents,
      definition,
      register,
      retired: (prior?.retired as string[] | null | undefined) ?? [],
    };
  }

  async #revise(
    project: RunProject,
    row: RunRevision,
    signal: AbortSignal,
  ): Promise<'done' | 'unreadable'> {
    const n = row.revision;
    const base = await this.#base(project);
    const trace = buildTrace(base.documents);
    const simulate = (row.simulate as Simulation | null) ?? null;
    // The digest in force at this revision; one it sent itself also rewrites what describes
    // the code (revision-plan.ts).
    const repository = await runRepository(this.#store, project, n, this.#repositoryBudget);
    // Stages announced by an earlier attempt at this revision (a crash, a hand-back) are
    // not announced again.
    const announced = (await this.#store.events(project.id))
      .filter(
        (event) =>
          event.type === 'stage.started' && (event.data as { revision?: number }).revision === n,
      )
      .map((event) => (event.data as { stage: string }).stage);
    const run = new RevisionRun(
      {
        store: this.#store,
        caller: this.#caller,
        log: this.#log,
        now: this.#now,
        contextTokenBudget: this.#budget,
      },
      {
        project,
        row,
        base,
        trace,
        chain: this.#models.forProject({ ...project, simulate }),
        repository,
        announced,
        // The conventions version the project recorded, not the account's latest.
        house: await runHouse(this.#store, project),
      },
    );
    if ((await run.analyse(signal)) === 'unreadable') return 'unreadable';
    const revised = (await this.#store.revision(project.id, n))!;
    const { rewrites, done } = await this.#rewrites(project, base, trace, revised, run.scope);
    const affected = revised.affected as string[];
    await runSchedule({
      label: `revision ${n}`,
      documents: rewrites.plan.filter((doc) => affected.includes(doc.kind)),
      done,
      concurrency: this.#concurrency,
      signal,
      write: (doc, docSignal) => run.rewrite(rewrites, doc, docSignal),
    });
    // Every ID the revision dropped (stories and tasks of a removed requirement, criteria)
    // is retired with the removed requirements: no later revision gives it out again.
    const now = new Set(buildTrace([...rewrites.stored.values()]).nodes.map((node) => node.id));
    const dropped = trace.nodes.map((node) => node.id).filter((id) => !now.has(id));
    await this.#store.updateRevision(project.id, n, {
      retired: [...new Set([...(revised.retired as string[]), ...dropped])],
    });
    return 'done';
  }

  /** What the rewrites read, from the revision as the impact step stored it. */
  async #rewrites(
    project: RunProject,
    base: Base,
    trace: Trace,
    revised: RunRevision,
    scope: { grounded: boolean; newDigest: boolean },
  ): Promise<{ rewrites: Rewrites; done: string[] }> {
    const retired = revised.retired as string[];
    const byKind = new Map(base.documents.map((doc) => [doc.type, doc]));
    const stored = new Map<string, RunDocument>(byKind);
    // What an earlier attempt at this revision stored is done.
    const done = await this.#store.documents(project.id, revised.revision);
    for (const doc of done) stored.set(doc.type, doc);
    const rewrites: Rewrites = {
      plan: documentPlan(project.type as ProjectType, scope),
      deltas: revised.deltas as RequirementDelta[],
      definition: {
        ...base.definition,
        questionnaire: revised.questionnaire as ProjectDefinition['questionnaire'],
      },
      register: revised.register as RequirementSlot[],
      ids: stableIdsOf(
        byKind.get('user-stories')?.content,
        byKind.get('implementation-plan')?.content,
        retired,
      ),
      stored,
      gaps: [...new Set([...retired, ...trace.nodes.map((node) => node.id)])],
    };
    return { rewrites, done: done.map((doc) => doc.type) };
  }
}
