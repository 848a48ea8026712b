/**
 * Jira Cloud's REST v3 shapes, as the fake Jira answers them: statuses with their category,
 * issue types with their hierarchy level, issues (ADF descriptions, `issuelinks`, `parent`),
 * the error body `{ errorMessages, errors }` and Jira's time format.
 */

/** A status and its fixed category (`new`, `indeterminate`, `done`). */
export interface FakeStatus {
  id: string;
  name: string;
  category: { id: number; key: 'new' | 'indeterminate' | 'done'; name: string; colorName: string };
  /** The transition that leads to it (Jira's simplified workflow: any status to any). */
  transitionId: string;
}

export const STATUSES: FakeStatus[] = [
  {
    id: '10000',
    name: 'To Do',
    category: { id: 2, key: 'new', name: 'To Do', colorName: 'blue-gray' },
    transitionId: '11',
  },
  {
    id: '10001',
    name: 'In Progress',
    category: { id: 4, key: 'indeterminate', name: 'In Progress', colorName: 'yellow' },
    transitionId: '21',
  },
  {
    id: '10002',
    name: 'Done',
    category: { id: 3, key: 'done', name: 'Done', colorName: 'green' },
    transitionId: '31',
  },
];

export interface FakeIssueType {
  id: string;
  name: string;
  hierarchyLevel: number;
  subtask: boolean;
}

/** Task, Sub-task and (unless the project has none) Epic, as a company-managed project has. */
export function issueTypes(epics: boolean): FakeIssueType[] {
  return [
    { id: '10001', name: 'Task', hierarchyLevel: 0, subtask: false },
    { id: '10002', name: 'Sub-task', hierarchyLevel: -1, subtask: true },
    ...(epics ? [{ id: '10000', name: 'Epic', hierarchyLevel: 1, subtask: false }] : []),
  ];
}

/** An issue as the fake stores it. */
export interface StoredIssue {
  id: string;
  key: string;
  typeId: string;
  summary: string;
  description: unknown;
  labels: string[];
  parentId?: string;
  statusId: string;
  previousStatusId?: string;
  comments: { id: string; body: unknown; created: string }[];
  created: Date;
  updated: Date;
}

/** A "Blocks" link: `blocker` blocks `blocked`. */
export interface StoredLink {
  id: string;
  blocker: string;
  blocked: string;
}

/** Jira's error body. */
export function jiraError(errorMessages: string[], errors: Record<string, string> = {}) {
  return { errorMessages, errors };
}

/** Jira's time format: milliseconds and an offset without a colon. */
export function jiraTimeText(date: Date): string {
  return date.toISOString().replace('Z', '+0000');
}

export const BLOCKS = {
  id: '10000',
  name: 'Blocks',
  inward: 'is blocked by',
  outward: 'blocks',
};

/** Shapes that need the site's address (every `self` is a URL). */
export function wire(base: string, projectKey: string, types: FakeIssueType[]) {
  const api = `${base}/rest/api/3`;
  const status = (id: string) => {
    const found = STATUSES.find((candidate) => candidate.id === id)!;
    return {
      self: `${api}/status/${found.id}`,
      description: '',
      iconUrl: `${base}/images/icons/statuses/generic.png`,
      name: found.name,
      id: found.id,
      statusCategory: { self: `${api}/statuscategory/${found.category.id}`, ...found.category },
    };
  };
  const issueType = (id: string) => {
    const type = types.find((candidate) => candidate.id === id)!;
    return {
      self: `${api}/issuetype/${type.id}`,
      id: type.id,
      description: '',
      iconUrl: `${base}/images/icons/issuetypes/${type.name.toLowerCase()}.svg`,
      name: type.name,
      untranslatedName: type.name,
      subtask: type.subtask,
      hierarchyLevel: type.hierarchyLevel,
    };
  };
  const project = {
    self: `${api}/project/10000`,
    id: '10000',
    key: projectKey,
    name: `${projectKey} project`,
    projectTypeKey: 'software' as const,
    simplified: false,
    style: 'classic' as const,
    isPrivate: false,
  };
  const summaryOf = (issue: StoredIssue) => ({
    id: issue.id,
    key: issue.key,
    self: `${api}/issue/${issue.id}`,
    fields: {
      summary: issue.summary,
      status: status(issue.statusId),
      issuetype: issueType(issue.typeId),
    },
  });
  return {
    status,
    issueType,
    project,
    summaryOf,
    user: (email: string) => ({
      self: `${api}/user?accountId=5b10ac8d82e05b22cc7d4ef5`,
      accountId: '5b10ac8d82e05b22cc7d4ef5',
      accountType: 'atlassian' as const,
      emailAddress: email,
      displayName: 'PGS Robot',
      active: true,
      timeZone: 'UTC',
      locale: 'en_US',
    }),
    /** An issue with every field PGS may ask for. */
    issue(issue: StoredIssue, issues: Map<string, StoredIssue>, links: StoredLink[]) {
      const parent = issue.parentId ? issues.get(issue.parentId) : undefined;
      const linkOf = (link: StoredLink) => ({
        id: link.id,
        self: `${api}/issueLink/${link.id}`,
        type: { ...BLOCKS, self: `${api}/issueLinkType/${BLOCKS.id}` },
        // Seen from the blocked issue, the blocker is the inward issue ("is blocked by").
        ...(link.blocked === issue.id
          ? { inwardIssue: summaryOf(issues.get(link.blocker)!) }
          : { outwardIssue: summaryOf(issues.get(link.blocked)!) }),
      });
      return {
        expand:
          'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations',
        id: issue.id,
        self: `${api}/issue/${issue.id}`,
        key: issue.key,
        fields: {
          summary: issue.summary,
          description: issue.description ?? null,
          labels: issue.labels,
          status: status(issue.statusId),
          issuetype: issueType(issue.typeId),
          project,
          ...(parent ? { parent: summaryOf(parent) } : {}),
          issuelinks: links
            .filter((link) => link.blocked === issue.id || link.blocker === issue.id)
            .map(linkOf),
          created: jiraTimeText(issue.created),
          updated: jiraTimeText(issue.updated),
        },
      };
    },
  };
}

/** The plain text of an ADF document, block by block (the fake's own reading, for tests). */
export function adfText(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const { type, text, content } = node as { type?: unknown; text?: unknown; content?: unknown };
  if (typeof text === 'string') return text;
  if (type === 'hardBreak') return '\n';
  if (!Array.isArray(content)) return '';
  const inline = content.every((child) => {
    const { type: kind, text: leaf } = (child ?? {}) as { type?: unknown; text?: unknown };
    return typeof leaf === 'string' || kind === 'hardBreak';
  });
  return content.map(adfText).join(inline ? '' : '\n');
}
