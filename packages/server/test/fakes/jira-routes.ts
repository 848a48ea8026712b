/**
 * The fake Jira's REST v3 routes: what each answers, and how Jira refuses bad input (400 with
 * `errors` per field, 404 with `errorMessages`). Only the routes the adapter uses.
 */
import type { JiraState } from './jira.ts';
import { BLOCKS, jiraError, STATUSES, type StoredIssue } from './jira-wire.ts';

type Answer = { status: number; body?: unknown };
type Body = Record<string, unknown> | undefined;

const ISSUE = /^\/rest\/api\/3\/issue\/([^/]+)$/;
const TRANSITIONS = /^\/rest\/api\/3\/issue\/([^/]+)\/transitions$/;
const COMMENT = /^\/rest\/api\/3\/issue\/([^/]+)\/comment$/;
const PROJECT = /^\/rest\/api\/3\/project\/([^/]+)$/;
const LINK = /^\/rest\/api\/3\/issueLink\/([^/]+)$/;
const JQL =
  /^project\s*=\s*"?([A-Z][A-Z0-9_]*)"?\s+AND\s+labels\s*=\s*"?([^\s"]+)"?(?:\s+ORDER BY created (ASC|DESC))?$/i;

/** Answers one authenticated request. */
export function routeJira(state: JiraState, method: string, url: URL, raw: unknown): Answer {
  const body = (raw && typeof raw === 'object' ? raw : undefined) as Body;
  const path = url.pathname;
  const route = `${method} ${path}`;
  const projectKey = method === 'GET' ? PROJECT.exec(path)?.[1] : undefined;
  const linkId = method === 'DELETE' ? LINK.exec(path)?.[1] : undefined;
  if (route === 'GET /rest/api/3/myself')
    return { status: 200, body: state.wire.user(state.email) };
  if (projectKey) return project(state, projectKey);
  if (route === 'GET /rest/api/3/mypermissions') return permissions(state, url);
  if (route === 'POST /rest/api/3/issue') return createIssue(state, body);
  if (route === 'GET /rest/api/3/search/jql') return search(state, url);
  if (route === 'POST /rest/api/3/issueLink') return link(state, body);
  if (linkId) {
    const index = state.links.findIndex((candidate) => candidate.id === linkId);
    if (index < 0) return { status: 404, body: jiraError(['No issue link with id exists.']) };
    state.links.splice(index, 1);
    return { status: 204 };
  }
  for (const [pattern, handlers] of [
    [ISSUE, { GET: getIssue, PUT: editIssue }],
    [TRANSITIONS, { GET: transitions, POST: transition }],
    [COMMENT, { POST: comment }],
  ] as const) {
    const match = pattern.exec(path);
    const handler = match && (handlers as Record<string, IssueHandler>)[method];
    if (!match || !handler) continue;
    const issue = find(state, decodeURIComponent(match[1]!));
    if (!issue) {
      return {
        status: 404,
        body: jiraError(['Issue does not exist or you do not have permission to see it.']),
      };
    }
    return handler(state, issue, body, url);
  }
  return { status: 404, body: jiraError([`The fake Jira does not serve ${route}`]) };
}

type IssueHandler = (state: JiraState, issue: StoredIssue, body: Body, url: URL) => Answer;

function find(state: JiraState, idOrKey: string): StoredIssue | undefined {
  return (
    state.issues.get(idOrKey) ?? [...state.issues.values()].find((issue) => issue.key === idOrKey)
  );
}

function project(state: JiraState, key: string): Answer {
  if (key !== state.projectKey && key !== state.wire.project.id) {
    return { status: 404, body: jiraError([`No project could be found with key '${key}'.`]) };
  }
  return {
    status: 200,
    body: {
      ...state.wire.project,
      issueTypes: state.types.map((type) => state.wire.issueType(type.id)),
    },
  };
}

function permissions(state: JiraState, query: URL): Answer {
  const wanted = query.searchParams.get('permissions');
  if (!wanted) {
    return { status: 400, body: jiraError(['The permissions query parameter is required.']) };
  }
  const key = query.searchParams.get('projectKey');
  if (key && key !== state.projectKey) {
    return { status: 404, body: jiraError([`No project could be found with key '${key}'.`]) };
  }
  const all: Record<string, object> = {};
  for (const name of wanted.split(',')) {
    all[name] = {
      id: name === 'CREATE_ISSUES' ? '11' : '0',
      key: name,
      name: name === 'CREATE_ISSUES' ? 'Create Issues' : name,
      type: 'PROJECT',
      description: '',
      havePermission: name === 'CREATE_ISSUES' ? state.canCreate : true,
    };
  }
  return { status: 200, body: { permissions: all } };
}

