import type { components } from '@pgs/contract';
import type { RequestOptions, Transport } from '../core.ts';
import { type PollClock, untilSettled } from '../polling.ts';
import { APIResource, segment } from './resource.ts';

/** A push of a project to a tracker, with what it did per item (`GET …/syncs/{syncId}`). */
export type ProjectSync = components['schemas']['ProjectSync'];
/** One item of a sync: `{ id: 'T-3', action: 'created', externalId, url, error? }`. */
export type ProjectSyncItem = components['schemas']['ProjectSyncItem'];
/** `connectionId`, `scope` (`tasks`, `requirements` or `all`) and `dryRun` (default false). */
export type CreateSyncRequest = Omit<components['schemas']['CreateSyncRequest'], 'dryRun'> & {
  dryRun?: boolean | undefined;
};

/** A sync that is not over yet: read it again. */

/** Options of {@link Syncs.waitForCompletion}. */
export interface SyncWaitOptions extends RequestOptions {
  /** Milliseconds between reads; default 2,000 (the server's `Retry-After`). */
  intervalMs?: number | undefined;
  /** Give up after this many milliseconds (a `PgsError`); default 600,000. */
  maxWaitMs?: number | undefined;
}

const syncsPath = (projectId: string) => `/projects/${segment('projectId', projectId)}/syncs`;

/**
 * Pushes of a project's tasks to a connected tracker (the repository's `docs/trackers.md`,
 * "Pushing a project"): `pgs.projects.syncs`. A sync runs on the server's workers and ends
 * `succeeded`, or `failed` when any item failed (each failed item says why). Syncing again
 * writes only what changed and never duplicates an issue; `dryRun` changes nothing.
 *
 * @example
 * const sync = await pgs.projects.syncs.createAndWait(projectId, { connectionId, scope: 'all' });
 * for (const item of sync.items) console.log(item.id, item.action, item.url ?? '');
 */
export class Syncs extends APIResource {
  readonly #clock: Pick<PollClock, 'sleep' | 'now'>;

  constructor(request: Transport, clock: Pick<PollClock, 'sleep' | 'now'>) {
    super(request);
    this.#clock = clock;
  }

  /** Queues a sync (202); it is usually still `queued` when this resolves. */
  async create(
    projectId: string,
    params: CreateSyncRequest,
    options: RequestOptions = {},
  ): Promise<ProjectSync & { location: string }> {
    const path = syncsPath(projectId);
    const response = await this.request<{ data: ProjectSync }>({
      ...options,
      method: 'POST',
      path,
      body: {
        connectionId: params.connectionId,
        scope: params.scope,
        ...(params.dryRun === undefined ? {} : { dryRun: params.dryRun }),
      },
    });
    const { data } = response.body;
    return { ...data, location: response.headers.get('location') ?? `${path}/${data.id}` };
  }

  /** One sync with its items. */
  async get(projectId: string, syncId: string, options: RequestOptions = {}): Promise<ProjectSync> {
    const path = `${syncsPath(projectId)}/${segment('syncId', syncId)}`;
    const { body } = await this.request<{ data: ProjectSync }>({ ...options, method: 'GET', path });
    return body.data;
  }

  /** The project's syncs, newest first (at most 50). */
  async list(projectId: string, options: RequestOptions = {}): Promise<ProjectSync[]> {
    const { body } = await this.request<{ data: ProjectSync[] }>({
      ...options,
      method: 'GET',
      path: syncsPath(projectId),
    });
    return body.data;
  }

  /**
   * Reads the sync until it is `succeeded` or `failed`, every `intervalMs`, at most
   * `maxWaitMs`; `options.signal` stops the wait, also while it sleeps.
   */
  async waitForCompletion(
    projectId: string,
    syncId: string,
    { intervalMs = 2_000, maxWaitMs = 600_000, ...options }: SyncWaitOptions = {},
  ): Promise<ProjectSync> {
    return untilSettled(() => this.get(projectId, syncId, options), this.#clock, {
      intervalMs,
      maxWaitMs,
      what: `The sync ${syncId}`,
      signal: options.signal,
    });
  }

  /** {@link create}, then {@link waitForCompletion}: the sync as it ended. */
  async createAndWait(
    projectId: string,
    params: CreateSyncRequest,
    options: SyncWaitOptions = {},
  ): Promise<ProjectSync> {
    const { intervalMs: _i, maxWaitMs: _m, ...request } = options;
    const created = await this.create(projectId, params, request);
    return this.waitForCompletion(projectId, created.id, options);
  }
}
