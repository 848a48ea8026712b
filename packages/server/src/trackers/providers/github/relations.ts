/**
 * An issue's parent and blockers on GitHub: the sub-issues API for the parent (an FR group
 * holding its tasks) and the issue dependencies API for "blocked by". Both take the numeric
 * issue `id`, not the number. GitHub Enterprise Server releases before these APIs answer 404
 * to them: the relations are then written as lines at the end of the body, and a comment on
 * the issue says why, so nothing is silently dropped.
 */
import { readMarker } from '../provider.ts';
import type { GitHubIssue } from './issue.ts';
import { answered, callOptions, type GitHubOctokit } from './octokit.ts';

// Starts the body's relations section, so a re-sync rewrites it and never doubles it.
const SECTION = '<!-- pgs:relations -->';

type Outcome = 'unchanged' | 'changed' | 'unsupported';

/** Sets parents and blockers for one connection, remembering what its GitHub offers. */
export class Relations {
  readonly #octokit: GitHubOctokit;
  readonly #repo: { owner: string; repo: string };
  #subIssues: boolean | undefined;
  #dependencies: boolean | undefined;
  readonly #ids = new Map<number, number>();

  constructor(octokit: GitHubOctokit, repo: { owner: string; repo: string }) {
    this.#octokit = octokit;
    this.#repo = repo;
  }

  /** The draft's body, with the relations this GitHub cannot hold written out at its end. */
  bodyWithFallbacks(draft: { body: string; parent?: string; blockedBy: string[] }): string {
    const lines: string[] = [];
    if (draft.parent && this.#subIssues === false) lines.push(`Part of #${draft.parent}`);
    if (draft.blockedBy.length > 0 && this.#dependencies === false) {
      lines.push(`Blocked by ${draft.blockedBy.map((n) => `#${n}`).join(', ')}`);
    }
    return lines.length === 0 ? draft.body : `${draft.body}\n\n${SECTION}\n${lines.join('\n')}\n`;
  }

  /**
   * Makes the issue's parent and blockers those of the draft (leaving a parent alone when
   * the draft names none, and blockers PGS did not set). `previousBody` is the body before
   * this sync wrote it (null for a new issue). True when the issue changed on GitHub.
   */
  async apply(
    issue: GitHubIssue,
    draft: { body: string; parent?: string; blockedBy: string[] },
    previousBody: string | null,
    signal?: AbortSignal,
  ): Promise<boolean> {
    let changed = false;
    if (draft.parent && this.#subIssues !== false) {
      changed = (await this.#setParent(issue, Number(draft.parent), signal)) === 'changed';
    }
    if (this.#dependencies !== false) {
      const fresh = previousBody === null && draft.blockedBy.length === 0;
      if (!fresh) {
        changed =
          (await this.#setBlockers(issue, draft.blockedBy, signal)) === 'changed' || changed;
      }
    }
    const body = this.bodyWithFallbacks(draft);
    if (body !== (issue.body ?? '')) {
      await this.#octokit.rest.issues.update({
        ...this.#repo,
        issue_number: issue.number,
        body,
        ...callOptions(signal),
      });
      changed = true;
    }
    if (body.includes(SECTION) && !(previousBody ?? '').includes(SECTION)) {
      await this.#octokit.rest.issues.createComment({
        ...this.#repo,
        issue_number: issue.number,
        body:
          'This GitHub does not offer sub-issues or issue dependencies through its API ' +
          "(GitHub Enterprise Server before they were added), so PGS lists this issue's " +
          'parent and blockers at the end of its description.',
        ...callOptions(signal),
      });
      changed = true;
    }
    return changed;
  }

  async #setParent(child: GitHubIssue, parent: number, signal?: AbortSignal): Promise<Outcome> {
    // parent_issue_url, when GitHub sends it, saves a call; without it, replace_parent makes
    // the POST right whatever the current parent is.
    const current =
      'parent_issue_url' in child ? numberIn(child.parent_issue_url ?? null) : undefined;
    if (current === parent) return 'unchanged';
    try {
      await this.#octokit.rest.issues.addSubIssue({
        ...this.#repo,
        issue_number: parent,
        sub_issue_id: Number(child.id),
        ...(current !== null ? { replace_parent: true } : {}),
        ...callOptions(signal),
      });
      this.#subIssues = true;
      return 'changed';
    } catch (error) {
      if (answered(error, 422)) {
        // Already this parent's sub-issue (GitHub refuses duplicates): the goal is met.
        const now = await this.#octokit.rest.issues
          .getParent({ ...this.#repo, issue_number: child.number, ...callOptions(signal) })
          .catch(() => undefined);
        if (now?.data.number === parent) return 'unchanged';
      }
      if (answered(error, 404) && this.#subIssues !== true) {
        // The parent exists (this throws otherwise), so it is the route that is missing.
        await this.#octokit.rest.issues.get({
          ...this.#repo,
          issue_number: parent,
          ...callOptions(signal),
        });
        this.#subIssues = false;
        return 'unsupported';
      }
      throw error;
    }
  }

  async #setBlockers(issue: GitHubIssue, blockedBy: string[], signal?: AbortSignal) {
    const wanted = new Set(blockedBy.map(Number).filter((n) => n !== issue.number));
    let have: GitHubIssue[];
    try {
      have = (await this.#octokit.paginate(this.#octokit.rest.issues.listDependenciesBlockedBy, {
        ...this.#repo,
        issue_number: issue.number,
        per_page: 100,
        ...callOptions(signal),
      })) as GitHubIssue[];
      this.#dependencies = true;
    } catch (error) {
      // The issue was just written, so a 404 here is the route missing.
      if (!answered(error, 404) || this.#dependencies === true) throw error;
      this.#dependencies = false;
      return 'unsupported';
    }
    let outcome: Outcome = 'unchanged';
    const present = new Set(have.map((blocker) => blocker.number));
    for (const number of wanted) {
      if (present.has(number)) continue;
      await this.#octokit.rest.issues.addBlockedByDependency({
        ...this.#repo,
        issue_number: issue.number,
        issue_id: await this.#idOf(number, signal),
        ...callOptions(signal),
      });
      outcome = 'changed';
    }
    // Only blockers PGS set (marked issues) are taken off; people's own stay.
    for (const blocker of have) {
      if (wanted.has(blocker.number) || !readMarker(blocker.body)) continue;
      await this.#octokit.rest.issues.removeDependencyBlockedBy({
        ...this.#repo,
        issue_number: issue.number,
        issue_id: Number(blocker.id),
        ...callOptions(signal),
      });
      outcome = 'changed';
    }
    return outcome;
  }

  async #idOf(issue_number: number, signal?: AbortSignal): Promise<number> {
    const known = this.#ids.get(issue_number);
    if (known !== undefined) return known;
    const found = await this.#octokit.rest.issues.get({
      ...this.#repo,
      issue_number,
      ...callOptions(signal),
    });
    const id = Number(found.data.id);
    this.#ids.set(issue_number, id);
    return id;
  }
}

function numberIn(url: string | null): number | null {
  const found = url ? /\/issues\/(\d+)$/.exec(url) : null;
  return found ? Number(found[1]) : null;
}
