import type { ProjectType } from '@pgs/contract';
import { stableIdsOf } from '@pgs/contract/document';
import { type ProjectEventHub, recordEvent } from '../events/hub.ts';
import { GenerationFailedError, ModelCaller } from '../models/calls.ts';
import type {
  ProjectDefinition,
  RequirementSlot,
  RevisionContext,
  StableIds,
} from '../models/context.ts';
import { nextFreeNumber, type RequirementDelta } from '../models/deltas.ts';
import type { Revisions } from '../projects/revisions.ts';
import type { Db } from '../storage/db.ts';
import { listProjectEvents, ProjectEndedError } from '../storage/sql/events.ts';
import {
  type DocumentRow,
  findProject,
  insertDocument,
  listDocuments,
  type ProjectRow,
} from '../storage/sql/projects.ts';
import { insertProvenance } from '../storage/sql/provenance.ts';
import { findRevision, type RevisionRow, updateRevision } from '../storage/sql/revisions.ts';
import { type DocumentKind, documentPlan } from './catalogue.ts';
import type { Simulation } from './estimate.ts';
import { runRepository } from './grounding.ts';
import { analyseImpact } from './impact.ts';
import type { ModelSelector } from './models.ts';
import { CONTEXT_TOKEN_BUDGET } from './prompts/render.ts';
import { REPOSITORY_TOKEN_BUDGET } from './prompts/repository.ts';
import { revisionPrompt } from './prompts/revision.ts';
import { revisionFindings } from './revision-gate.ts';
import { affectedKinds, applyDeltas, initialRegister } from './revision-plan.ts';
import { buildTrace } from './trace/index.ts';
import { usageColumns } from './usage.ts';
import { writeDocument } from './write-document.ts';

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

/** Provenance's kind for the impact step. */
export const IMPACT_KIND = 'impact';

/** What the revision being changed holds: its documents, definition, register and retired IDs. */
interface Base {
  revision: number;
  documents: DocumentRow[];
  definition: ProjectDefinition;
  register: RequirementSlot[];
  retired: string[];
}

/**
 * One revision's run (docs/revisions.md): the impact step reads the change request into
 * requirement deltas, then every affected document is rewritten from its previous version,
 * the deltas and the revised documents it builds on, in the catalogue's order, each checked
 * by the gate with the revision rules. Each part is stored the moment it exists, under the
 * revision's number; completion (in {@link Revisions}) carries the rest over and makes the
 * revision current in one commit. A resumed run skips what is stored.
 */
export class RevisionWorkflow {
  readonly #db: Db;
  readonly #revisions: Revisions;
  readonly #models: ModelSelector;
  readonly #caller: ModelCaller;
  readonly #events: ProjectEventHub | undefined;
  readonly #now: () => number;
  readonly #log: Logger;
  readonly #concurrency: number;
  readonly #budget: number;
  readonly #repositoryBudget: number;

