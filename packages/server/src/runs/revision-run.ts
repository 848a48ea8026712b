/**
 * The steps of one revision's run (runs/revision-workflow.ts schedules them): the impact step
 * that reads the change request into deltas, and each affected document rewritten, checked
 * and stored with its provenance under the revision's number.
 */
import { answerRegister, type ProjectType } from '@pgs/contract';
import { parseDocument, registerItems } from '@pgs/contract/document';
import type { ModelCaller } from '../models/calls.ts';
import type {
  ProjectDefinition,
  RequirementSlot,
  RevisionContext,
  StableIds,
} from '../models/context.ts';
import { nextFreeNumber, type RequirementDelta } from '../models/deltas.ts';
import type { ChainModel } from '../models/sdk/providers.ts';
import { type DocumentKind, documentPlan } from './catalogue.ts';
import type { RunRepository } from './grounding.ts';
import { analyseImpact } from './impact.ts';
import type {
  RunDocument,
  RunEventType,
  RunProject,
  RunRevision,
  RunStore,
  RunWrites,
} from './ports.ts';
import { houseContext, type PromptHouse } from './prompts/conventions.ts';
import { revisionPrompt } from './prompts/revision.ts';
import { revisionFindings } from './revision-gate.ts';
import { affectedKinds, answeredKinds, applyDeltas, BRIEF_KIND } from './revision-plan.ts';
import type { Trace } from './trace/types.ts';
import { usageColumns } from './usage.ts';
import { type WrittenDocument, writeDocument } from './write-document.ts';

/** Provenance's kind for the impact step. */
export const IMPACT_KIND = 'impact';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** What every revision of a process shares: the store, the caller, the clock. */
export interface RevisionDeps {
  store: RunStore;
  caller: ModelCaller;
  log: Logger;
  now: () => number;
  contextTokenBudget: number;
}

/** What the revision being changed holds: its documents, definition, register and retired IDs. */
export interface Base {
  revision: number;
  documents: RunDocument[];
  definition: ProjectDefinition;
  register: RequirementSlot[];
  retired: string[];
}

/** What one run of a revision starts from. */
export interface RevisionStart {
  project: RunProject;
  row: RunRevision;
  base: Base;
  /** The base's trace. */
  trace: Trace;
  chain: readonly ChainModel[];
  repository: RunRepository | undefined;
  /** Stages an earlier attempt at this revision announced: not announced again. */
  announced: Iterable<string>;
  /** Its house conventions and language (prompts/conventions.ts). */
  house?: PromptHouse | undefined;
}

/** What the rewrites of a revision read, once its deltas are known. */
export interface Rewrites {
  plan: readonly DocumentKind[];
  deltas: RequirementDelta[];
  definition: ProjectDefinition;
  register: RequirementSlot[];
  ids: StableIds;
  /** What the rewrites read: the revision's documents where stored, else the base's. */
  stored: Map<string, RunDocument>;
  /** IDs that existed and may be gaps now: everything the base defined, and the retired. */
  gaps: string[];
}

/**
 * One revision's run in progress: its model chain (after a model gave up, the rest of the run
 * starts with the one that took over), the stages it announced and the steps it takes.
 *
 * @example
 * const run = new RevisionRun(deps, { project, row, base, trace, chain, repository, announced: [] });
 * const analysed = await run.analyse(signal);
 */
export class RevisionRun {
  readonly #deps: RevisionDeps;
  readonly #start: RevisionStart;
  readonly #announced: Set<string>;
  #chain: readonly ChainModel[];

  constructor(deps: RevisionDeps, start: RevisionStart) {
    this.#deps = deps;
    this.#start = start;
    this.#announced = new Set(start.announced);
    this.#chain = start.chain;
  }

  /** Which documents the revision's catalogue order holds, a digest it sent included. */
  get scope(): { grounded: boolean; newDigest: boolean } {
    const { project, repository, row } = this.#start;
    return { grounded: project.grounded, newDigest: repository?.revision === row.revision };
  }

