import type {
  ProjectQuestion,
  ProjectQuestionsResponse,
  Revision,
  RevisionAcceptedResponse,
  RevisionDiffResponse,
  RevisionFailed,
  RevisionInProgress,
  RevisionListResponse,
  RevisionResponse,
  RevisionSummary,
} from '@pgs/contract';
import type { APIResponse, RequestOptions, Transport } from '../core.ts';
import { PgsError, parseRetryAfterMs } from '../errors.ts';
import { type PollClock, pollUntilDone, type WaitOptions } from '../polling.ts';
import { APIResource, revisionNumber, segment } from './resource.ts';
import { ResultCache } from './result-cache.ts';
import type {
  RevisionCreated,
  RevisionCreateParams,
  RevisionDiff,
  RevisionDiffOptions,
  RevisionGetOptions,
  RevisionResult,
} from './revision-params.ts';

export * from './revision-params.ts';

/** What {@link Revisions} shares with the projects resource that builds it. */
export interface RevisionsOptions {
  clock: PollClock;
  /** The client's memory: ended revisions and their diffs never change. */
  cache: ResultCache;
  /** Makes a `Location` absolute. */
  absolute: (location: string) => string;
}

/** The longest `Prefer: wait` the API honours, in seconds. */
const MAX_WAIT_SECONDS = 60;

function waitSeconds(wait: number | undefined): number | undefined {
  if (wait === undefined) return undefined;
  if (!Number.isSafeInteger(wait) || wait < 1 || wait > MAX_WAIT_SECONDS) {
    throw new PgsError(`wait must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}.`);
  }
  return wait;
}

/**
 * Revisions of a completed project (docs/revisions.md): `pgs.projects.revisions`. A
 * revision changes the project with one sentence, a change request: the server reads it as
 * requirement deltas (added, modified, removed, renamed), rewrites only the documents they
 * touch and carries the others over byte for byte. Revision 1 is the project's creation.
 *
 * An ended revision (`completed` or `failed`) never changes, nor does its diff: the client
 * keeps them in memory (with the finished projects, `maxCachedProjects` in all) and answers
 * a later `get`, `waitForCompletion` or `diff` of them without a request.
 *
 * @example
 * const { revision } = await pgs.projects.revisions.create(projectId, { changeRequest: 'Add SMS reminders' });
 * const result = await pgs.projects.revisions.waitForCompletion(projectId, revision);
 * if (result.status === 'completed') console.log(await pgs.projects.revisions.diff(projectId, revision));
 */
export class Revisions extends APIResource {
  readonly #clock: PollClock;
  readonly #cache: ResultCache;
  readonly #absolute: (location: string) => string;

  constructor(request: Transport, { clock, cache, absolute }: RevisionsOptions) {
    super(request);
    this.#clock = clock;
    this.#cache = cache;
    this.#absolute = absolute;
  }

