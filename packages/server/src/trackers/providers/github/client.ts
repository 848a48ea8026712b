/**
 * A GitHub connection's {@link TrackerClient}: one repository's issues through Octokit.
 * `externalId` is the issue number (what every issue route takes); the numeric issue `id`
 * that the sub-issue and dependency routes want is looked up and kept per client.
 */
import type { ExternalIssue, IssueDraft, IssueState, TrackerClient } from '../provider.ts';
import { readMarker, TrackerRequestError } from '../provider.ts';
import type { GitHubIssue } from './issue.ts';
import { callOptions, type GitHubOctokit, toTrackerError } from './octokit.ts';
import { Relations } from './relations.ts';

export type { GitHubIssue } from './issue.ts';

/** The label every synced issue carries; findMarked lists by it. */
export const PGS_LABEL = 'pgs';
// GitHub matches label names without regard to case.
const OURS = /^(pgs|FR-\d+)$/i;

/** The ExternalIssue view of a GitHub issue. */
export function toExternal(issue: GitHubIssue): ExternalIssue {
  const marker = readMarker(issue.body);
  return {
    externalId: String(issue.number),
    key: `#${issue.number}`,
    url: issue.html_url,
    state: issue.state === 'closed' ? 'closed' : 'open',
    updatedAt: issue.updated_at,
    ...(marker ? { marker } : {}),
  };
}

function labelNames(issue: GitHubIssue): string[] {
  return issue.labels
    .map((l) => (typeof l === 'string' ? l : (l.name ?? '')))
    .filter((name) => name !== '');
}

function markerKey(body: string | null | undefined): string | undefined {
  const marker = readMarker(body);
  return marker ? `${marker.projectId} ${marker.itemId}` : undefined;
}

function issueNumber(externalId: string): number {
  if (!/^[1-9]\d{0,9}$/.test(externalId)) {
    throw new TrackerRequestError(`"${externalId}" is not a GitHub issue number`, {
      retryable: false,
    });
  }
  return Number(externalId);
}

/** The GitHub client of one connection (see {@link TrackerClient} for each method). */
export class GitHubClient implements TrackerClient {
  readonly #octokit: GitHubOctokit;
  readonly #repo: { owner: string; repo: string };
  readonly #relations: Relations;
  #labels: Set<string> | undefined;
  /** Issues this client created, by item (`<projectId> <itemId>`). */
  readonly #made = new Map<string, number>();
  /** Items whose create failed without knowing whether GitHub made the issue. */
  readonly #uncertain = new Set<string>();
  /** Comments made by a setState whose state change has not yet succeeded. */
  readonly #commented = new Set<string>();

  constructor(octokit: GitHubOctokit, target: { owner: string; repo: string }) {
    this.#octokit = octokit;
    this.#repo = { owner: target.owner, repo: target.repo };
    this.#relations = new Relations(octokit, this.#repo);
  }

