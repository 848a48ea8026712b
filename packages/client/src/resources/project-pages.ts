import type { ProjectListResponse, ProjectSummary } from '@pgs/contract';

/** Fetches the page after a project (the first page for `undefined`). */
export type FetchPage = (startingAfter: string | undefined) => Promise<ProjectPage>;

/**
 * One page of `projects.list`: `data` (newest first) and `hasMore`. Iterating it with
 * `for await` yields its projects and then those of every following page, fetched as
 * needed.
 *
 * @example
 * let page = await pgs.projects.list({ limit: 50 });
 * while (page.hasMore) page = (await page.nextPage())!;
 */
export class ProjectPage implements AsyncIterable<ProjectSummary> {
  /** The projects of this page, newest first. */
  readonly data: ProjectSummary[];
  /** Whether more projects follow this page. */
  readonly hasMore: boolean;
  readonly #fetch: FetchPage;

  constructor(body: ProjectListResponse, fetch: FetchPage) {
    this.data = body.data;
    this.hasMore = body.has_more;
    this.#fetch = fetch;
  }

  /** The page after this one (same limit and filter), or `undefined` on the last page. */
  async nextPage(): Promise<ProjectPage | undefined> {
    const last = this.data.at(-1);
    if (!this.hasMore || last === undefined) return undefined;
    return this.#fetch(last.projectId);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ProjectSummary> {
    let page: ProjectPage | undefined = this;
    while (page !== undefined) {
      yield* page.data;
      page = await page.nextPage();
    }
  }
}

/**
 * What `projects.list` returns: await it for the first page, or iterate it with
 * `for await` for every project of every page. Nothing is requested until one of the two.
 *
 * @example
 * for await (const project of pgs.projects.list({ status: 'completed' })) console.log(project.name);
 */
export class ProjectPagePromise implements PromiseLike<ProjectPage>, AsyncIterable<ProjectSummary> {
  readonly #fetch: () => Promise<ProjectPage>;
  #first: Promise<ProjectPage> | undefined;

  constructor(fetchFirst: () => Promise<ProjectPage>) {
    this.#fetch = fetchFirst;
  }

  #page(): Promise<ProjectPage> {
    this.#first ??= this.#fetch();
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaitable by design, as a page promise.
  then<T = ProjectPage, E = never>(
    onfulfilled?: ((page: ProjectPage) => T | PromiseLike<T>) | null,
    onrejected?: ((reason: unknown) => E | PromiseLike<E>) | null,
  ): Promise<T | E> {
    return this.#page().then(onfulfilled, onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ProjectSummary> {
    yield* await this.#page();
  }
}
