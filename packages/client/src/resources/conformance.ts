import type {
  ConformanceCheck,
  CreateConformanceCheckRequest,
  RepositoryDigest,
} from '@pgs/contract';
import type { RequestOptions, Transport } from '../core.ts';
import { type PollClock, untilSettled } from '../polling.ts';
import { APIResource, segment } from './resource.ts';

/** A check that is not over yet: read it again. */

/** Options of {@link Conformance.waitForCompletion}. */
export interface ConformanceWaitOptions extends RequestOptions {
  /** Milliseconds between reads; default 2,000. */
  intervalMs?: number | undefined;
  /** Give up after this many milliseconds (a `PgsError`); default 300,000. */
  maxWaitMs?: number | undefined;
}

const checksPath = (projectId: string) =>
  `/projects/${segment('projectId', projectId)}/conformance`;

/**
 * Checks of a repository against a project's spec (the repository's `docs/conformance.md`):
 * `pgs.projects.conformance`. Build the digest with `@pgs/repository`'s
 * `buildRepositoryDigest(root, { citations: true })`, so the tests citing spec IDs are sent too.
 * A check ends `succeeded` with its report (per requirement `tested`, `implemented` or
 * `missing`; the drift; a `suggestedChange` to send to `projects.revisions.create`) or
 * `failed` with `error`.
 *
 * @example
 * const { repository } = await buildRepositoryDigest('.', { citations: true });
 * const created = await pgs.projects.conformance.create(projectId, { context: { repository } });
 * const check = await pgs.projects.conformance.waitForCompletion(projectId, created.id);
 * for (const r of check.report?.requirements ?? []) console.log(r.id, r.status);
 */
export class Conformance extends APIResource {
  readonly #clock: Pick<PollClock, 'sleep' | 'now'>;

  constructor(request: Transport, clock: Pick<PollClock, 'sleep' | 'now'>) {
    super(request);
    this.#clock = clock;
  }

  /**
   * Checks `context.repository` against the project's current revision (202). The check is
   * usually over when this resolves (`status: 'succeeded'`, with `report`).
   */
  async create(
    projectId: string,
    params: CreateConformanceCheckRequest | { context: { repository: RepositoryDigest } },
    options: RequestOptions = {},
  ): Promise<ConformanceCheck & { location: string }> {
    const path = checksPath(projectId);
    const response = await this.request<{ data: ConformanceCheck }>({
      ...options,
      method: 'POST',
      path,
      body: { context: { repository: params.context.repository } },
    });
    const { data } = response.body;
    return { ...data, location: response.headers.get('location') ?? `${path}/${data.id}` };
  }

  /** One check with its report. */
  async get(projectId: string, checkId: string, options: RequestOptions = {}) {
    const path = `${checksPath(projectId)}/${segment('checkId', checkId)}`;
    const { body } = await this.request<{ data: ConformanceCheck }>({
      ...options,
      method: 'GET',
      path,
    });
    return body.data;
  }

  /** The project's checks, latest first (at most 50), with their totals and without reports. */
  async list(projectId: string, options: RequestOptions = {}): Promise<ConformanceCheck[]> {
    const { body } = await this.request<{ data: ConformanceCheck[] }>({
      ...options,
      method: 'GET',
      path: checksPath(projectId),
    });
    return body.data;
  }

  /**
   * Reads the check until it is `succeeded` or `failed`, every `intervalMs`, at most
   * `maxWaitMs`; `options.signal` stops the wait, also while it sleeps.
   */
  async waitForCompletion(
    projectId: string,
    checkId: string,
    { intervalMs = 2_000, maxWaitMs = 300_000, ...options }: ConformanceWaitOptions = {},
  ): Promise<ConformanceCheck> {
    return untilSettled(() => this.get(projectId, checkId, options), this.#clock, {
      intervalMs,
      maxWaitMs,
      what: `The check ${checkId}`,
      signal: options.signal,
    });
  }
}
