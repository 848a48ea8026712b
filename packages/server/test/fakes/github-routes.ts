/**
 * The GitHub REST routes the adapter uses, over the fake's state: repositories, issues
 * (listing with GitHub's filters and paging), labels, comments, sub-issues and issue
 * dependencies, each answering as GitHub does, errors included.
 */
import {
  type Answer,
  type GitHubState,
  notFound,
  paged,
  type StoredIssue,
  validationFailed,
  wireComment,
  wireIssue,
  wireLabel,
  wireRepo,
} from './github-wire.ts';

type Body = Record<string, unknown> | undefined;

/** Answers one authenticated request. */
export function routeGitHub(state: GitHubState, method: string, url: URL, body: Body): Answer {
  const path = url.pathname.replace(/\/+$/, '');
  const repoPath = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
  if (!repoPath) return notFound();
  const [, owner, repo, rest = ''] = repoPath;
  if (
    owner!.toLowerCase() !== state.owner.toLowerCase() ||
    repo!.toLowerCase() !== state.repo.toLowerCase()
  ) {
    return notFound();
  }
  if (rest === '' && method === 'GET') return { status: 200, body: wireRepo(state) };
  if (rest === '/issues' && method === 'GET') return listIssues(state, url);
  if (rest === '/issues' && method === 'POST') return createIssue(state, body);
  if (rest === '/labels' && method === 'GET') {
    return paged(
      state,
      url,
      [...state.labels.values()].map((l) => wireLabel(state, l)),
    );
  }
  if (rest === '/labels' && method === 'POST') return createLabel(state, body);
  const onIssue = /^\/issues\/(\d+)(\/.*)?$/.exec(rest);
  if (!onIssue) return notFound();
  const issue = state.issues.get(Number(onIssue[1]));
  if (!issue) return notFound();
  const sub = onIssue[2] ?? '';
  if (sub === '' && method === 'GET') return { status: 200, body: wireIssue(state, issue) };
  if (sub === '' && method === 'PATCH') return updateIssue(state, issue, body);
  if (sub === '/comments' && method === 'POST') return comment(state, issue, body);
  if (sub === '/comments' && method === 'GET') {
    return paged(
      state,
      url,
      issue.comments.map((c) => wireComment(state, issue, c)),
    );
  }
  if (state.subIssues) {
    if (sub === '/sub_issues' && method === 'POST') return addSubIssue(state, issue, body);
    if (sub === '/sub_issues' && method === 'GET') {
      const children = [...state.issues.values()].filter((i) => i.parent === issue.number);
      return paged(
        state,
        url,
        children.map((c) => wireIssue(state, c)),
      );
    }
    if (sub === '/sub_issue' && method === 'DELETE') return removeSubIssue(state, issue, body);
    if (sub === '/parent' && method === 'GET') {
      const parent = issue.parent ? state.issues.get(issue.parent) : undefined;
      return parent ? { status: 200, body: wireIssue(state, parent) } : notFound();
    }
  }
  if (state.dependencies) {
    if (sub === '/dependencies/blocked_by' && method === 'GET') {
      const blockers = issue.blockedBy.map((n) => state.issues.get(n)!);
      return paged(
        state,
        url,
        blockers.map((b) => wireIssue(state, b)),
      );
    }
    if (sub === '/dependencies/blocked_by' && method === 'POST') return block(state, issue, body);
    const unblock = /^\/dependencies\/blocked_by\/(\d+)$/.exec(sub);
    if (unblock && method === 'DELETE') {
      const blocker = byId(state, Number(unblock[1]));
      if (!blocker || !issue.blockedBy.includes(blocker.number)) return notFound();
      issue.blockedBy = issue.blockedBy.filter((n) => n !== blocker.number);
      touch(state, issue);
      return { status: 200, body: wireIssue(state, issue) };
    }
  }
  return notFound();
}

function touch(state: GitHubState, ...issues: StoredIssue[]) {
  for (const issue of issues) issue.updatedAt = state.now();
}

function byId(state: GitHubState, id: unknown): StoredIssue | undefined {
  return [...state.issues.values()].find((i) => i.id === id);
}

// GitHub's default: open issues, newest first; `labels` is a comma-separated list all of
// which an issue must carry.
function listIssues(state: GitHubState, url: URL): Answer {
  const wanted = (url.searchParams.get('labels') ?? '')
    .split(',')
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
  const which = url.searchParams.get('state') ?? 'open';
  const issues = [...state.issues.values()]
    .filter((i) => which === 'all' || i.state === which)
    .filter((i) => wanted.every((l) => i.labels.some((have) => have.toLowerCase() === l)))
    .sort((a, b) => b.number - a.number);
  return paged(
    state,
    url,
    issues.map((i) => wireIssue(state, i)),
  );
}

function labelsOf(state: GitHubState, names: unknown): string[] | undefined {
  if (names === undefined) return undefined;
  if (!Array.isArray(names)) return [];
  const out: string[] = [];
  for (const raw of names) {
    const name = typeof raw === 'string' ? raw : (raw as { name?: string })?.name;
    if (!name) continue;
    // GitHub creates a label an issue names that the repository lacks.
    const key = name.toLowerCase();
    if (!state.labels.has(key)) {
      state.seq.label += 1;
      state.labels.set(key, { id: state.seq.label, name, color: 'ededed', description: null });
    }
    if (!out.some((l) => l.toLowerCase() === key)) out.push(state.labels.get(key)!.name);
  }
  return out;
}

