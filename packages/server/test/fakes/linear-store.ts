/**
 * The fake Linear workspace's state and the GraphQL root fields `@linear/sdk` asks for:
 * one visible team with Linear's default workflow states, labels, issues with parents,
 * "blocks" relations and comments. Shapes follow Linear's schema; ids are UUIDs.
 */
import { randomUUID } from 'node:crypto';
import { connection, LinearGraphQLError, matches, type Resolved } from './linear-graphql.ts';

export interface StoredIssue {
  id: string;
  number: number;
  title: string;
  description: string;
  stateId: string;
  labelIds: string[];
  parentId: string | null;
  comments: string[];
  createdAt: string;
  updatedAt: string;
}

interface Relation {
  id: string;
  type: string;
  issueId: string;
  relatedIssueId: string;
}

const DEFAULT_STATES: [string, string][] = [
  ['Backlog', 'backlog'],
  ['Todo', 'unstarted'],
  ['In Progress', 'started'],
  ['Done', 'completed'],
  ['Canceled', 'canceled'],
];

function invalidInput(message: string): LinearGraphQLError {
  return new LinearGraphQLError(`Argument Validation Error - ${message}`, {
    type: 'invalid input',
    code: 'INVALID_INPUT',
    statusCode: 400,
    userError: true,
    userPresentableMessage: message,
  });
}

/** A workspace with one team the key can see (and one it cannot). */
export class LinearStore {
  readonly organization = { id: randomUUID(), urlKey: 'pgs-fake', name: 'PGS Fake' };
  readonly viewer = { id: randomUUID(), name: 'PGS Bot', email: 'bot@pgs.example' };
  readonly team: { id: string; key: string; name: string };
  readonly states: { id: string; name: string; type: string; position: number }[];
  readonly labels: { id: string; name: string; teamId: string | null }[] = [];
  readonly issues: StoredIssue[] = [];
  readonly relations: Relation[] = [];
  /** Largest page the fake serves (Linear's is 250; tests lower it to see pages). */
  pageSize = 250;
  #lastSyncId = 1000;

  private readonly now: () => Date;

  constructor(now: () => Date, teamKey: string) {
    this.now = now;
    this.team = { id: randomUUID(), key: teamKey, name: 'Engineering' };
    this.states = DEFAULT_STATES.map(([name, type], position) => ({
      id: randomUUID(),
      name,
      type,
      position,
    }));
    // A workspace label, to show that labels are found beyond the team's own.
    this.labels.push({ id: randomUUID(), name: 'Bug', teamId: null });
  }

  identifier(issue: StoredIssue): string {
    return `${this.team.key}-${issue.number}`;
  }

  url(issue: StoredIssue): string {
    return `https://linear.app/${this.organization.urlKey}/issue/${this.identifier(issue)}`;
  }

  stateOf(issue: StoredIssue) {
    const state = this.states.find((one) => one.id === issue.stateId);
    if (!state) throw new Error(`fake Linear: issue ${issue.id} has no state`);
    return state;
  }

  find(idOrIdentifier: unknown): StoredIssue {
    const issue = this.issues.find(
      (one) => one.id === idOrIdentifier || this.identifier(one) === idOrIdentifier,
    );
    if (!issue) {
      throw new LinearGraphQLError('Entity not found: Issue - Could not find referenced Issue.', {
        type: 'invalid input',
        code: 'INVALID_INPUT',
        statusCode: 400,
        userError: true,
        userPresentableMessage: 'Could not find referenced Issue.',
      });
    }
    return issue;
  }

  /** Adds an issue as Linear would on issueCreate (or as a person would, for seeding). */
  add(input: {
    title: string;
    description?: string;
    stateId?: string;
    labelIds?: string[];
    parentId?: string | null;
  }): StoredIssue {
    const at = this.now().toISOString();
    const issue: StoredIssue = {
      id: randomUUID(),
      number: this.issues.length + 1,
      title: input.title,
      description: input.description ?? '',
      stateId: input.stateId ?? this.states[0]!.id,
      labelIds: input.labelIds ?? [],
      parentId: input.parentId ?? null,
      comments: [],
      createdAt: at,
      updatedAt: at,
    };
    this.issues.push(issue);
    return issue;
  }