  async verify(signal?: AbortSignal): Promise<Record<string, string>> {
    const name = `${this.#repo.owner}/${this.#repo.repo}`;
    const found = await this.#call(signal, () =>
      this.#octokit.rest.repos.get({ ...this.#repo, ...callOptions(signal) }),
    ).catch((error: unknown) => {
      if (error instanceof TrackerRequestError && error.status === 404) {
        throw new TrackerRequestError(
          `${error.reason}: the repository ${name} does not exist or the token cannot see it`,
          error.options,
        );
      }
      throw error;
    });
    const repo = found.data;
    const refuse = (reason: string) => {
      throw new TrackerRequestError(reason, { status: 403, retryable: false });
    };
    // A classic token says its scopes; a fine-grained one does not, and GitHub then refuses
    // the first write with its own message.
    const scopes = found.headers['x-oauth-scopes'];
    if (typeof scopes === 'string') {
      const granted = scopes.split(',').map((s) => s.trim());
      const enough = granted.includes('repo') || (!repo.private && granted.includes('public_repo'));
      if (!enough)
        refuse(
          `the token's scopes (${scopes || 'none'}) cannot write issues to ${name}: it needs "repo"`,
        );
    }
    if (repo.archived) refuse(`${name} is archived: its issues cannot be written`);
    if (!repo.has_issues) refuse(`${name} has issues turned off`);
    const can = repo.permissions;
    if (!can || !(can.push || can.maintain || can.admin)) {
      refuse(
        `the token cannot write issues to ${name} (it needs write access: Issues read and write)`,
      );
    }
    return { owner: repo.owner.login, repo: repo.name, repositoryId: String(repo.id) };
  }

  async findMarked(projectId: string, signal?: AbortSignal): Promise<ExternalIssue[]> {
    // Listing by label, not the search API: search is eventually consistent, and a listing
    // right after a crash mid-sync must see the issues just created.
    const issues = await this.#call(signal, () =>
      this.#octokit.paginate(this.#octokit.rest.issues.listForRepo, {
        ...this.#repo,
        labels: PGS_LABEL,
        state: 'all',
        per_page: 100,
        ...callOptions(signal),
      }),
    );
    return (issues as GitHubIssue[])
      .filter((issue) => !issue.pull_request)
      .map(toExternal)
      .filter((issue) => issue.marker?.projectId === projectId);
  }

  async get(externalId: string, signal?: AbortSignal): Promise<ExternalIssue> {
    return toExternal(await this.#issue(issueNumber(externalId), signal));
  }

  async create(draft: IssueDraft, signal?: AbortSignal): Promise<ExternalIssue> {
    // The engine retries a failed create as a whole: an issue this client already made for
    // the item (its parent or blocker failed after), or that GitHub may have made before a
    // lost answer, is found again and updated, never made twice.
    const item = markerKey(draft.body);
    const made = item ? (this.#made.get(item) ?? (await this.#recent(item, signal))) : undefined;
    if (made !== undefined) return this.update(String(made), draft, signal);
    await this.#ensureLabels(draft.labels, signal);
    const created = await this.#call(signal, () =>
      this.#octokit.rest.issues.create({
        ...this.#repo,
        title: draft.title,
        body: this.#relations.bodyWithFallbacks(draft),
        labels: draft.labels,
        ...callOptions(signal),
      }),
    ).catch((error: unknown) => {
      const unknownOutcome =
        error instanceof TrackerRequestError && (error.status === undefined || error.status >= 500);
      if (item && unknownOutcome) this.#uncertain.add(item);
      throw error;
    });
    const issue = created.data as GitHubIssue;
    if (item) this.#made.set(item, issue.number);
    return this.#relate(issue, draft, null, signal);
  }

  // After a create whose answer was lost: the newest pgs issues (one page) carrying the item's
  // marker. Only then, so a create costs no listing.
  async #recent(item: string, signal?: AbortSignal): Promise<number | undefined> {
    if (!this.#uncertain.has(item)) return undefined;
    const page = await this.#call(signal, () =>
      this.#octokit.rest.issues.listForRepo({
        ...this.#repo,
        labels: PGS_LABEL,
        state: 'all',
        sort: 'created',
        direction: 'desc',
        per_page: 30,
        ...callOptions(signal),
      }),
    );
    const found = (page.data as GitHubIssue[]).find(
      (issue) => !issue.pull_request && markerKey(issue.body) === item,
    );
    this.#uncertain.delete(item);
    if (found) this.#made.set(item, found.number);
    return found?.number;
  }

  async update(
    externalId: string,
    draft: IssueDraft,
    signal?: AbortSignal,
  ): Promise<ExternalIssue> {
    const current = await this.#issue(issueNumber(externalId), signal);
    await this.#ensureLabels(draft.labels, signal);
    // People's own labels stay; PGS's (pgs and FR IDs) follow the draft.
    const labels = [...labelNames(current).filter((name) => !OURS.test(name)), ...draft.labels];
    const updated = await this.#call(signal, () =>
      this.#octokit.rest.issues.update({
        ...this.#repo,
        issue_number: current.number,
        title: draft.title,
        body: this.#relations.bodyWithFallbacks(draft),
        labels,
        ...callOptions(signal),
      }),
    );
    return this.#relate(updated.data as GitHubIssue, draft, current.body ?? '', signal);
  }

  async setState(
    externalId: string,
    state: IssueState,
    comment: string | undefined,
    signal?: AbortSignal,
  ): Promise<ExternalIssue> {
    const issue_number = issueNumber(externalId);
    // A retry after the comment went in and the state change failed does not comment twice.
    const once = `${issue_number}\n${state}\n${comment}`;
    if (comment && !this.#commented.has(once)) {
      await this.#call(signal, () =>
        this.#octokit.rest.issues.createComment({
          ...this.#repo,
          issue_number,
          body: comment,
          ...callOptions(signal),
        }),
      );
      this.#commented.add(once);
    }
    const updated = await this.#call(signal, () =>
      this.#octokit.rest.issues.update({
        ...this.#repo,
        issue_number,
        state,
        ...callOptions(signal),
      }),
    );
    this.#commented.delete(once);
    return toExternal(updated.data as GitHubIssue);
  }

  /** Parent and blockers after the issue itself is written; re-read when they changed it. */
  async #relate(
    issue: GitHubIssue,
    draft: IssueDraft,
    previousBody: string | null,
    signal?: AbortSignal,
  ) {
    const changed = await this.#call(signal, () =>
      this.#relations.apply(issue, draft, previousBody, signal),
    );
    return toExternal(changed ? await this.#issue(issue.number, signal) : issue);
  }

  async #issue(issue_number: number, signal?: AbortSignal): Promise<GitHubIssue> {
    const found = await this.#call(signal, () =>
      this.#octokit.rest.issues.get({ ...this.#repo, issue_number, ...callOptions(signal) }),
    );
    return found.data as GitHubIssue;
  }

  // Creates the labels a draft names that the repository lacks, with a colour and a word on
  // what they are; one listing per client, then only what is new.
  async #ensureLabels(names: string[], signal?: AbortSignal) {
    if (!this.#labels) {
      const all = await this.#call(signal, () =>
        this.#octokit.paginate(this.#octokit.rest.issues.listLabelsForRepo, {
          ...this.#repo,
          per_page: 100,
          ...callOptions(signal),
        }),
      );
      this.#labels = new Set(all.map((label) => label.name.toLowerCase()));
    }
    for (const name of names) {
      if (this.#labels.has(name.toLowerCase())) continue;
      await this.#call(signal, () =>
        this.#octokit.rest.issues
          .createLabel({
            ...this.#repo,
            name,
            color: name === PGS_LABEL ? '5319e7' : '0e8a16',
            description:
              name === PGS_LABEL ? 'Kept in sync by PGS' : `PGS requirement ${name}`.slice(0, 100),
            ...callOptions(signal),
          })
          .catch((error: unknown) => {
            // Someone (or a concurrent sync) created it since the listing: that is the goal.
            const errors = (error as { response?: { data?: { errors?: { code?: string }[] } } })
              .response?.data?.errors;
            if (!errors?.some((e) => e.code === 'already_exists')) throw error;
          }),
      );
      this.#labels.add(name.toLowerCase());
    }
  }

  async #call<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toTrackerError(error, signal);
    }
  }
}
