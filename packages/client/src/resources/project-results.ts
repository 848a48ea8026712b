import type { ProvenanceResponse, Trace, TraceResponse } from '@pgs/contract';
import type { RequestOptions, Transport } from '../core.ts';
import type { ArchiveOptions, Provenance, ResultReadOptions } from './project-params.ts';
import { APIResource, revisionNumber, segment } from './resource.ts';
import { ResultCache } from './result-cache.ts';

/** Splits the SDK's own `revision` off the options the transport takes. */
function pinned(options: ResultReadOptions): {
  query: { revision: number | undefined };
  rest: RequestOptions;
} {
  const { revision, ...rest } = options;
  return { query: { revision: revisionNumber(revision) }, rest };
}

/**
 * The reads of what a project produced: its documents, archive, trace and provenance, each
 * of the current revision or, with `{ revision: n }`, of revision n. `Projects` extends it.
 *
 * A read pinned to a revision answers only for a completed revision, which never changes:
 * its answer is kept in the client's memory and not asked for again. An unpinned read is
 * always asked for (the current revision moves when a revision completes).
 */
export abstract class ProjectResults extends APIResource {
  /** What the client remembers: finished statuses, ended revisions and pinned reads. */
  protected readonly cache: ResultCache;

  constructor(request: Transport, cache: ResultCache) {
    super(request);
    this.cache = cache;
  }

  /** `read()`, or its remembered answer when the read is pinned to revision `revision`. */
  protected async remembered<T>(
    projectId: string,
    revision: number | undefined,
    what: string,
    read: () => Promise<T>,
  ): Promise<T> {
    if (revision === undefined) return read();
    const key = `${ResultCache.revisionKey(projectId, revision)}#${what}`;
    const hit = this.cache.get<T>(key);
    if (hit !== undefined) return hit.value;
    const value = await read();
    this.cache.set(key, { value, etag: undefined, revision });
    return value;
  }
  /**
   * One document's markdown (`getProjectDocument`), by its `filename` in the status
   * (`PRODUCT_REQUIREMENTS.md`): available as soon as it is stored, while the project is
   * still in progress. A failed project is a `ConflictError` (`PROJECT_NOT_COMPLETED`),
   * not retried; an unknown filename a `NotFoundError`. `revision` reads it as revision n
   * left it.
   *
   * @example
   * const prd = await pgs.projects.document(projectId, 'PRODUCT_REQUIREMENTS.md');
   * const before = await pgs.projects.document(projectId, 'PRODUCT_REQUIREMENTS.md', { revision: 1 });
   */
  async document(
    projectId: string,
    filename: string,
    options: ResultReadOptions = {},
  ): Promise<string> {
    const path = `/projects/${segment('projectId', projectId)}/documents/${segment('filename', filename)}`;
    const { query, rest } = pinned(options);
    return this.remembered(projectId, query.revision, `document:${filename}`, async () => {
      const { body } = await this.request<string>({
        ...rest,
        method: 'GET',
        path,
        query,
        responseType: 'text',
        headers: { Accept: 'text/markdown', ...rest.headers },
      });
      return body;
    });
  }

  /**
   * A completed project as one zip (`getProjectArchive`): every document and
   * `project.json`, `trace.json` and `CHANGELOG.md` (its revisions), laid out for `layout`.
   * Resolves with the whole zip in memory (a few text files, tens of kilobytes). A project
   * not completed is a `ConflictError` (`PROJECT_NOT_COMPLETED`, `details.status`), not
   * retried. `revision` archives revision n with its history up to it.
   *
   * @example
   * const zip = await pgs.projects.archive(projectId, { layout: 'openspec' });
   * await writeFile('project.zip', zip);
   */
  async archive(projectId: string, options: ArchiveOptions = {}): Promise<Uint8Array> {
    const { layout, ...read } = options;
    const { query, rest } = pinned(read);
    const path = `/projects/${segment('projectId', projectId)}/archive`;
    return this.remembered(projectId, query.revision, `archive:${layout ?? 'plain'}`, async () => {
      const { body } = await this.request<Uint8Array>({
        ...rest,
        method: 'GET',
        path,
        query: { layout, ...query },
        responseType: 'bytes',
        headers: { Accept: 'application/zip', ...rest.headers },
      });
      return body;
    });
  }

  /**
   * A completed project's trace graph (`getProjectTrace`): the IDs its documents define
   * (`nodes`), the citations between them (`edges`), for each `FR-n` its acceptance criteria
   * and the stories, architecture components and plan tasks that reach it (`coverage`, with
   * `totals`), and what the deterministic checks found (`findings`, worst first; the rules
   * are in docs/trace.md). A project in progress or failed is a `ConflictError`
   * (`PROJECT_NOT_COMPLETED`, `details.status`), not retried; another key's project a
   * `NotFoundError`. `revision` reads revision n's graph. Retries, time-outs and `signal`
   * are those of every request.
   *
   * @example
   * const { coverage, findings } = await pgs.projects.trace(projectId);
   * for (const fr of coverage.requirements) if (fr.tasks.length === 0) console.log(`${fr.id} has no task`);
   * console.log(findings.filter((f) => f.severity === 'critical' || f.severity === 'high').length);
   */
  async trace(projectId: string, options: ResultReadOptions = {}): Promise<Trace> {
    const path = `/projects/${segment('projectId', projectId)}/trace`;
    const { query, rest } = pinned(options);
    return this.remembered(projectId, query.revision, 'trace', async () => {
      const { body } = await this.request<TraceResponse>({ ...rest, method: 'GET', path, query });
      return body.data;
    });
  }

  /**
   * How a project was generated (`getProjectProvenance`), in any state: for the definition
   * and each document stored so far, the `engine` that wrote it (`offline`, the built-in
   * engine, or `provider:model`), the prompt version, the tokens the provider reported, the
   * model calls (`attempts`) and `repairs`, and what the quality gate found in the first
   * answer (`initialFindings`) and still finds in the stored one (`findings`). Another key's
   * project is a `NotFoundError`. `revision` reads revision n's parts. Retries, time-outs
   * and `signal` are those of every request.
   *
   * @example
   * const { definition, documents } = await pgs.projects.provenance(projectId);
   * const parts = [...(definition ? [definition] : []), ...documents];
   * if (parts.every((part) => part.engine === 'offline')) console.log('written by the offline engine');
   */
  async provenance(projectId: string, options: ResultReadOptions = {}): Promise<Provenance> {
    const path = `/projects/${segment('projectId', projectId)}/provenance`;
    const { query, rest } = pinned(options);
    return this.remembered(projectId, query.revision, 'provenance', async () => {
      const { body } = await this.request<ProvenanceResponse>({
        ...rest,
        method: 'GET',
        path,
        query,
      });
      return body.data;
    });
  }
}