/** Checks the fields Jira checks; returns the 400 answer, or undefined when they are good. */
function invalidFields(
  state: JiraState,
  fields: Record<string, unknown>,
  typeId: string,
  creating: boolean,
) {
  const errors: Record<string, string> = {};
  const { summary, description, labels, parent } = fields;
  if (creating || 'summary' in fields) {
    if (typeof summary !== 'string' || !summary.trim())
      errors.summary = 'You must specify a summary of the issue.';
    else if (summary.length > 255) errors.summary = 'Summary must be less than 255 characters.';
  }
  if (description !== undefined && description !== null) {
    const doc = description as { type?: unknown; version?: unknown; content?: unknown };
    if (doc.type !== 'doc' || doc.version !== 1 || !Array.isArray(doc.content)) {
      errors.description =
        'Operation value must be an Atlassian Document (see the Atlassian Document Format)';
    }
  }
  if (labels !== undefined) {
    const bad = Array.isArray(labels)
      ? labels.find((label) => typeof label !== 'string' || /\s/.test(label))
      : labels;
    if (bad !== undefined)
      errors.labels = `The label '${String(bad)}' contains spaces which is invalid.`;
  }
  const type = state.types.find((candidate) => candidate.id === typeId)!;
  if (parent !== undefined && parent !== null) {
    const { id, key } = parent as { id?: string; key?: string };
    const target = find(state, id ?? key ?? '');
    const level =
      target && state.types.find((candidate) => candidate.id === target.typeId)!.hierarchyLevel;
    if (!target) errors.parent = 'Could not find issue by id or key.';
    else if (level !== type.hierarchyLevel + 1) {
      errors.parent = 'Given parent work item does not belong to appropriate hierarchy.';
    }
  } else if (creating && type.subtask) {
    errors.parent = 'Parent-id is required for sub-task.';
  }
  return Object.keys(errors).length > 0 ? { status: 400, body: jiraError([], errors) } : undefined;
}

function createIssue(state: JiraState, body: Body): Answer {
  const fields = (body?.fields ?? {}) as Record<string, unknown>;
  const project = fields.project as { id?: string; key?: string } | undefined;
  if (project?.id !== state.wire.project.id && project?.key !== state.projectKey) {
    return { status: 400, body: jiraError([], { project: 'valid project is required' }) };
  }
  if (!state.canCreate) {
    return {
      status: 400,
      body: jiraError([], {
        project: 'You do not have permission to create issues in this project.',
      }),
    };
  }
  const type = fields.issuetype as { id?: string } | undefined;
  if (!state.types.some((candidate) => candidate.id === type?.id)) {
    return { status: 400, body: jiraError([], { issuetype: 'Specify a valid issue type' }) };
  }
  const invalid = invalidFields(state, fields, type!.id!, true);
  if (invalid) return invalid;
  state.seq.issue += 1;
  state.seq.key += 1;
  const now = state.now();
  const parent = fields.parent as { id?: string; key?: string } | undefined;
  const issue: StoredIssue = {
    id: String(state.seq.issue),
    key: `${state.projectKey}-${state.seq.key}`,
    typeId: type!.id!,
    summary: fields.summary as string,
    description: fields.description ?? null,
    labels: (fields.labels as string[] | undefined) ?? [],
    ...(parent ? { parentId: find(state, parent.id ?? parent.key ?? '')!.id } : {}),
    statusId: STATUSES[0]!.id,
    comments: [],
    created: now,
    updated: now,
  };
  state.issues.set(issue.id, issue);
  return {
    status: 201,
    body: { id: issue.id, key: issue.key, self: `${state.base}/rest/api/3/issue/${issue.id}` },
  };
}

function getIssue(state: JiraState, issue: StoredIssue, _body: Body, query: URL): Answer {
  const full = state.wire.issue(issue, state.issues, state.links);
  const wanted = query.searchParams.getAll('fields').flatMap((value) => value.split(','));
  if (wanted.length === 0 || wanted.includes('*all')) return { status: 200, body: full };
  const fields = Object.fromEntries(
    Object.entries(full.fields).filter(([name]) => wanted.includes(name)),
  );
  return { status: 200, body: { ...full, fields } };
}

function editIssue(state: JiraState, issue: StoredIssue, body: Body): Answer {
  const fields = (body?.fields ?? {}) as Record<string, unknown>;
  const invalid = invalidFields(state, fields, issue.typeId, false);
  if (invalid) return invalid;
  const update = (body?.update ?? {}) as { parent?: { set?: { none?: boolean } }[] };
  if (typeof fields.summary === 'string') issue.summary = fields.summary;
  if ('description' in fields) issue.description = fields.description ?? null;
  if (Array.isArray(fields.labels)) issue.labels = fields.labels as string[];
  const parent = fields.parent as { id?: string; key?: string } | undefined;
  if (parent) issue.parentId = find(state, parent.id ?? parent.key ?? '')!.id;
  if (update.parent?.some((operation) => operation.set?.none)) delete issue.parentId;
  issue.updated = state.now();
  return { status: 204 };
}

