import type {
  ProjectAcceptedResponse,
  ProjectCancelledResponse,
  ProjectFailed,
  ProjectListResponse,
  ProjectQuestion,
  ProjectStatus,
  ProjectStatusResponse,
} from '@pgs/contract';
import {
  type APIResponse,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
  type Transport,
} from '../core.ts';
import { PgsError, parseRetryAfterMs } from '../errors.ts';
import { type ProjectEvent, type ProjectEventsOptions, streamProjectEvents } from '../events.ts';
import { type PollClock, type ProjectResult, pollUntilDone, type WaitOptions } from '../polling.ts';
import { abortableSleep } from '../retry.ts';
import { Conformance } from './conformance.ts';
import { type FetchPage, ProjectPage, ProjectPagePromise } from './project-pages.ts';
import type {
  ProjectCreated,
  ProjectCreateParams,
  ProjectListParams,
  ProjectStatusWithRevision,
} from './project-params.ts';
import { ProjectResults } from './project-results.ts';
import { segment } from './resource.ts';
import { ResultCache } from './result-cache.ts';
import { type RevisionCreated, Revisions } from './revisions.ts';
import { Syncs } from './syncs.ts';
import { Tasks } from './tasks.ts';

export * from './project-params.ts';

/** How {@link Projects} is built; {@link Pgs} passes its own options. */
export interface ProjectsOptions {
  /** The versioned API base, to make `Location` absolute. */
  baseUrl?: string | undefined;
  sleep?: PollClock['sleep'] | undefined;
  now?: (() => number) | undefined;
  random?: (() => number) | undefined;
  timeoutMs?: number | undefined;
  /** Answers kept in memory (finished projects, ended revisions, pinned reads); 0 turns the cache off. Default 100. */
  maxCachedProjects?: number | undefined;
}

/** Default `maxCachedProjects`. @example new Pgs({ maxCachedProjects: DEFAULT_MAX_CACHED_PROJECTS * 10 }); */
export const DEFAULT_MAX_CACHED_PROJECTS = 100;

