import type { ProjectType } from '@pgs/contract';
import { generateText, jsonSchema, type LanguageModel, Output } from 'ai';
import type { Db } from '../storage/db.ts';
import {
  type DocumentRow,
  findProject,
  insertDocument,
  listDocuments,
  type ProjectRow,
  updateProject,
} from '../storage/sql/projects.ts';
import { readGenerationStats, recordGenerationTime } from '../storage/sql/stats.ts';
import { type DocumentKind, documentPlan } from './catalogue.ts';
import {
  type GenerationContext,
  PROJECT_DEFINITION_SCHEMA,
  type ProjectDefinition,
  renderPrompt,
  SYSTEM_PROMPT,
} from './engine/context.ts';
import { OFFLINE_PROVIDER } from './engine/offline-model.ts';
import { DEFINITION_KIND, estimateRemainingMs, statKey } from './estimate.ts';
import { durationsFor, type Projects, type Simulation } from './projects.ts';
import { FAILURE_MESSAGES } from './result.ts';

/** The model a project is generated with. */
export interface ModelChoice {
  model: LanguageModel;
  /** The built-in offline engine (it honours `simulate`). */
  offline: boolean;
  /** Names the engine in measurements (`offline`, or provider and model). */
  engine: string;
}

/** Chooses the model for a project: test keys always get the offline engine. */
export interface ModelSelector {
  forProject(project: Pick<ProjectRow, 'mode' | 'simulate'>): ModelChoice;
}

/** The engine a mode's projects are generated with, for estimates made before a run. */
export const engineOf = (models: ModelSelector) => (mode: 'live' | 'test') =>
  models.forProject({ mode, simulate: null }).engine;

/** An AI call that outlasted its time limit (the model never answered in time). */
export class AiTimeoutError extends Error {
  override name = 'AiTimeoutError';
}

/** An AI call that failed for good: the provider refused, or answered with nothing usable. */
export class AiFailureError extends Error {
  override name = 'AiFailureError';
}

export interface WorkflowOptions {
  /** Time limit of one AI call. */
  aiTimeoutMs?: number;
  /** Attempts of one AI call before the project fails (time-outs and provider errors). */
  stepAttempts?: number;
  /** First pause between attempts; doubled each time. */
  retryDelayMs?: number;
  /** Documents generated at once within one project. */
  concurrency?: number;
  now?: () => number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const silent: Logger = { info() {}, warn() {} };

function isTimeout(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e.name === 'TimeoutError' || e instanceof AiTimeoutError) return true;
  }
  return false;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const EXCERPT_CHARS = 1_200;

/**
 * The generation workflow of one project: the definition (name, description,
 * questionnaire), then every document of the type's plan, each started as soon as the
 * documents it builds on are stored and stored the moment it exists. A resumed run skips
 * what is stored, so nothing is generated or charged twice. AI time-outs and provider
 * errors are retried per call; when they outlast the retries the project fails and its
 * credits are refunded. Anything else (a crash, a database error) throws, and the queue
 * retries the whole run.
 *
 * @example
 * await workflow.run({ projectId, signal });
 */
export class GenerationWorkflow {
  readonly #db: Db;
  readonly #projects: Projects;
  readonly #models: ModelSelector;
  readonly #options: Required<Omit<WorkflowOptions, 'log'>>;
  readonly #log: Logger;