function transitions(state: JiraState, issue: StoredIssue): Answer {
  const available = STATUSES.filter((status) => status.id !== issue.statusId).map((status) => ({
    id: status.transitionId,
    name: status.name,
    to: state.wire.status(status.id),
    hasScreen: false,
    isGlobal: true,
    isInitial: false,
    isAvailable: true,
    isConditional: false,
    isLooped: false,
  }));
  return { status: 200, body: { expand: 'transitions', transitions: available } };
}

function transition(state: JiraState, issue: StoredIssue, body: Body): Answer {
  const id = (body?.transition as { id?: string } | undefined)?.id;
  const status = STATUSES.find((candidate) => candidate.transitionId === id);
  if (!status || status.id === issue.statusId) {
    return { status: 400, body: jiraError([`Transition id '${id}' is not valid for this issue.`]) };
  }
  issue.previousStatusId = issue.statusId;
  issue.statusId = status.id;
  issue.updated = state.now();
  return { status: 204 };
}

function comment(state: JiraState, issue: StoredIssue, body: Body): Answer {
  const doc = body?.body as { type?: unknown } | undefined;
  if (doc?.type !== 'doc') {
    return { status: 400, body: jiraError([], { comment: 'Comment body can not be empty!' }) };
  }
  state.seq.comment += 1;
  const now = state.now();
  issue.comments.push({ id: String(state.seq.comment), body: doc, created: now.toISOString() });
  issue.updated = now;
  const author = state.wire.user(state.email);
  const stamp = now.toISOString().replace('Z', '+0000');
  return {
    status: 201,
    body: {
      self: `${state.base}/rest/api/3/issue/${issue.id}/comment/${state.seq.comment}`,
      id: String(state.seq.comment),
      author,
      body: doc,
      updateAuthor: author,
      created: stamp,
      updated: stamp,
      jsdPublic: true,
    },
  };
}

function search(state: JiraState, query: URL): Answer {
  const jql = query.searchParams.get('jql') ?? '';
  const match = JQL.exec(jql.trim());
  if (!match) {
    return {
      status: 400,
      body: jiraError([`Error in the JQL Query: the fake Jira cannot read '${jql}'.`]),
    };
  }
  const [, key, label, order] = match;
  const all = [...state.issues.values()].filter(
    (issue) => key === state.projectKey && issue.labels.includes(label!),
  );
  if (order?.toUpperCase() === 'DESC') all.reverse();
  const token = query.searchParams.get('nextPageToken');
  const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(start) || start < 0) {
    return {
      status: 400,
      body: jiraError(['The provided next page token is invalid or expired.']),
    };
  }
  const size = Math.min(Number(query.searchParams.get('maxResults') ?? 50) || 50, state.pageSize);
  const page = all.slice(start, start + size);
  const end = start + page.length;
  const wanted = query.searchParams.getAll('fields').flatMap((value) => value.split(','));
  const issues = page.map((issue) => {
    const full = state.wire.issue(issue, state.issues, state.links);
    // The enhanced search answers ids only unless fields are asked for.
    const fields = Object.fromEntries(
      Object.entries(full.fields).filter(([name]) => wanted.includes(name)),
    );
    return { ...full, fields };
  });
  const isLast = end >= all.length;
  return {
    status: 200,
    body: {
      issues,
      isLast,
      ...(isLast ? {} : { nextPageToken: Buffer.from(String(end)).toString('base64url') }),
    },
  };
}

function link(state: JiraState, body: Body): Answer {
  const type = body?.type as { name?: string; id?: string } | undefined;
  if (type?.name !== BLOCKS.name && type?.id !== BLOCKS.id) {
    return {
      status: 404,
      body: jiraError([`No issue link type with name '${type?.name}' found.`]),
    };
  }
  const idOf = (side: unknown) => {
    const { id, key } = (side ?? {}) as { id?: string; key?: string };
    return find(state, id ?? key ?? '')?.id;
  };
  const blocker = idOf(body?.inwardIssue);
  const blocked = idOf(body?.outwardIssue);
  if (!blocker || !blocked) {
    return {
      status: 404,
      body: jiraError(['Issue does not exist or you do not have permission to see it.']),
    };
  }
  const exists = state.links.some((l) => l.blocker === blocker && l.blocked === blocked);
  if (!exists) {
    state.seq.link += 1;
    state.links.push({ id: String(state.seq.link), blocker, blocked });
    for (const id of [blocker, blocked]) state.issues.get(id)!.updated = state.now();
  }
  return { status: 201 };
}
