import type {
  ProjectAcceptedResponse,
  ProjectCancelledResponse,
  ProjectFailed,
  ProjectListResponse,
  ProjectStatus,
  ProjectStatusResponse,
  ProvenanceResponse,
  Trace,
  TraceResponse,
} from '@pgs/contract';
import {
  abortableSleep,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
  type Transport,
} from '../core.ts';
import { PgsError, parseRetryAfterMs } from '../errors.ts';
import { type ProjectEvent, type ProjectEventsOptions, streamProjectEvents } from '../events.ts';
import { type PollClock, type ProjectResult, pollUntilDone, type WaitOptions } from '../polling.ts';
import { type FetchPage, ProjectPage, ProjectPagePromise } from './project-pages.ts';
import type {
  ArchiveOptions,
  ProjectCreated,
  ProjectCreateParams,
  ProjectListParams,
  Provenance,
} from './project-params.ts';
import { APIResource, segment } from './resource.ts';

export * from './project-params.ts';

/** How {@link Projects} is built; {@link Pgs} passes its own options. */
export interface ProjectsOptions {
  /** The versioned API base, to make `Location` absolute. */
  baseUrl?: string | undefined;
  sleep?: PollClock['sleep'] | undefined;
  now?: (() => number) | undefined;
  random?: (() => number) | undefined;
  timeoutMs?: number | undefined;
  /** Finished projects kept in memory; 0 turns the cache off. Default 100. */
  maxCachedProjects?: number | undefined;
}

/** Default `maxCachedProjects`. @example new Pgs({ maxCachedProjects: DEFAULT_MAX_CACHED_PROJECTS * 10 }); */
export const DEFAULT_MAX_CACHED_PROJECTS = 100;

/**
 * Generated projects. `pgs.projects`.
 *
 * A `completed` or `failed` project never changes again, so the client keeps it (by
 * id, in memory, the `maxCachedProjects` most recent): a later `get` or
 * `waitForCompletion` of it answers from memory without a request.
 *
 * @example
 * const { projectId } = await pgs.projects.create({ idea: 'A habit tracker for remote teams' });
 * const result = await pgs.projects.waitForCompletion(projectId);
 * if (result.status === 'completed') console.log(result.project.name);
 */
export class Projects extends APIResource {
  readonly #baseUrl: string | undefined;
  readonly #clock: PollClock;
  readonly #maxCached: number;
  // Insertion order doubles as recency: a hit is re-inserted, the oldest is evicted.
  readonly #finished = new Map<string, ProjectResult>();