function createIssue(state: GitHubState, body: Body): Answer {
  if (typeof body?.title !== 'string' || body.title === '') {
    return validationFailed([{ resource: 'Issue', code: 'missing_field', field: 'title' }]);
  }
  state.seq.number += 1;
  state.seq.id += 7;
  const now = state.now();
  const issue: StoredIssue = {
    id: state.seq.id,
    number: state.seq.number,
    title: body.title,
    body: typeof body.body === 'string' ? body.body : null,
    state: 'open',
    stateReason: null,
    labels: labelsOf(state, body.labels) ?? [],
    blockedBy: [],
    comments: [],
    pullRequest: false,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  };
  state.issues.set(issue.number, issue);
  const api = `${state.base}/repos/${state.owner}/${state.repo}`;
  return {
    status: 201,
    body: wireIssue(state, issue),
    headers: { location: `${api}/issues/${issue.number}` },
  };
}

function updateIssue(state: GitHubState, issue: StoredIssue, body: Body): Answer {
  const wanted = body?.state;
  if (wanted !== undefined && wanted !== 'open' && wanted !== 'closed') {
    return validationFailed([{ resource: 'Issue', code: 'invalid', field: 'state' }]);
  }
  const reason = body?.state_reason;
  if (
    reason !== undefined &&
    reason !== null &&
    !['completed', 'not_planned', 'reopened'].includes(String(reason))
  ) {
    return validationFailed([{ resource: 'Issue', code: 'invalid', field: 'state_reason' }]);
  }
  if (typeof body?.title === 'string') issue.title = body.title;
  if (body && 'body' in body) issue.body = typeof body.body === 'string' ? body.body : null;
  const labels = labelsOf(state, body?.labels);
  if (labels) issue.labels = labels;
  if (wanted === 'closed' && issue.state === 'open') {
    issue.state = 'closed';
    issue.stateReason = (reason as StoredIssue['stateReason']) ?? 'completed';
    issue.closedAt = state.now();
  } else if (wanted === 'open' && issue.state === 'closed') {
    issue.state = 'open';
    issue.stateReason = 'reopened';
    issue.closedAt = null;
  }
  touch(state, issue);
  return { status: 200, body: wireIssue(state, issue) };
}

function comment(state: GitHubState, issue: StoredIssue, body: Body): Answer {
  if (typeof body?.body !== 'string' || body.body === '') {
    return validationFailed([{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
  }
  state.seq.comment += 1;
  const made = { id: state.seq.comment, body: body.body, createdAt: state.now() };
  issue.comments.push(made);
  touch(state, issue);
  return { status: 201, body: wireComment(state, issue, made) };
}

function createLabel(state: GitHubState, body: Body): Answer {
  const name = body?.name;
  if (typeof name !== 'string' || name === '') {
    return validationFailed([{ resource: 'Label', code: 'missing_field', field: 'name' }]);
  }
  if (state.labels.has(name.toLowerCase())) {
    return validationFailed([{ resource: 'Label', code: 'already_exists', field: 'name' }]);
  }
  const color = typeof body?.color === 'string' ? body.color.replace(/^#/, '') : 'ededed';
  if (!/^[0-9a-fA-F]{6}$/.test(color)) {
    return validationFailed([{ resource: 'Label', code: 'invalid', field: 'color' }]);
  }
  state.seq.label += 1;
  const label = {
    id: state.seq.label,
    name,
    color,
    description: typeof body?.description === 'string' ? body.description : null,
  };
  state.labels.set(name.toLowerCase(), label);
  return { status: 201, body: wireLabel(state, label) };
}

function addSubIssue(state: GitHubState, parent: StoredIssue, body: Body): Answer {
  const child = byId(state, body?.sub_issue_id);
  if (!child) return notFound();
  if (child.number === parent.number) {
    return validationFailed([
      { resource: 'Issue', code: 'custom', message: 'An issue cannot be its own sub-issue' },
    ]);
  }
  if (child.parent === parent.number) {
    return validationFailed([
      { resource: 'Issue', code: 'custom', message: 'Issue is already a sub-issue of this parent' },
    ]);
  }
  if (child.parent !== undefined && body?.replace_parent !== true) {
    return validationFailed([
      { resource: 'Issue', code: 'custom', message: 'Sub issue may only have one parent' },
    ]);
  }
  const previous = child.parent ? state.issues.get(child.parent) : undefined;
  child.parent = parent.number;
  touch(state, parent, child, ...(previous ? [previous] : []));
  return { status: 201, body: wireIssue(state, parent) };
}

function removeSubIssue(state: GitHubState, parent: StoredIssue, body: Body): Answer {
  const child = byId(state, body?.sub_issue_id);
  if (!child || child.parent !== parent.number) return notFound();
  delete child.parent;
  touch(state, parent, child);
  return { status: 200, body: wireIssue(state, parent) };
}

function block(state: GitHubState, issue: StoredIssue, body: Body): Answer {
  const blocker = byId(state, body?.issue_id);
  if (!blocker) return notFound();
  if (blocker.number === issue.number) {
    return validationFailed([
      { resource: 'Issue', code: 'custom', message: 'An issue cannot block itself' },
    ]);
  }
  if (issue.blockedBy.includes(blocker.number)) {
    return validationFailed([
      { resource: 'Issue', code: 'custom', message: 'Dependency already exists' },
    ]);
  }
  issue.blockedBy.push(blocker.number);
  touch(state, issue);
  return { status: 201, body: wireIssue(state, issue) };
}