  #record(w: RunWrites, type: RunEventType, data: Record<string, unknown>) {
    const n = this.#start.row.revision;
    return w.events.append(
      this.#start.project.id,
      type,
      { revision: n, ...data },
      { whileRevising: n },
    );
  }

  /**
   * The impact step: reads the change request into requirement deltas and stores them with
   * the documents they affect, the revised questionnaire and register, and its provenance.
   * Unreadable when the model found no change in it. A resumed run finds them stored.
   */
  async analyse(signal: AbortSignal): Promise<'analysed' | 'unreadable'> {
    const { project, row, base, trace } = this.#start;
    if (row.deltas !== null && row.affected !== null) return 'analysed';
    if (row.answers) return this.#analyseAnswers(row.answers);
    const started = this.#deps.now();
    const requirements = trace.coverage.requirements.map((r) => ({ id: r.id, title: r.title }));
    const impact = await analyseImpact(
      this.#deps.caller,
      this.#chain,
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
      this.#start.house,
    );
    if (impact.index > 0) this.#chain = this.#chain.slice(impact.index);
    if (impact.deltas.length === 0) return 'unreadable';
    const { deltas } = impact;
    const type = project.type as ProjectType;
    const affected = affectedKinds(type, trace, base.documents, deltas, this.scope);
    const applied = applyDeltas(base.definition, base.register, deltas);
    const removed = deltas.filter((d) => d.op === 'removed').map((d) => d.id);
    const plan = documentPlan(type, this.scope);
    await this.#deps.store.write(async (w) => {
      await this.#record(w, 'revision.analysed', {
        deltas,
        documents: plan.filter((d) => affected.includes(d.kind)).map((d) => d.filename),
      });
      await w.updateRevision(project.id, row.revision, {
        deltas,
        affected,
        questionnaire: applied.definition.questionnaire,
        register: applied.register,
        retired: [...new Set([...base.retired, ...removed])],
      });
      await w.insertProvenance({
        projectId: project.id,
        revision: row.revision,
        kind: IMPACT_KIND,
        engine: impact.engine,
        promptVersion: impact.version,
        ...usageColumns(impact.usage),
        attempts: impact.attempts,
        durationMs: Math.max(0, Math.round(this.#deps.now() - started)),
        repairs: impact.repairs,
        initialFindings: impact.initialFindings,
        findings: impact.findings,
        trimmed: [],
      });
    });
    return 'analysed';
  }

  /**
   * The analysis of an answers revision (docs/clarify.md#answer-later): no model reads it.
   * Each answered entry still open in the base's brief is closed and recorded as a decision;
   * the deltas are none, the brief and the documents citing a closed ID are affected, and
   * the closed IDs are retired. Unreadable when none of them is open any more.
   */
  async #analyseAnswers(answers: Record<string, string>): Promise<'analysed' | 'unreadable'> {
    const { project, row, base, trace } = this.#start;
    const brief = base.documents.find((doc) => doc.type === BRIEF_KIND);
    const open = new Map(
      (brief ? registerItems(parseDocument(brief.content, { filename: brief.filename })) : []).map(
        (item) => [item.id, item],
      ),
    );
    const answered = Object.entries(answers).flatMap(([id, answer]) => {
      const item = open.get(id);
      return item ? [{ id, question: item.text, answer }] : [];
    });
    if (answered.length === 0) return 'unreadable';
    const { definition, decisions } = answerRegister(base.definition, answered);
    const closed = decisions.map((d) => d.answers);
    const type = project.type as ProjectType;
    const affected = answeredKinds(type, trace, base.documents, closed, this.scope);
    const plan = documentPlan(type, this.scope);
    await this.#deps.store.write(async (w) => {
      await this.#record(w, 'revision.analysed', {
        deltas: [],
        documents: plan.filter((d) => affected.includes(d.kind)).map((d) => d.filename),
      });
      await w.updateRevision(project.id, row.revision, {
        deltas: [],
        affected,
        questionnaire: definition.questionnaire,
        register: base.register,
        retired: [...new Set([...base.retired, ...closed])],
      });
    });
    return 'analysed';
  }

  /** Records a stage's start once per revision. */
  async #startStage(stage: string): Promise<void> {
    if (this.#announced.has(stage)) return;
    this.#announced.add(stage);
    await this.#deps.store.write((w) => this.#record(w, 'stage.started', { stage }));
  }

  /**
   * Rewrites one affected document from its previous version, the deltas and the revised
   * documents it builds on, checked with the revision rules, and stores it.
   */
  async rewrite(rewrites: Rewrites, doc: DocumentKind, signal: AbortSignal): Promise<void> {
    const { project, base, repository } = this.#start;
    await this.#startStage(doc.stage);
    const started = this.#deps.now();
    const previous = base.documents.find((d) => d.type === doc.kind);
    // This revision's decisions: those its definition holds beyond the base's.
    const decisions = (rewrites.definition.questionnaire.decisions ?? []).slice(
      base.definition.questionnaire.decisions?.length ?? 0,
    );
    const context: RevisionContext = {
      task: 'revision',
      idea: project.idea,
      definition: rewrites.definition,
      register: rewrites.register,
      document: {
        kind: doc.kind,
        title: doc.title,
        filename: doc.filename,
        stage: doc.stage,
        sections: doc.sections,
      },
      related: [],
      deltas: rewrites.deltas,
      previous: previous?.content ?? '',
      ids: rewrites.ids,
      // The project's style holds for every revision (an EARS context says nothing of it).
      ...(project.requirementStyle === 'gherkin' ? { requirementStyle: 'gherkin' as const } : {}),
      ...(decisions.length > 0 ? { answers: decisions } : {}),
      ...houseContext(this.#start.house),
    };
    const written = await writeDocument({
      caller: this.#deps.caller,
      log: this.#deps.log,
      contextTokenBudget: this.#deps.contextTokenBudget,
      chain: this.#chain,
      served: (result, from) => {
        if (result.index > 0 && from === this.#chain) this.#chain = this.#chain.slice(result.index);
      },
      plan: rewrites.plan,
      doc,
      project,
      definition: rewrites.definition,
      stored: rewrites.stored,
      signal,
      house: this.#start.house,
      revise: {
        prompt: (earlier) =>
          revisionPrompt({
            context: {
              ...context,
              related: earlier.map((e) => ({ kind: e.kind, title: e.title })),
            },
            document: doc,
            earlier,
            budget: this.#deps.contextTokenBudget,
            repository: repository?.prompt,
            newDigest: this.scope.newDigest,
          }),
        gate: (content) =>
          revisionFindings({
            filename: doc.filename,
            previous: previous?.content ?? '',
            content,
            deltas: rewrites.deltas,
            // With the IDs this revision closed (answers): gone on purpose, never back.
            retired: rewrites.ids.retired,
          }),
        retired: rewrites.gaps,
      },
    });
    const position = previous?.position ?? rewrites.plan.indexOf(doc);
    rewrites.stored.set(doc.kind, await this.#store(doc, position, written, started));
  }

  async #store(
    doc: DocumentKind,
    position: number,
    written: WrittenDocument,
    started: number,
  ): Promise<RunDocument> {
    const { project, row } = this.#start;
    const n = row.revision;
    const documentRow: RunDocument = {
      projectId: project.id,
      revision: n,
      writtenIn: n,
      type: doc.kind,
      filename: doc.filename,
      content: written.content,
      stage: doc.stage,
      tokensUsed: written.produced.usage.input + written.produced.usage.output,
      generatedAt: new Date(this.#deps.now()),
      position,
    };
    await this.#deps.store.write(async (w) => {
      await this.#record(w, 'document.completed', {
        type: documentRow.type,
        filename: documentRow.filename,
        stage: documentRow.stage,
        tokens_used: documentRow.tokensUsed,
        generated_at: documentRow.generatedAt.toISOString(),
      });
      await w.insertDocument(documentRow);
      await w.insertProvenance({
        projectId: project.id,
        revision: n,
        kind: doc.kind,
        engine: written.produced.engine,
        promptVersion: written.version,
        ...usageColumns(written.produced.usage),
        attempts: written.produced.attempts,
        durationMs: Math.max(0, Math.round(this.#deps.now() - started)),
        repairs: written.produced.repairs,
        initialFindings: written.initialFindings,
        findings: written.findings,
        trimmed: written.trimmed,
      });
    });
    return documentRow;
  }
}