  constructor(request: Transport, options: ProjectsOptions = {}) {
    super(request);
    this.#baseUrl = options.baseUrl;
    this.#clock = {
      sleep: options.sleep ?? abortableSleep,
      now: options.now ?? (() => Date.now()),
      random: options.random ?? Math.random,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    const maxCached = options.maxCachedProjects ?? DEFAULT_MAX_CACHED_PROJECTS;
    if (
      !(Number.isSafeInteger(maxCached) || maxCached === Number.POSITIVE_INFINITY) ||
      maxCached < 0
    ) {
      throw new PgsError('maxCachedProjects must be a non-negative integer (or Infinity).');
    }
    this.#maxCached = maxCached;
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
   * `completed` (with `project` and `metadata`) or `failed` (with `error`). A
   * failed generation is a status, not a thrown error. A finished project is
   * answered from the client's memory when it was seen before.
   *
   * @example
   * const p = await pgs.projects.get(id);
   * switch (p.status) { case 'in_progress': wait(p.estimatedCompletionMs); break; case 'failed': console.error(p.error.message); }
   */
  async get(projectId: string, options: RequestOptions = {}): Promise<ProjectStatus> {
    const path = `/projects/${segment('projectId', projectId)}`;
    const cached = this.#cached(projectId);
    if (cached !== undefined) return cached;
    const { body } = await this.request<ProjectStatusResponse>({ ...options, method: 'GET', path });
    this.#remember(projectId, body.data);
    return body.data;
  }

  /**
   * Polls a project until it is `completed` or `failed` and resolves with that
   * status: a failed generation is a result (check `status`), not an exception.
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
   * - A project already seen finished resolves from memory without a request.
   *
   * @example
   * const result = await pgs.projects.waitForCompletion(id, {
   *   maxWaitMs: 10 * 60_000,
   *   onProgress: (s) => console.log(`about ${Math.ceil(s.estimatedCompletionMs / 1000)} s left`),
   * });
   */
  async waitForCompletion(projectId: string, options: WaitOptions = {}): Promise<ProjectResult> {
    const path = `/projects/${segment('projectId', projectId)}`;
    const cached = this.#cached(projectId);
    if (cached !== undefined) return cached;
    const result = await pollUntilDone(
      async ({ signal, timeoutMs, waitSeconds }) =>
        this.request<ProjectStatusResponse>({
          method: 'GET',
          path,
          signal,
          timeoutMs,
          maxRetries: 0,
          ...(waitSeconds === undefined ? {} : { headers: { prefer: `wait=${waitSeconds}` } }),
        }),
      projectId,
      options,
      this.#clock,
    );
    this.#remember(projectId, result);
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
    this.#remember(projectId, body.data);
    return body.data;
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
    this.#finished.delete(projectId);
    await this.request<undefined>({ ...options, method: 'DELETE', path });
    this.#finished.delete(projectId);
  }

  /**
   * The project's life as it happens (`GET /projects/{id}/events`, server-sent events):
   * `status` first (on a new stream), then `stage.started` and `document.completed` as
   * they happen, and last `project.completed` or `project.failed`, after which the
   * iteration ends. Errors before the stream opens are the usual classes
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

  /**
   * One document's markdown (`getProjectDocument`), by its `filename` in the status
   * (`PRODUCT_REQUIREMENTS.md`): available as soon as it is stored, while the project is
   * still in progress. A failed project is a `ConflictError` (`PROJECT_NOT_COMPLETED`),
   * not retried; an unknown filename a `NotFoundError`.
   *
   * @example
   * const prd = await pgs.projects.document(projectId, 'PRODUCT_REQUIREMENTS.md');
   */
  async document(
    projectId: string,
    filename: string,
    options: RequestOptions = {},
  ): Promise<string> {
    const path = `/projects/${segment('projectId', projectId)}/documents/${segment('filename', filename)}`;
    const { body } = await this.request<string>({
      ...options,
      method: 'GET',
      path,
      responseType: 'text',
      headers: { Accept: 'text/markdown', ...options.headers },
    });
    return body;
  }

  /**
   * A completed project as one zip (`getProjectArchive`): every document and
   * `project.json`, laid out for `layout`. Resolves with the whole zip in memory (a few
   * text files, tens of kilobytes). A project not completed is a `ConflictError`
   * (`PROJECT_NOT_COMPLETED`, `details.status`), not retried.
   *
   * @example
   * const zip = await pgs.projects.archive(projectId, { layout: 'kiro' });
   * await writeFile('project.zip', zip);
   */
  async archive(projectId: string, options: ArchiveOptions = {}): Promise<Uint8Array> {
    const { layout, ...rest } = options;
    const path = `/projects/${segment('projectId', projectId)}/archive`;
    const { body } = await this.request<Uint8Array>({
      ...rest,
      method: 'GET',
      path,
      query: { layout },
      responseType: 'bytes',
      headers: { Accept: 'application/zip', ...rest.headers },
    });
    return body;
  }

  /**
   * A completed project's trace graph (`getProjectTrace`): the IDs its documents define
   * (`nodes`), the citations between them (`edges`), for each `FR-n` its acceptance criteria
   * and the stories, architecture components and plan tasks that reach it (`coverage`, with
   * `totals`), and what the deterministic checks found (`findings`, worst first; the rules
   * are in docs/trace.md). A project in progress or failed is a `ConflictError`
   * (`PROJECT_NOT_COMPLETED`, `details.status`), not retried; another key's project a
   * `NotFoundError`. Retries, time-outs and `signal` are those of every request.
   *
   * @example
   * const { coverage, findings } = await pgs.projects.trace(projectId);
   * for (const fr of coverage.requirements) if (fr.tasks.length === 0) console.log(`${fr.id} has no task`);
   * console.log(findings.filter((f) => f.severity === 'critical' || f.severity === 'high').length);
   */
  async trace(projectId: string, options: RequestOptions = {}): Promise<Trace> {
    const path = `/projects/${segment('projectId', projectId)}/trace`;
    const { body } = await this.request<TraceResponse>({ ...options, method: 'GET', path });
    return body.data;
  }

  /**
   * How a project was generated (`getProjectProvenance`), in any state: for the definition
   * and each document stored so far, the `engine` that wrote it (`offline`, the built-in
   * engine, or `provider:model`), the prompt version, the tokens the provider reported, the
   * model calls (`attempts`) and `repairs`, and what the quality gate found in the first
   * answer (`initialFindings`) and still finds in the stored one (`findings`). Another key's
   * project is a `NotFoundError`. Retries, time-outs and `signal` are those of every request.
   *
   * @example
   * const { definition, documents } = await pgs.projects.provenance(projectId);
   * const parts = [...(definition ? [definition] : []), ...documents];
   * if (parts.every((part) => part.engine === 'offline')) console.log('written by the offline engine');
   */
  async provenance(projectId: string, options: RequestOptions = {}): Promise<Provenance> {
    const path = `/projects/${segment('projectId', projectId)}/provenance`;
    const { body } = await this.request<ProvenanceResponse>({ ...options, method: 'GET', path });
    return body.data;
  }

  #cached(projectId: string): ProjectResult | undefined {
    const hit = this.#finished.get(projectId);
    if (hit === undefined) return undefined;
    this.#finished.delete(projectId);
    this.#finished.set(projectId, hit);
    // A copy, so a caller that edits its result cannot change what the next caller gets.
    return structuredClone(hit);
  }

  #remember(projectId: string, status: ProjectStatus): void {
    if (status.status === 'in_progress' || this.#maxCached <= 0) return;
    this.#finished.delete(projectId);
    this.#finished.set(projectId, structuredClone(status));
    while (this.#finished.size > this.#maxCached) {
      const oldest = this.#finished.keys().next().value;
      if (oldest === undefined) break;
      this.#finished.delete(oldest);
    }
  }

  #absolute(location: string): string {
    if (this.#baseUrl === undefined || !URL.canParse(location, this.#baseUrl)) return location;
    return new URL(location, this.#baseUrl).href;
  }
}