  constructor(db: Db, projects: Projects, models: ModelSelector, options: WorkflowOptions = {}) {
    this.#db = db;
    this.#projects = projects;
    this.#models = models;
    this.#options = {
      aiTimeoutMs: options.aiTimeoutMs ?? 120_000,
      stepAttempts: options.stepAttempts ?? 3,
      retryDelayMs: options.retryDelayMs ?? 1_000,
      concurrency: options.concurrency ?? 4,
      now: options.now ?? Date.now,
    };
    this.#log = options.log ?? silent;
  }

  /** Runs or resumes a project's generation to its end. */
  async run({
    projectId,
    signal,
  }: {
    projectId: string;
    signal: AbortSignal;
  }): Promise<'completed' | 'failed' | 'skipped'> {
    const project = await findProject(this.#db, projectId);
    if (project === undefined || project.status !== 'in_progress' || project.type === null)
      return 'skipped';
    try {
      await this.#generate(project, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof AiTimeoutError || error instanceof AiFailureError) {
        const message =
          error instanceof AiTimeoutError ? FAILURE_MESSAGES.timeout : FAILURE_MESSAGES.failure;
        this.#log.warn({ projectId, err: error }, 'generation failed');
        await this.#projects.fail(projectId, message);
        return 'failed';
      }
      throw error;
    }
    await this.#projects.complete(projectId);
    this.#log.info({ projectId }, 'generation completed');
    return 'completed';
  }

  /** A run whose retries are exhausted: fail the project and refund it. */
  async giveUp(projectId: string): Promise<void> {
    await this.#projects.fail(projectId, FAILURE_MESSAGES.exhausted);
  }

  async #generate(project: ProjectRow, signal: AbortSignal): Promise<void> {
    const type = project.type as ProjectType;
    const plan = documentPlan(type);
    const simulate = (project.simulate as Simulation | null) ?? undefined;
    const choice = this.#models.forProject(project);
    const durationOf = durationsFor(
      plan,
      simulate,
      await readGenerationStats(this.#db),
      choice.engine,
    );
    const stored = new Map(
      (await listDocuments(this.#db, project.id)).map((doc) => [doc.type, doc]),
    );
    const running = new Map<string, number>();

    const updateEstimate = async (defined: boolean) => {
      const now = this.#options.now();
      const remaining = estimateRemainingMs({
        plan,
        done: new Set(stored.keys()),
        running,
        defined,
        durationOf,
        now,
      });
      await updateProject(this.#db, project.id, {
        estimatedCompletionAt: new Date(now + remaining),
      });
    };

    const call = (kind: string, context: GenerationContext, json: boolean) =>
      this.#call(choice, kind, context, json, simulate, durationOf(kind), signal);

    let definition: ProjectDefinition;
    if (project.name === null || project.description === null || project.questionnaire === null) {
      const started = this.#options.now();
      const answer = await call(
        DEFINITION_KIND,
        {
          task: 'definition',
          idea: project.idea,
          type,
          ...(project.requestedName ? { requestedName: project.requestedName } : {}),
        },
        true,
      );
      definition = { ...(answer.output as ProjectDefinition), type };
      if (project.requestedName) definition.name = project.requestedName;
      await updateProject(this.#db, project.id, {
        name: definition.name,
        description: definition.description,
        questionnaire: definition.questionnaire,
      });
      if (!simulate)
        await recordGenerationTime(
          this.#db,
          statKey(choice.engine, DEFINITION_KIND),
          this.#options.now() - started,
        );
    } else {
      definition = {
        name: project.name,
        description: project.description,
        type,
        questionnaire: project.questionnaire as ProjectDefinition['questionnaire'],
      };
    }
    await updateEstimate(true);

    const generateDocument = async (
      doc: DocumentKind,
      position: number,
      docSignal: AbortSignal,
    ) => {
      const started = this.#options.now();
      running.set(doc.kind, started);
      const related = doc.dependsOn
        .map((kind) => stored.get(kind))
        .filter((row): row is DocumentRow => row !== undefined)
        .map((row) => ({
          kind: row.type,
          title: plan.find((p) => p.kind === row.type)?.title ?? row.type,
          excerpt: row.content.slice(0, EXCERPT_CHARS),
        }));
      const answer = await this.#call(
        choice,
        doc.kind,
        {
          task: 'document',
          idea: project.idea,
          definition,
          document: {
            kind: doc.kind,
            title: doc.title,
            filename: doc.filename,
            stage: doc.stage,
            sections: doc.sections,
          },
          related,
        },
        false,
        simulate,
        durationOf(doc.kind),
        docSignal,
      );
      const content = answer.text.trim();
      if (content.length === 0) throw new AiFailureError(`the model returned an empty ${doc.kind}`);
      const row: DocumentRow = {
        projectId: project.id,
        type: doc.kind,
        filename: doc.filename,
        content,
        stage: doc.stage,
        tokensUsed: answer.tokens,
        generatedAt: new Date(this.#options.now()),
        position,
      };
      await insertDocument(this.#db, row);
      stored.set(doc.kind, row);
      running.delete(doc.kind);
      if (!simulate) {
        await recordGenerationTime(
          this.#db,
          statKey(choice.engine, doc.kind),
          this.#options.now() - started,
        );
      }
      await updateEstimate(true);
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

  /** One AI call with its time limit, retried on time-outs and provider errors. */
  async #call(
    choice: ModelChoice,
    kind: string,
    context: GenerationContext,
    json: boolean,
    simulate: Simulation | undefined,
    simulatedMs: number,
    signal: AbortSignal,
  ): Promise<{ text: string; output: unknown; tokens: number }> {
    // A simulated failure hangs the first document of the requirements stage; its time
    // limit scales with the simulated duration so a failing simulation ends in about that time.
    const hang = simulate?.outcome === 'failed' && kind === 'product-requirements';
    const timeout = hang
      ? Math.max(100, Math.round((simulate?.durationMs ?? 0) / (2 * this.#options.stepAttempts)))
      : this.#options.aiTimeoutMs;
    const providerOptions = choice.offline
      ? { [OFFLINE_PROVIDER]: { delayMs: simulate ? simulatedMs : 0, hang } }
      : undefined;
    let lastError: unknown;
    for (let attempt = 1; attempt <= this.#options.stepAttempts; attempt++) {
      try {
        const prompt = renderPrompt(context);
        const common = {
          model: choice.model,
          system: SYSTEM_PROMPT,
          prompt,
          abortSignal: signal,
          timeout,
          maxRetries: 2,
          ...(providerOptions ? { providerOptions } : {}),
        };
        const result = json
          ? await generateText({
              ...common,
              output: Output.object({ schema: jsonSchema(PROJECT_DEFINITION_SCHEMA) }),
            })
          : await generateText(common);
        const usage = result.totalUsage ?? result.usage;
        const tokens = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
        return { text: result.text, output: json ? result.output : undefined, tokens };
      } catch (error) {
        if (signal.aborted) throw error;
        lastError = error;
        this.#log.warn({ kind, attempt, err: error }, 'AI call failed');
        if (attempt < this.#options.stepAttempts) {
          await sleep(this.#options.retryDelayMs * 2 ** (attempt - 1), signal);
        }
      }
    }
    if (isTimeout(lastError)) {
      throw new AiTimeoutError(
        `${kind}: no answer within ${timeout} ms after ${this.#options.stepAttempts} attempts`,
        {
          cause: lastError,
        },
      );
    }
    throw new AiFailureError(`${kind}: ${(lastError as Error)?.message ?? 'failed'}`, {
      cause: lastError,
    });
  }
}