  constructor(
    db: Db,
    revisions: Revisions,
    models: ModelSelector,
    options: RevisionWorkflowOptions = {},
  ) {
    this.#db = db;
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
    const project = await findProject(this.#db, projectId);
    const row = await findRevision(this.#db, projectId, revision);
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
      findRevision(this.#db, projectId, revision)
        .then((now) => {
          if (now?.status !== 'in_progress') ended.abort(new ProjectEndedError('revision ended'));
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
      if (ended.signal.aborted || error instanceof ProjectEndedError) return 'ended';
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

  async #base(project: ProjectRow): Promise<Base> {
    const revision = project.currentRevision;
    const documents = await listDocuments(this.#db, project.id, revision);
    const prior = revision > 1 ? await findRevision(this.#db, project.id, revision) : undefined;
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
    project: ProjectRow,
    row: RevisionRow,
    signal: AbortSignal,
  ): Promise<'done' | 'unreadable'> {
    const n = row.revision;
    const base = await this.#base(project);
    const trace = buildTrace(base.documents);
    const simulate = (row.simulate as Simulation | null) ?? null;
    let chain = this.#models.forProject({ ...project, simulate });
    // The digest in force at this revision; one it sent itself also rewrites what describes
    // the code (revision-plan.ts).
    const repository = await runRepository(this.#db, project, n, this.#repositoryBudget);
    const scope = { grounded: project.grounded, newDigest: repository?.revision === n };
    const record = (
      tx: Parameters<Parameters<Db['transaction']>[0]>[0],
      type: 'stage.started' | 'document.completed' | 'revision.analysed',
      data: Record<string, unknown>,
    ) => recordEvent(tx, project.id, type, { revision: n, ...data }, { whileRevising: n });

    let deltas = row.deltas as RequirementDelta[] | null;
    let affected = row.affected as string[] | null;
    if (deltas === null || affected === null) {
      const started = this.#now();
      const requirements = trace.coverage.requirements.map((r) => ({ id: r.id, title: r.title }));
      const impact = await analyseImpact(
        this.#caller,
        chain,
        {
          task: 'impact',
          idea: project.idea,
          changeRequest: row.changeRequest,
          definition: base.definition,
          requirements,
          nextNumber: nextFreeNumber(
            requirements.map((r) => r.id),
            base.retired,
          ),
        },
        signal,
      );
      if (impact.index > 0) chain = chain.slice(impact.index);
      if (impact.deltas.length === 0) return 'unreadable';
      deltas = impact.deltas;
      affected = affectedKinds(project.type as ProjectType, trace, base.documents, deltas, scope);
      const applied = applyDeltas(base.definition, base.register, deltas);
      const removed = deltas.filter((d) => d.op === 'removed').map((d) => d.id);
      const plan = documentPlan(project.type as ProjectType, scope);
      await this.#db.transaction(async (tx) => {
        await record(tx, 'revision.analysed', {
          deltas,
          documents: plan.filter((d) => affected!.includes(d.kind)).map((d) => d.filename),
        });
        await updateRevision(tx, project.id, n, {
          deltas,
          affected,
          questionnaire: applied.definition.questionnaire,
          register: applied.register,
          retired: [...new Set([...base.retired, ...removed])],
        });
        await insertProvenance(tx, {
          projectId: project.id,
          revision: n,
          kind: IMPACT_KIND,
          engine: impact.engine,
          promptVersion: impact.version,
          ...usageColumns(impact.usage),
          attempts: impact.attempts,
          durationMs: Math.max(0, Math.round(this.#now() - started)),
          repairs: 0,
          initialFindings: [],
          findings: [],
          trimmed: [],
        });
      });
    }
    const revised = (await findRevision(this.#db, project.id, n))!;
    const definition: ProjectDefinition = {
      ...base.definition,
      questionnaire: revised.questionnaire as ProjectDefinition['questionnaire'],
    };
    const register = revised.register as RequirementSlot[];
    const retired = revised.retired as string[];
    const byKind = new Map(base.documents.map((doc) => [doc.type, doc]));
    const ids: StableIds = stableIdsOf(
      byKind.get('user-stories')?.content,
      byKind.get('implementation-plan')?.content,
      retired,
    );
    // What the rewrites read: the revision's documents where stored, else the base's.
    const stored = new Map<string, DocumentRow>(byKind);
    const done = new Set<string>();
    for (const doc of await listDocuments(this.#db, project.id, n)) {
      stored.set(doc.type, doc);
      done.add(doc.type);
    }
    const plan = documentPlan(project.type as ProjectType, scope);
    const todo = plan.filter((doc) => affected!.includes(doc.kind));
    // IDs that existed and may be gaps now: everything the base defined, and the retired.
    const gaps = [...new Set([...retired, ...trace.nodes.map((node) => node.id)])];
    // Stages announced by an earlier attempt at this revision (a crash, a hand-back) are
    // not announced again.
    const announced = new Set(
      (await listProjectEvents(this.#db, project.id))
        .filter(
          (event) =>
            event.type === 'stage.started' && (event.data as { revision?: number }).revision === n,
        )
        .map((event) => (event.data as { stage: string }).stage),
    );

    const rewrite = async (doc: DocumentKind, docSignal: AbortSignal) => {
      if (!announced.has(doc.stage)) {
        announced.add(doc.stage);
        await this.#db.transaction((tx) => record(tx, 'stage.started', { stage: doc.stage }));
      }
      const started = this.#now();
      const previous = byKind.get(doc.kind);
      const context: RevisionContext = {
        task: 'revision',
        idea: project.idea,
        definition,
        register,
        document: {
          kind: doc.kind,
          title: doc.title,
          filename: doc.filename,
          stage: doc.stage,
          sections: doc.sections,
        },
        related: [],
        deltas: deltas!,
        previous: previous?.content ?? '',
        ids,
      };
      const written = await writeDocument({
        caller: this.#caller,
        log: this.#log,
        contextTokenBudget: this.#budget,
        chain,
        served: (result, from) => {
          if (result.index > 0 && from === chain) chain = chain.slice(result.index);
        },
        plan,
        doc,
        project,
        definition,
        stored,
        signal: docSignal,
        revise: {
          prompt: (earlier) =>
            revisionPrompt({
              context: {
                ...context,
                related: earlier.map((e) => ({ kind: e.kind, title: e.title })),
              },
              document: doc,
              earlier,
              budget: this.#budget,
              repository: repository?.prompt,
              newDigest: scope.newDigest,
            }),
          gate: (content) =>
            revisionFindings({
              filename: doc.filename,
              previous: previous?.content ?? '',
              content,
              deltas: deltas!,
              retired: base.retired,
            }),
          retired: gaps,
        },
      });
      const documentRow: DocumentRow = {
        projectId: project.id,
        revision: n,
        writtenIn: n,
        type: doc.kind,
        filename: doc.filename,
        content: written.content,
        stage: doc.stage,
        tokensUsed: written.produced.usage.input + written.produced.usage.output,
        generatedAt: new Date(this.#now()),
        position: previous?.position ?? plan.indexOf(doc),
      };
      await this.#db.transaction(async (tx) => {
        await record(tx, 'document.completed', {
          type: documentRow.type,
          filename: documentRow.filename,
          stage: documentRow.stage,
          tokens_used: documentRow.tokensUsed,
          generated_at: documentRow.generatedAt.toISOString(),
        });
        await insertDocument(tx, documentRow);
        await insertProvenance(tx, {
          projectId: project.id,
          revision: n,
          kind: doc.kind,
          engine: written.produced.engine,
          promptVersion: written.version,
          ...usageColumns(written.produced.usage),
          attempts: written.produced.attempts,
          durationMs: Math.max(0, Math.round(this.#now() - started)),
          repairs: written.produced.repairs,
          initialFindings: written.initialFindings,
          findings: written.findings,
          trimmed: written.trimmed,
        });
      });
      stored.set(doc.kind, documentRow);
      done.add(doc.kind);
    };

    // Every affected document whose affected inputs are rewritten, up to `concurrency` at once.
    const abort = new AbortController();
    const docSignal = AbortSignal.any([signal, abort.signal]);
    const inFlight = new Map<string, Promise<string>>();
    const waitsOn = (doc: DocumentKind) => doc.dependsOn.filter((dep) => affected!.includes(dep));
    try {
      while (todo.some((doc) => !done.has(doc.kind))) {
        for (const doc of todo) {
          if (inFlight.size >= this.#concurrency) break;
          if (done.has(doc.kind) || inFlight.has(doc.kind)) continue;
          if (!waitsOn(doc).every((dep) => done.has(dep))) continue;
          inFlight.set(
            doc.kind,
            rewrite(doc, docSignal).then(() => doc.kind),
          );
        }
        if (inFlight.size === 0) throw new Error('revision plan has unreachable documents');
        const finished = await Promise.race(inFlight.values());
        inFlight.delete(finished);
      }
    } catch (error) {
      abort.abort(error);
      await Promise.allSettled(inFlight.values());
      throw error;
    }
    // Every ID the revision dropped (stories and tasks of a removed requirement, criteria)
    // is retired with the removed requirements: no later revision gives it out again.
    const now = new Set(buildTrace([...stored.values()]).nodes.map((node) => node.id));
    const dropped = trace.nodes.map((node) => node.id).filter((id) => !now.has(id));
    await updateRevision(this.#db, project.id, n, {
      retired: [...new Set([...retired, ...dropped])],
    });
    return 'done';
  }
}