/** The `PGS-Revision` of a status answer; 1 from a server that does not send it. */
function revisionOf(headers: Headers): number {
  const n = Number(headers.get('pgs-revision') ?? Number.NaN);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/**
 * Generated projects. `pgs.projects`; their revisions are `pgs.projects.revisions`.
 *
 * The client remembers finished projects (by id, in memory, the `maxCachedProjects` most
 * recent). A `failed` project never changes: a later `get` or `waitForCompletion` of it
 * answers from memory without a request. A `completed` project changes when a revision
 * completes, so it is revalidated: the request carries `If-None-Match` with the remembered
 * `ETag`, and a `304 Not Modified` (no body) answers from memory.
 *
 * @example
 * const { projectId } = await pgs.projects.create({ idea: 'A habit tracker for remote teams' });
 * const result = await pgs.projects.waitForCompletion(projectId);
 * if (result.status === 'completed') console.log(result.project.name);
 */
export class Projects extends ProjectResults {
  /** Changes of a completed project: create, list, get, waitForCompletion, cancel, diff. */
  readonly revisions: Revisions;
  /** The plan as live work: list, get, update, next (claim), renew, context. */
  readonly tasks: Tasks;
  /** Checks of a repository against the spec: create, get, list, waitForCompletion. */
  readonly conformance: Conformance;
  /** Pushes of the project's tasks to a connected tracker (`docs/trackers.md`). */
  readonly syncs: Syncs;
  readonly #baseUrl: string | undefined;
  readonly #clock: PollClock;

  constructor(request: Transport, options: ProjectsOptions = {}) {
    super(request, new ResultCache(options.maxCachedProjects ?? DEFAULT_MAX_CACHED_PROJECTS));
    this.#baseUrl = options.baseUrl;
    this.#clock = {
      sleep: options.sleep ?? abortableSleep,
      now: options.now ?? (() => Date.now()),
      random: options.random ?? Math.random,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    this.revisions = new Revisions(request, {
      clock: this.#clock,
      cache: this.cache,
      absolute: (location) => this.#absolute(location),
    });
    this.tasks = new Tasks(request);
    this.conformance = new Conformance(request, this.#clock);
    this.syncs = new Syncs(request, this.#clock);
  }

  /**
   * Starts generating a project; resolves with its in-progress status once the
   * server accepted it (202). The price is reserved from the key's balance at once
   * (`InsufficientCreditsError` when it does not cover it). An `Idempotency-Key` is
   * generated when `options.idempotencyKey` is absent and kept across the automatic
   * retries, so a retry never creates a second project; pass your own key to make
   * retries across processes safe too.
   *
   * @example
   * const created = await pgs.projects.create({ idea: 'A habit tracker for remote teams', type: 'web' });
   * console.log(created.projectId, created.estimatedCompletionMs);
   */
  async create(params: ProjectCreateParams, options: RequestOptions = {}): Promise<ProjectCreated> {
    const body: Record<string, unknown> = { idea: params.idea };
    if (params.type !== undefined) body.type = params.type;
    if (params.name !== undefined) body.name = params.name;
    if (params.maxCostUsd !== undefined) body.maxCostUsd = params.maxCostUsd;
    if (params.detail !== undefined) body.detail = params.detail;
    if (params.language !== undefined) body.language = params.language;
    if (params.conventions === false) body.conventions = false;
    if (params.context !== undefined) body.context = params.context;
    if (params.requirementStyle !== undefined) body.requirementStyle = params.requirementStyle;
    if (params.answers !== undefined) {
      body.answers = params.answers.map(({ question, answer }) => ({ question, answer }));
    }
    if (params.simulate !== undefined) {
      body.simulate = {
        outcome: params.simulate.outcome,
        ...(params.simulate.durationMs !== undefined
          ? { durationMs: params.simulate.durationMs }
          : {}),
      };
    }
    const response = await this.request<ProjectAcceptedResponse>({
      ...options,
      method: 'POST',
      path: '/projects',
      body,
    });
    const { data } = response.body;
    const retryAfterMs = parseRetryAfterMs(response.headers, this.#clock.now());
    const location = response.headers.get('location') ?? `/projects/${data.projectId}`;
    return {
      ...data,
      location: this.#absolute(location),
      retryAfter: retryAfterMs === undefined ? undefined : Math.round(retryAfterMs / 1000),
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }

  /**
   * Reads a project's status: `in_progress` (with `estimatedCompletionMs`),
   * `completed` (with `project` and `metadata`: the latest completed revision) or `failed`
   * (with `error`). A failed generation is a status, not a thrown error. A failed project
   * seen before is answered from memory; a completed one is revalidated (`If-None-Match`,
   * a 304 answers from memory).
   *
   * @example
   * const p = await pgs.projects.get(id);
   * switch (p.status) { case 'in_progress': wait(p.estimatedCompletionMs); break; case 'failed': console.error(p.error.message); }
   */
  async get(projectId: string, options: RequestOptions = {}): Promise<ProjectStatus> {
    return (await this.getWithRevision(projectId, options)).status;
  }

  /**
   * {@link Projects.get}, with the revision the status describes (its `PGS-Revision`
   * header): 1 until a revision of the project completes, whatever revision is running.
   *
   * @example
   * const { status, revision } = await pgs.projects.getWithRevision(id);
   * if (status.status === 'completed') console.log(`${status.project.name}, revision ${revision}`);
   */
  async getWithRevision(
    projectId: string,
    options: RequestOptions = {},
  ): Promise<ProjectStatusWithRevision> {
    const path = `/projects/${segment('projectId', projectId)}`;
    const hit = this.cache.get<ProjectResult>(projectId);
    if (hit !== undefined && hit.value.status === 'failed') {
      return { status: hit.value, revision: hit.revision ?? 1 };
    }
    const conditional = hit?.etag === undefined ? {} : { 'If-None-Match': hit.etag };
    const response = await this.request<ProjectStatusResponse | undefined>({
      ...options,
      method: 'GET',
      path,
      headers: { ...conditional, ...options.headers },
    });
    if (response.status === 304) {
      if (hit === undefined)
        throw new PgsError('The server answered 304 to an unconditional read.');
      return { status: hit.value, revision: hit.revision ?? revisionOf(response.headers) };
    }
    return this.#remember(projectId, response as APIResponse<ProjectStatusResponse>);
  }

  /**
   * Polls a project until it is `completed` or `failed` and resolves with that status:
   * a failed generation is a result (check `status`), not an exception. A project whose
   * revision is running is `completed` (its latest completed revision): wait for the
   * revision with `projects.revisions.waitForCompletion`.
   *
   * - Pace: the server's `Retry-After` on each in-progress answer (clamped to 10–30 s),
   *   unless `pollIntervalMs` is given. The first poll is immediate.
   * - 429: waits for `Retry-After` (else `X-RateLimit-Reset`), without counting it as a failure.
   * - 5xx, 408, 409, network errors and request time-outs: exponential backoff with
   *   full jitter; `maxConsecutiveErrors` in a row (default 10) throw the last one.
   * - 400, 401, 403, 404 (any other error): thrown at once (`AuthenticationError`, `NotFoundError`, ...).
   * - `signal`: rejects at once with `APIUserAbortError`, even while sleeping.
   * - `maxWaitMs` (default 30 min): {@link PollTimeoutError} with `lastStatus`; sooner if a
   *   429 asks to wait past it.
   * - `onProgress(status, progress)`: after every in-progress poll.
   * - A project seen finished before is answered as `get` answers it: from memory when
   *   failed, revalidated with one conditional request when completed.
   *
   * @example
   * const result = await pgs.projects.waitForCompletion(id, {
   *   maxWaitMs: 10 * 60_000,
   *   onProgress: (s) => console.log(`about ${Math.ceil(s.estimatedCompletionMs / 1000)} s left`),
   * });
   */
  async waitForCompletion(projectId: string, options: WaitOptions = {}): Promise<ProjectResult> {
    const path = `/projects/${segment('projectId', projectId)}`;
    // A finished project never runs again: one (conditional) read answers.
    if (this.cache.get(projectId) !== undefined) {
      const { status } = await this.getWithRevision(projectId, { signal: options.signal });
      if (status.status !== 'in_progress') return status;
    }
    let last: APIResponse<ProjectStatusResponse> | undefined;
    const result = await pollUntilDone(
      async ({ signal, timeoutMs, waitSeconds }) => {
        last = await this.request<ProjectStatusResponse>({
          method: 'GET',
          path,
          signal,
          timeoutMs,
          maxRetries: 0,
          ...(waitSeconds === undefined ? {} : { headers: { prefer: `wait=${waitSeconds}` } }),
        });
        return last;
      },
      projectId,
      options,
      this.#clock,
    );
    if (last !== undefined) this.#remember(projectId, last);
    return result;
  }

  /**
   * Lists the key's projects (its account, in its mode), newest first. Await it for one
   * page (`data`, `hasMore`, `nextPage()`), or iterate it with `for await` for every
   * project of every page; pages are fetched as the loop needs them, `limit` at a time.
   * A `startingAfter` that is not one of the key's projects is a `BadRequestError`.
   *
   * @example
   * const page = await pgs.projects.list({ limit: 10, status: 'in_progress' });
   * for await (const project of pgs.projects.list()) console.log(project.projectId, project.status);
   */
  list(params: ProjectListParams = {}, options: RequestOptions = {}): ProjectPagePromise {
    const fetchPage: FetchPage = async (startingAfter) => {
      const { body } = await this.request<ProjectListResponse>({
        ...options,
        method: 'GET',
        path: '/projects',
        query: { limit: params.limit, status: params.status, starting_after: startingAfter },
      });
      return new ProjectPage(body, fetchPage);
    };
    return new ProjectPagePromise(() => fetchPage(params.startingAfter));
  }

  /**
   * Cancels a project in progress and resolves with its status from then on: `failed`
   * with `error.code` `generation_cancelled` and a message saying what was charged (the
   * documents already generated; the rest of the reservation is released). A project
   * already completed or failed throws `ConflictError` (code `PROJECT_NOT_IN_PROGRESS`) at
   * once: a 409 about a project's state is not retried. The automatic idempotency key
   * makes a retried cancel return the first answer.
   *
   * @example
   * const cancelled = await pgs.projects.cancel(projectId);
   * console.log(cancelled.error.message);
   */
  async cancel(projectId: string, options: RequestOptions = {}): Promise<ProjectFailed> {
    const path = `/projects/${segment('projectId', projectId)}/cancel`;
    const { body } = await this.request<ProjectCancelledResponse>({
      ...options,
      method: 'POST',
      path,
    });
    this.cache.set(projectId, { value: body.data, etag: undefined, revision: 1 });
    return body.data;
  }

  /**
   * A completed project's open questions (`Q-n`) and the assumptions (`A-n`) one may
   * overrule, each with `recommended` (docs/clarify.md#answer-later).
   *
   * @example
   * for (const q of await pgs.projects.questions(projectId)) console.log(q.id, q.question);
   */
  questions(projectId: string, options: RequestOptions = {}): Promise<ProjectQuestion[]> {
    return this.revisions.questions(projectId, options);
  }

  /**
   * Answers them by ID as a revision (202, as `revisions.create`): each answered entry is
   * closed and recorded as a decision `D-n`; follow it with `revisions.waitForCompletion`.
   *
   * @example
   * const { revision } = await pgs.projects.answer(projectId, { 'Q-1': 'Twilio' });
   */
  answer(
    projectId: string,
    answers: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<RevisionCreated> {
    return this.revisions.answer(projectId, answers, options);
  }

  /**
   * Deletes a project with its documents (one still in progress is cancelled first, and
   * charged for the documents already generated). Afterwards it is `NotFoundError`
   * everywhere, a second delete included.
   *
   * @example
   * await pgs.projects.delete(projectId);
   */
  async delete(projectId: string, options: RequestOptions = {}): Promise<void> {
    const path = `/projects/${segment('projectId', projectId)}`;
    this.cache.forgetProject(projectId);
    await this.request<undefined>({ ...options, method: 'DELETE', path });
    this.cache.forgetProject(projectId);
  }

  /**
   * The project's life as it happens (`GET /projects/{id}/events`, server-sent events):
   * `status` first (on a new stream), then `stage.started` and `document.completed` as
   * they happen, and last `project.completed` or `project.failed`, after which the
   * iteration ends. A stream of a completed project follows the revision running (its
   * `revision.*` events, and the stages and documents with a `revision`) to
   * `revision.completed` or `revision.failed`; with none running it ends after `status` and
   * the last run's final event. Errors before the stream opens are the usual classes
   * (`NotFoundError`, `AuthenticationError`, `RateLimitError` after the retries...). A
   * connection that drops is reopened with `Last-Event-ID` (the server's `retry:` plus
   * jittered backoff, `maxReconnects` times in a row without an event), so no event is
   * lost or repeated. Breaking out of the loop closes the connection.
   *
   * @example
   * for await (const event of pgs.projects.events(projectId)) {
   *   if (event.type === 'document.completed') console.log(event.data.filename);
   * }
   */
  events(projectId: string, options: ProjectEventsOptions = {}): AsyncIterable<ProjectEvent> {
    const path = `/projects/${segment('projectId', projectId)}/events`;
    return streamProjectEvents(
      { request: this.request, sleep: this.#clock.sleep, random: this.#clock.random },
      path,
      options,
    );
  }

  /** Remembers a finished status with its ETag and revision; an in-progress one is not kept. */
  #remember(
    projectId: string,
    { body, headers }: APIResponse<ProjectStatusResponse>,
  ): ProjectStatusWithRevision {
    const revision = revisionOf(headers);
    if (body.data.status !== 'in_progress') {
      const etag = headers.get('etag') ?? undefined;
      this.cache.set(projectId, { value: body.data, etag, revision });
    }
    return { status: body.data, revision };
  }

  #absolute(location: string): string {
    if (this.#baseUrl === undefined || !URL.canParse(location, this.#baseUrl)) return location;
    return new URL(location, this.#baseUrl).href;
  }
}