  /**
   * Starts a revision of a completed project; resolves with its in-progress state once the
   * server accepted it (202). Its price (an analysis fee and every document it might
   * rewrite) is reserved at once; it charges only what it rewrites. Only one revision runs
   * at a time: another one running is a `ConflictError` with code `REVISION_IN_PROGRESS`
   * (`details.revision` names it), a project in progress or failed one with
   * `PROJECT_NOT_COMPLETED`; neither is retried. An `Idempotency-Key` is generated when
   * `options.idempotencyKey` is absent and kept across the automatic retries.
   *
   * @example
   * const { revision } = await pgs.projects.revisions.create(projectId, {
   *   changeRequest: 'Add SMS reminders two days before each appointment; drop the medical records',
   * });
   */
  async create(
    projectId: string,
    params: RevisionCreateParams,
    options: RequestOptions = {},
  ): Promise<RevisionCreated> {
    const body: Record<string, unknown> = { changeRequest: params.changeRequest };
    if (params.context !== undefined) body.context = params.context;
    if (params.simulate !== undefined) {
      body.simulate = {
        outcome: params.simulate.outcome,
        ...(params.simulate.durationMs !== undefined
          ? { durationMs: params.simulate.durationMs }
          : {}),
      };
    }
    const path = `/projects/${segment('projectId', projectId)}`;
    return this.#accepted(
      await this.request<RevisionAcceptedResponse>({
        ...options,
        method: 'POST',
        path: `${path}/revisions`,
        body,
      }),
      path,
    );
  }

  /**
   * A completed project's open questions (`Q-n`) and the assumptions (`A-n`) one may
   * overrule, questions first, each with `recommended` (an assumption's: its default).
   * `pgs.projects.questions` (docs/clarify.md#answer-later).
   *
   * @example
   * const questions = await pgs.projects.revisions.questions(projectId);
   */
  async questions(projectId: string, options: RequestOptions = {}): Promise<ProjectQuestion[]> {
    const path = `/projects/${segment('projectId', projectId)}/questions`;
    const { body } = await this.request<ProjectQuestionsResponse>({
      ...options,
      method: 'GET',
      path,
    });
    return body.data.questions;
  }

  /**
   * Answers open questions and assumptions by ID as a revision (`pgs.projects.answer`): each
   * answered entry is closed and recorded as a decision `D-n`; resolves as `create` does
   * (202), idempotency key included. An ID not open, a blank or too long answer is a
   * `PgsError` with status 422 and code `VALIDATION_ERROR` naming it (`answers.Q-9`).
   *
   * @example
   * const { revision } = await pgs.projects.revisions.answer(projectId, { 'Q-1': 'Twilio' });
   */
  async answer(
    projectId: string,
    answers: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<RevisionCreated> {
    const path = `/projects/${segment('projectId', projectId)}`;
    return this.#accepted(
      await this.request<RevisionAcceptedResponse>({
        ...options,
        method: 'POST',
        path: `${path}/answers`,
        body: { answers },
      }),
      path,
    );
  }

  /** A 202 of a revision started, its `Location` absolute. */
  #accepted(response: APIResponse<RevisionAcceptedResponse>, project: string): RevisionCreated {
    const { data } = response.body;
    const retryAfterMs = parseRetryAfterMs(response.headers, this.#clock.now());
    const location = response.headers.get('location') ?? `${project}/revisions/${data.revision}`;
    return {
      ...data,
      location: this.#absolute(location),
      retryAfter: retryAfterMs === undefined ? undefined : Math.round(retryAfterMs / 1000),
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }

  /**
   * Every revision of a project, newest first, as summaries: `revision`, `status`,
   * `changeRequest` (`null` for revision 1), `deltas` counted per kind,
   * `documentsChanged`, `creditsReserved`, `creditsConsumed`, `createdAt`, `completedAt`.
   *
   * @example
   * for (const r of await pgs.projects.revisions.list(projectId)) console.log(r.revision, r.status, r.changeRequest);
   */
  async list(projectId: string, options: RequestOptions = {}): Promise<RevisionSummary[]> {
    const path = `/projects/${segment('projectId', projectId)}/revisions`;
    const { body } = await this.request<RevisionListResponse>({ ...options, method: 'GET', path });
    return body.data;
  }

  /**
   * One revision: `in_progress` (with `estimatedCompletionMs`), `completed` (with
   * `project` as it left it, and `metadata`) or `failed` (with `error`), plus `revision`,
   * `changeRequest`, `deltas` (the full list) and `documentsChanged`. A failed revision is
   * a status, not a thrown error. `wait` (seconds, 1–60) long-polls a revision in progress.
   * An ended revision seen before is answered from memory.
   *
   * @example
   * const r = await pgs.projects.revisions.get(projectId, 2, { wait: 30 });
   * if (r.status === 'completed') for (const d of r.deltas) console.log(d.op, d.id);
   */
  async get(
    projectId: string,
    revision: number,
    options: RevisionGetOptions = {},
  ): Promise<Revision> {
    const { wait, ...rest } = options;
    const path = this.#path(projectId, revision);
    const seconds = waitSeconds(wait);
    const hit = this.#cache.get<Revision>(ResultCache.revisionKey(projectId, revision));
    if (hit !== undefined) return hit.value;
    const { body } = await this.request<RevisionResponse>({
      ...rest,
      method: 'GET',
      path,
      ...(seconds === undefined
        ? {}
        : {
            // A held answer may take the whole wait before the attempt's own limit starts.
            timeoutMs: (rest.timeoutMs ?? this.#clock.timeoutMs) + seconds * 1000,
            headers: { prefer: `wait=${seconds}`, ...rest.headers },
          }),
    });
    this.#remember(projectId, body.data);
    return body.data;
  }

  /**
   * Waits until a revision is `completed` or `failed` and resolves with it: a failed
   * revision is a result (check `status`; nothing of it was applied and its credits were
   * refunded), not an exception. The options, pace and error handling are those of
   * `projects.waitForCompletion` (long-polls by default, `maxWaitMs`, `signal`,
   * `onProgress`); a {@link PollTimeoutError} carries `revision`.
   *
   * @example
   * const result = await pgs.projects.revisions.waitForCompletion(projectId, 2, { maxWaitMs: 5 * 60_000 });
   * if (result.status === 'failed') console.error(result.error.message);
   */
  async waitForCompletion(
    projectId: string,
    revision: number,
    options: WaitOptions<RevisionInProgress> = {},
  ): Promise<RevisionResult> {
    const path = this.#path(projectId, revision);
    const hit = this.#cache.get<RevisionResult>(ResultCache.revisionKey(projectId, revision));
    if (hit !== undefined) return hit.value;
    const result = await pollUntilDone<Revision>(
      ({ signal, timeoutMs, waitSeconds }) =>
        this.request<RevisionResponse>({
          method: 'GET',
          path,
          signal,
          timeoutMs,
          maxRetries: 0,
          ...(waitSeconds === undefined ? {} : { headers: { prefer: `wait=${waitSeconds}` } }),
        }),
      { projectId, revision },
      options,
      this.#clock,
    );
    this.#remember(projectId, result);
    return result;
  }

  /**
   * Cancels a revision in progress and resolves with it from then on: `failed` with
   * `error.code` `generation_cancelled`; its reservation is refunded whole and the previous
   * revision stays current. A revision already ended is a `ConflictError`
   * (`PROJECT_NOT_IN_PROGRESS`, `details.status`), thrown at once.
   *
   * @example
   * const cancelled = await pgs.projects.revisions.cancel(projectId, 2);
   * console.log(cancelled.error.message);
   */
  async cancel(
    projectId: string,
    revision: number,
    options: RequestOptions = {},
  ): Promise<RevisionFailed> {
    const path = `${this.#path(projectId, revision)}/cancel`;
    const { body } = await this.request<RevisionResponse>({ ...options, method: 'POST', path });
    this.#remember(projectId, body.data);
    // The server answers a cancel with the revision it failed (anything else is a 409).
    return body.data as RevisionFailed;
  }

  /**
   * What a completed revision changed against the revision before it that completed: a
   * git-style unified diff (`text/x-diff`) of every document it rewrote, or with
   * `format: 'json'` the same per file (`{ projectId, revision, base, files: [{ filename,
   * status, additions, deletions, patch }] }`). Revision 1's diff adds every document; an
   * empty text means nothing changed. A revision in progress or failed is a
   * `ConflictError` (`PROJECT_NOT_COMPLETED`). `from: m` compares against completed
   * revision m instead (every change from m on, in one diff). Answered from memory the
   * second time.
   *
   * @example
   * process.stdout.write(await pgs.projects.revisions.diff(projectId, 2));
   * const range = await pgs.projects.revisions.diff(projectId, 5, { from: 1 });
   * const { files } = await pgs.projects.revisions.diff(projectId, 2, { format: 'json' });
   */
  diff(
    projectId: string,
    revision: number,
    options?: RevisionDiffOptions & { format?: 'diff' | undefined },
  ): Promise<string>;
  diff(
    projectId: string,
    revision: number,
    options: RevisionDiffOptions & { format: 'json' },
  ): Promise<RevisionDiff>;
  async diff(
    projectId: string,
    revision: number,
    options: RevisionDiffOptions = {},
  ): Promise<string | RevisionDiff> {
    const { format = 'diff', from, ...rest } = options;
    const path = `${this.#path(projectId, revision)}/diff`;
    const base = from === undefined ? undefined : revisionNumber(from);
    const key = `${ResultCache.revisionKey(projectId, revision)}#diff:${format}:${base ?? ''}`;
    const hit = this.#cache.get<string | RevisionDiff>(key);
    if (hit !== undefined) return hit.value;
    let value: string | RevisionDiff;
    if (format === 'json') {
      const { body } = await this.request<RevisionDiffResponse>({
        ...rest,
        method: 'GET',
        path,
        query: { format, from: base },
      });
      value = body.data;
    } else {
      const { body } = await this.request<string>({
        ...rest,
        method: 'GET',
        path,
        query: { from: base },
        responseType: 'text',
        headers: { Accept: 'text/x-diff', ...rest.headers },
      });
      value = body;
    }
    this.#cache.set(key, { value, etag: undefined, revision });
    return value;
  }

  #path(projectId: string, revision: number): string {
    return `/projects/${segment('projectId', projectId)}/revisions/${revisionNumber(revision)}`;
  }

  /** Keeps an ended revision: it never changes. */
  #remember(projectId: string, data: Revision): void {
    if (data.status === 'in_progress') return;
    const key = ResultCache.revisionKey(projectId, data.revision);
    this.#cache.set(key, { value: data, etag: undefined, revision: data.revision });
  }
}