  teamView(): Resolved {
    return {
      __typename: 'Team',
      ...this.team,
      private: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
  }

  stateView(state: (typeof this.states)[number]): Resolved {
    return {
      __typename: 'WorkflowState',
      ...state,
      color: '#888888',
      team: { id: this.team.id, key: this.team.key },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
  }

  labelView(label: (typeof this.labels)[number]): Resolved {
    return {
      __typename: 'IssueLabel',
      id: label.id,
      name: label.name,
      color: '#5e6ad2',
      isGroup: false,
      team: label.teamId ? { id: label.teamId, key: this.team.key } : null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
  }

  relationView(relation: Relation): Resolved {
    return {
      __typename: 'IssueRelation',
      id: relation.id,
      type: relation.type,
      issue: { id: relation.issueId },
      relatedIssue: { id: relation.relatedIssueId },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
  }

  issueView(issue: StoredIssue): Resolved {
    const state = this.stateOf(issue);
    return {
      __typename: 'Issue',
      id: issue.id,
      number: issue.number,
      identifier: this.identifier(issue),
      url: this.url(issue),
      title: issue.title,
      description: issue.description,
      priority: 0,
      priorityLabel: 'No priority',
      labelIds: issue.labelIds,
      previousIdentifiers: [],
      reactionData: [],
      customerTicketCount: 0,
      sortOrder: issue.number,
      prioritySortOrder: 0,
      boardOrder: 0,
      branchName: `eng-${issue.number}`,
      createdAt: issue.createdAt,
      updatedAt: issue.updatedAt,
      completedAt: state.type === 'completed' ? issue.updatedAt : null,
      canceledAt: state.type === 'canceled' ? issue.updatedAt : null,
      state: { id: state.id },
      team: { id: this.team.id },
      parent: issue.parentId ? { id: issue.parentId } : null,
      inverseRelations: (args) =>
        connection(
          this.relations.filter((one) => one.relatedIssueId === issue.id),
          args,
          (one) => this.relationView(one),
          this.pageSize,
        ),
      comments: (args) =>
        connection(
          issue.comments.map((body, index) => ({
            __typename: 'Comment',
            id: `${issue.id.slice(0, 24)}${String(index).padStart(12, '0')}`,
            body,
            issue: { id: issue.id },
            createdAt: issue.updatedAt,
            updatedAt: issue.updatedAt,
          })),
          args,
          (comment) => comment,
          this.pageSize,
        ),
      relations: (args) =>
        connection(
          this.relations.filter((one) => one.issueId === issue.id),
          args,
          (one) => this.relationView(one),
          this.pageSize,
        ),
    };
  }

  /** What a filter sees of an issue: Linear filters by relations (team, state, labels). */
  #filterable(issue: StoredIssue) {
    return {
      ...issue,
      team: this.team,
      state: this.stateOf(issue),
      parent: issue.parentId ? { id: issue.parentId } : null,
    };
  }

  #payload(field: string, value: Resolved): Resolved {
    this.#lastSyncId += 1;
    return { success: true, lastSyncId: this.#lastSyncId, [field]: value };
  }

  #labelIdsValid(ids: unknown): string[] {
    const list = Array.isArray(ids) ? (ids as string[]) : [];
    for (const id of list) {
      if (!this.labels.some((label) => label.id === id)) throw invalidInput('Label not found');
    }
    return list;
  }

  /** The root fields the SDK's typed queries and mutations use. */
  root(): Record<string, (args: Record<string, unknown>) => Resolved> {
    const page = <T>(items: T[], args: Record<string, unknown>, view: (item: T) => Resolved) =>
      connection(items, args, view, this.pageSize);
    return {
      viewer: () => ({
        __typename: 'User',
        ...this.viewer,
        active: true,
        admin: false,
        guest: false,
      }),
      organization: () => ({ __typename: 'Organization', ...this.organization }),
      teams: (args) =>
        page(
          [this.team].filter((team) => matches(team, args.filter)),
          args,
          () => this.teamView(),
        ),
      team: (args) => {
        if (args.id !== this.team.id && args.id !== this.team.key) {
          throw invalidInput('Entity not found: Team');
        }
        return this.teamView();
      },
      workflowStates: (args) =>
        page(
          this.states.filter((state) => matches({ ...state, team: this.team }, args.filter)),
          args,
          (state) => this.stateView(state),
        ),
      issueLabels: (args) =>
        page(
          this.labels.filter((label) =>
            matches({ ...label, team: label.teamId ? this.team : null }, args.filter),
          ),
          args,
          (label) => this.labelView(label),
        ),
      issues: (args) =>
        page(
          this.issues.filter((issue) => matches(this.#filterable(issue), args.filter)),
          args,
          (issue) => this.issueView(issue),
        ),
      issue: (args) => this.issueView(this.find(args.id)),
      issueCreate: (args) => {
        const input = (args.input ?? {}) as Record<string, unknown>;
        if (input.teamId !== this.team.id) throw invalidInput('teamId must be a team you can see');
        if (typeof input.title !== 'string' || !input.title)
          throw invalidInput('title is required');
        const parentId = typeof input.parentId === 'string' ? this.find(input.parentId).id : null;
        const issue = this.add({
          title: input.title,
          description: typeof input.description === 'string' ? input.description : '',
          labelIds: this.#labelIdsValid(input.labelIds),
          parentId,
          stateId: this.states.find((one) => one.type === 'unstarted')?.id ?? this.states[0]!.id,
        });
        return this.#payload('issue', { id: issue.id, __typename: 'Issue' });
      },
      issueUpdate: (args) => {
        const issue = this.find(args.id);
        const input = (args.input ?? {}) as Record<string, unknown>;
        if (typeof input.title === 'string') issue.title = input.title;
        if (typeof input.description === 'string') issue.description = input.description;
        if (input.labelIds !== undefined) issue.labelIds = this.#labelIdsValid(input.labelIds);
        if (input.parentId !== undefined) {
          issue.parentId = typeof input.parentId === 'string' ? this.find(input.parentId).id : null;
        }
        if (typeof input.stateId === 'string') {
          if (!this.states.some((one) => one.id === input.stateId))
            throw invalidInput('State not found');
          issue.stateId = input.stateId;
        }
        issue.updatedAt = this.now().toISOString();
        return this.#payload('issue', { id: issue.id, __typename: 'Issue' });
      },
      commentCreate: (args) => {
        const input = (args.input ?? {}) as Record<string, unknown>;
        const issue = this.find(input.issueId);
        issue.comments.push(String(input.body ?? ''));
        issue.updatedAt = this.now().toISOString();
        return this.#payload('comment', { id: randomUUID(), body: String(input.body ?? '') });
      },
      issueLabelCreate: (args) => {
        const input = (args.input ?? {}) as Record<string, unknown>;
        const name = String(input.name ?? '');
        const teamId = typeof input.teamId === 'string' ? input.teamId : null;
        const taken = this.labels.some(
          (one) =>
            one.name.toLowerCase() === name.toLowerCase() &&
            (one.teamId === teamId || one.teamId === null),
        );
        if (!name || taken) throw invalidInput('Duplicate label name');
        const label = { id: randomUUID(), name, teamId };
        this.labels.push(label);
        return this.#payload('issueLabel', { id: label.id });
      },
      issueRelationCreate: (args) => {
        const input = (args.input ?? {}) as Record<string, unknown>;
        const issue = this.find(input.issueId);
        const related = this.find(input.relatedIssueId);
        const type = String(input.type ?? '');
        if (
          this.relations.some(
            (one) =>
              one.issueId === issue.id && one.relatedIssueId === related.id && one.type === type,
          )
        ) {
          throw invalidInput('Relation already exists');
        }
        const relation = { id: randomUUID(), type, issueId: issue.id, relatedIssueId: related.id };
        this.relations.push(relation);
        return this.#payload('issueRelation', { id: relation.id });
      },
    };
  }
}
