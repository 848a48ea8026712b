/**
 * The fake GitHub's state and the JSON it answers with, in GitHub's REST shapes (issues,
 * labels, comments, repositories, error bodies, Link headers), so Octokit reads them as it
 * reads GitHub's.
 */

/** An issue (or a pull request, which GitHub's issue listing includes) as the fake holds it. */
export interface StoredIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  labels: string[];
  parent?: number;
  /** Numbers of the issues blocking this one. */
  blockedBy: number[];
  comments: Array<{ id: number; body: string; createdAt: Date }>;
  pullRequest: boolean;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

export interface StoredLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

/** What the routes read and change. */
export interface GitHubState {
  base: string;
  owner: string;
  repo: string;
  repoId: number;
  token: string;
  permissions: { admin: boolean; maintain: boolean; push: boolean; triage: boolean; pull: boolean };
  /** The `x-oauth-scopes` header (a classic token); null for a fine-grained token. */
  scopes: string | null;
  subIssues: boolean;
  /** Whether issues carry `parent_issue_url` (GitHub has not always sent it). */
  parentUrls: boolean;
  dependencies: boolean;
  maxPerPage: number;
  now: () => Date;
  issues: Map<number, StoredIssue>;
  labels: Map<string, StoredLabel>;
  seq: { number: number; id: number; label: number; comment: number };
}

/** An answer of the routes. */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const DOCS = 'https://docs.github.com/rest';

/** GitHub's timestamps: ISO 8601 to the second, in UTC. */
export function stamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** GitHub's error body. */
export function githubError(status: number, message: string, extra: object = {}): Answer {
  return {
    status,
    body: { message, documentation_url: DOCS, status: String(status), ...extra },
  };
}

/** 422 as GitHub sends it for a request it understood and refused. */
export function validationFailed(errors: object[]): Answer {
  return githubError(422, 'Validation Failed', { errors });
}

export const notFound = (): Answer => githubError(404, 'Not Found');

const user = (base: string, login: string, id: number) => ({
  login,
  id,
  node_id: `U_${id}`,
  avatar_url: `${base}/avatars/${login}`,
  url: `${base}/users/${login}`,
  html_url: `${base}/${login}`,
  type: 'User',
  site_admin: false,
});

/** The repository as `GET /repos/{owner}/{repo}` answers it. */
export function wireRepo(state: GitHubState) {
  const full = `${state.owner}/${state.repo}`;
  return {
    id: state.repoId,
    node_id: `R_${state.repoId}`,
    name: state.repo,
    full_name: full,
    private: true,
    owner: user(state.base, state.owner, 1),
    html_url: `${state.base}/${full}`,
    url: `${state.base}/repos/${full}`,
    has_issues: true,
    archived: false,
    disabled: false,
    visibility: 'private',
    default_branch: 'main',
    open_issues_count: [...state.issues.values()].filter((i) => i.state === 'open').length,
    permissions: { ...state.permissions },
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
  };
}

/** A label as GitHub answers it. */
export function wireLabel(state: GitHubState, label: StoredLabel) {
  return {
    id: label.id,
    node_id: `LA_${label.id}`,
    url: `${state.base}/repos/${state.owner}/${state.repo}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    default: false,
    description: label.description,
  };
}

/** An issue as GitHub answers it, pull requests with their `pull_request` field. */
export function wireIssue(state: GitHubState, issue: StoredIssue) {
  const api = `${state.base}/repos/${state.owner}/${state.repo}`;
  const children = [...state.issues.values()].filter((i) => i.parent === issue.number);
  const blocking = [...state.issues.values()].filter((i) => i.blockedBy.includes(issue.number));
  return {
    id: issue.id,
    node_id: `I_${issue.id}`,
    url: `${api}/issues/${issue.number}`,
    repository_url: api,
    labels_url: `${api}/issues/${issue.number}/labels{/name}`,
    comments_url: `${api}/issues/${issue.number}/comments`,
    events_url: `${api}/issues/${issue.number}/events`,
    html_url: `${state.base}/${state.owner}/${state.repo}/${issue.pullRequest ? 'pull' : 'issues'}/${issue.number}`,
    number: issue.number,
    state: issue.state,
    state_reason: issue.stateReason,
    title: issue.title,
    body: issue.body,
    user: user(state.base, state.owner, 1),
    labels: issue.labels.map((name) => {
      const label = state.labels.get(name.toLowerCase());
      return label ? wireLabel(state, label) : { name };
    }),
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: issue.comments.length,
    closed_at: issue.closedAt ? stamp(issue.closedAt) : null,
    created_at: stamp(issue.createdAt),
    updated_at: stamp(issue.updatedAt),
    author_association: 'OWNER',
    ...(issue.pullRequest
      ? {
          pull_request: {
            url: `${api}/pulls/${issue.number}`,
            html_url: `${state.base}/${state.owner}/${state.repo}/pull/${issue.number}`,
            diff_url: null,
            patch_url: null,
            merged_at: null,
          },
        }
      : {}),
    ...(state.subIssues
      ? {
          ...(state.parentUrls
            ? { parent_issue_url: issue.parent ? `${api}/issues/${issue.parent}` : null }
            : {}),
          sub_issues_summary: {
            total: children.length,
            completed: children.filter((c) => c.state === 'closed').length,
            percent_completed: children.length
              ? Math.round(
                  (100 * children.filter((c) => c.state === 'closed').length) / children.length,
                )
              : 0,
          },
        }
      : {}),
    ...(state.dependencies
      ? {
          issue_dependencies_summary: {
            blocked_by: issue.blockedBy.filter((n) => state.issues.get(n)?.state === 'open').length,
            total_blocked_by: issue.blockedBy.length,
            blocking: blocking.filter((i) => i.state === 'open').length,
            total_blocking: blocking.length,
          },
        }
      : {}),
  };
}

/** A comment as GitHub answers it. */
export function wireComment(
  state: GitHubState,
  issue: StoredIssue,
  comment: StoredIssue['comments'][number],
) {
  const api = `${state.base}/repos/${state.owner}/${state.repo}`;
  return {
    id: comment.id,
    node_id: `IC_${comment.id}`,
    url: `${api}/issues/comments/${comment.id}`,
    html_url: `${state.base}/${state.owner}/${state.repo}/issues/${issue.number}#issuecomment-${comment.id}`,
    issue_url: `${api}/issues/${issue.number}`,
    body: comment.body,
    user: user(state.base, state.owner, 1),
    created_at: stamp(comment.createdAt),
    updated_at: stamp(comment.createdAt),
    author_association: 'OWNER',
  };
}

/**
 * One page of a listing as GitHub pages it: `per_page` (default 30, at most the fake's
 * maximum) and `page`, and a Link header with next, last, first and prev as they apply.
 */
export function paged<T>(state: GitHubState, url: URL, all: T[]): Answer {
  const perPage = Math.min(
    Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30),
    state.maxPerPage,
  );
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (n: number, rel: string) => {
    const target = new URL(url.toString());
    target.searchParams.set('per_page', String(perPage));
    target.searchParams.set('page', String(n));
    return `<${target.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : []),
  ];
  return {
    status: 200,
    body: all.slice((page - 1) * perPage, page * perPage),
    headers: links.length > 0 ? { link: links.join(', ') } : {},
  };
}
