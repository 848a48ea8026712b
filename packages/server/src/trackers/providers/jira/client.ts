/**
 * One Jira connection's {@link TrackerClient}, on jira.js's cloud client (REST v3). Every call
 * goes through {@link JiraCalls.run}, which turns jira.js's errors into
 * {@link TrackerRequestError}s and bounds the call by the caller's signal and timeout.
 */
import type { CloudClient, SchemaMismatchBehavior } from 'jira.js';
import { isApiError } from 'jira.js/core';
import type {
  ConnectOptions,
  ExternalIssue,
  IssueDraft,
  IssueState,
  TrackerClient,
} from '../provider.ts';
import { readMarker, TrackerRequestError } from '../provider.ts';
import { withFetch } from '../scoped-fetch.ts';
import { jiraDocumentText, markdownToJiraDocument } from './adf.ts';
import { toTrackerError } from './errors.ts';
import { discoverTarget, type JiraTarget, storedTarget } from './project.ts';
import { jiraSite, jiraTime } from './wire.ts';

/** Options for tests and tools beyond the adapter's: what jira.js does on a response shape
 *  its schemas do not describe (`'throw'` in tests, so the fake stays true to Jira). */
export interface JiraClientOptions {
  onSchemaMismatch?: SchemaMismatchBehavior;
  /** The signal that ends a call's wait after `ms` (tests end it when they choose). */
  timeout?: (ms: number) => AbortSignal;
}

// The fields PGS reads of an issue; asking for fewer keeps searches light.
const ISSUE_FIELDS = ['summary', 'status', 'updated', 'description', 'labels', 'parent'];
const PAGE_SIZE = 100;
const DEFAULT_TIMEOUT_MS = 30_000;

type JiraIssue = Awaited<ReturnType<CloudClient['issues']['getIssue']>>;
type JiraLink = {
  id?: string;
  type?: { name?: string };
  inwardIssue?: { id?: string };
  outwardIssue?: { id?: string };
};

// jira.js's cloud surface is hundreds of modules and zod schemas: loaded on the first Jira
// call, not when the server starts (most servers never talk to Jira).
let cloudModule: Promise<typeof import('jira.js/cloud')> | undefined;

/** A Jira connection's client. Throws nothing itself: a missing site fails each call. */
export function connectJira(options: ConnectOptions, extra: JiraClientOptions = {}): TrackerClient {
  const calls = new JiraCalls(options, extra);
  return {
    verify: (signal) =>
      calls.run(signal, async (client) => ({ ...(await calls.discover(client)) })),
    findMarked: (projectId, signal) =>
      calls.run(signal, (client) => calls.findMarked(client, projectId)),
    get: (externalId, signal) => calls.run(signal, (client) => calls.get(client, externalId)),
    create: (draft, signal) => calls.run(signal, (client) => calls.create(client, draft)),
    update: (externalId, draft, signal) =>
      calls.run(signal, (client) => calls.update(client, externalId, draft)),
    setState: (externalId, state, comment, signal) =>
      calls.run(signal, (client) => calls.setState(client, externalId, state, comment)),
  };
}

class JiraCalls {
  private target: JiraTarget | undefined;
  private jira: Promise<CloudClient> | undefined;
  /** Issues this client made, by `projectId itemId`; items whose creation had no answer. */
  private readonly made = new Map<string, string>();
  private readonly uncertain = new Set<string>();
  private readonly commented = new Set<string>();
  private readonly site: string;
  private readonly options: ConnectOptions;
  private readonly extra: JiraClientOptions;

  constructor(options: ConnectOptions, extra: JiraClientOptions) {
    this.site = jiraSite(options.baseUrl) ?? '';
    this.options = options;
    this.extra = extra;
    this.target = storedTarget(options.target as Record<string, unknown>);
  }

  /**
   * Runs one operation against Jira. jira.js's transport takes no AbortSignal, so the caller's
   * signal and the timeout end the wait, not the request: a late answer is dropped.
   */
  async run<T>(signal: AbortSignal | undefined, operation: (jira: CloudClient) => Promise<T>) {
    const ms = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = this.extra.timeout?.(ms) ?? AbortSignal.timeout(ms);
    const bound = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let stop: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      stop = () => reject(bound.reason);
      bound.addEventListener('abort', stop, { once: true });
    });
    try {
      bound.throwIfAborted();
      // jira.js calls the global fetch and takes none of its own: scoped to this call.
      const work = () => this.client().then(operation);
      return await Promise.race([withFetch(this.options.fetch, work), aborted]);
    } catch (error) {
      throw toTrackerError(error);
    } finally {
      if (stop) bound.removeEventListener('abort', stop);
    }
  }

  private client(): Promise<CloudClient> {
    if (!this.site) {
      return Promise.reject(
        new TrackerRequestError(
          "Jira needs the site's address as baseUrl (https://your-site.atlassian.net)",
          { status: 400, retryable: false },
        ),
      );
    }
    this.jira ??= (async () => {
      cloudModule ??= import('jira.js/cloud');
      const { createCloudClient } = await cloudModule;
      const { email, apiToken } = this.options.credentials as { email: string; apiToken: string };
      try {
        return createCloudClient({
          host: this.site,
          auth: { type: 'basic', email, apiToken },
          // No `retry`: jira.js then never waits; the sync engine's policy decides (provider.ts).
          onSchemaMismatch: this.extra.onSchemaMismatch ?? 'silent',
        });
      } catch {
        // jira.js checks its configuration with zod; its message would quote the token.
        throw new TrackerRequestError("Jira's baseUrl or credentials are not well-formed", {
          status: 400,
          retryable: false,
        });
      }
    })();
    return this.jira;
  }

  async discover(jira: CloudClient): Promise<JiraTarget> {
    const { projectKey } = this.options.target as { projectKey: string };
    this.target = await discoverTarget(jira, projectKey);
    return this.target;
  }

  private async resolved(jira: CloudClient): Promise<JiraTarget> {
    return this.target ?? (await this.discover(jira));
  }

  async findMarked(jira: CloudClient, projectId: string): Promise<ExternalIssue[]> {
    const target = await this.resolved(jira);
    const found: ExternalIssue[] = [];
    let nextPageToken: string | undefined;
    do {
      const page = await jira.issueSearch.searchAndReconsileIssuesUsingJql({
        jql: `project = "${target.projectKey}" AND labels = pgs ORDER BY created ASC`,
        fields: ISSUE_FIELDS,
        maxResults: PAGE_SIZE,
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      for (const issue of page.issues ?? []) {
        const mapped = this.toExternal(issue);
        if (mapped.marker?.projectId === projectId) found.push(mapped);
      }
      nextPageToken = page.isLast ? undefined : (page.nextPageToken ?? undefined);
    } while (nextPageToken);
    return found;
  }

  async get(jira: CloudClient, externalId: string): Promise<ExternalIssue> {
    return this.toExternal(
      await jira.issues.getIssue({ issueIdOrKey: externalId, fields: ISSUE_FIELDS }),
    );
  }

  async create(jira: CloudClient, draft: IssueDraft): Promise<ExternalIssue> {
    const target = await this.resolved(jira);
    // The engine retries a failed create as a whole. An issue this client already made for
    // the item (a link failed after it) is updated instead; one whose creation had no certain
    // answer (5xx, network, timeout: Jira may have made it) is looked for first.
    const marker = readMarker(draft.body);
    const item = marker ? `${marker.projectId} ${marker.itemId}` : undefined;
    const known = item
      ? (this.made.get(item) ??
        (this.uncertain.has(item) ? await this.recent(jira, item) : undefined))
      : undefined;
    if (known) return this.update(jira, known, draft);
    const typeId = this.issueTypeFor(target, draft);
    if (item) this.uncertain.add(item);
    const created = await jira.issues
      .createIssue({
        fields: {
          project: { id: target.projectId },
          issuetype: { id: typeId },
          ...this.draftFields(target, draft, typeId),
        },
      })
      .catch((error: unknown) => {
        // A 4xx is a certain "no": nothing was made.
        if (item && isApiError(error) && error.status < 500) this.uncertain.delete(item);
        throw error;
      });
    if (item) {
      this.uncertain.delete(item);
      this.made.set(item, created.id);
    }
    for (const blocker of draft.blockedBy) await this.link(jira, blocker, created.id);
    return this.get(jira, created.id);
  }

  // The newest pgs issues (one page) carrying the item's marker, after a create whose answer
  // was lost. Jira's search index can lag a write by seconds: a miss means a second issue.
  private async recent(jira: CloudClient, item: string): Promise<string | undefined> {
    const target = await this.resolved(jira);
    const page = await jira.issueSearch.searchAndReconsileIssuesUsingJql({
      jql: `project = "${target.projectKey}" AND labels = pgs ORDER BY created DESC`,
      fields: ISSUE_FIELDS,
      maxResults: PAGE_SIZE,
    });
    const found = (page.issues ?? [])
      .map((issue) => this.toExternal(issue))
      .find((issue) => issue.marker && `${issue.marker.projectId} ${issue.marker.itemId}` === item);
    if (found) this.made.set(item, found.externalId);
    this.uncertain.delete(item);
    return found?.externalId;
  }

  async update(jira: CloudClient, externalId: string, draft: IssueDraft): Promise<ExternalIssue> {
    const target = await this.resolved(jira);
    const current = await jira.issues.getIssue({
      issueIdOrKey: externalId,
      fields: ['parent', 'issuelinks', 'issuetype'],
    });
    // The issue keeps the type it was created with (Jira changes a type only by a move).
    const typeId = (current.fields?.issuetype as { id?: string } | undefined)?.id ?? '';
    const hadParent = Boolean((current.fields?.parent as { id?: string } | undefined)?.id);
    const fields = this.draftFields(target, draft, typeId);
    // Jira removes a parent only through the update verb, not by a null field; a sub-task
    // cannot lose its parent at all.
    const unparent = hadParent && !draft.parent && typeId !== target.subtaskIssueTypeId;
    await jira.issues.editIssue({
      issueIdOrKey: externalId,
      fields,
      ...(unparent ? { update: { parent: [{ set: { none: true } }] } } : {}),
    });
    const links = ((current.fields?.issuelinks ?? []) as JiraLink[]).filter(
      (link) => link.type?.name === 'Blocks' && link.inwardIssue?.id,
    );
    const wanted = new Set(draft.blockedBy);
    for (const link of links) {
      if (!wanted.has(link.inwardIssue!.id!) && link.id) {
        await jira.issueLinks.deleteIssueLink({ linkId: link.id });
      }
    }
    const present = new Set(links.map((link) => link.inwardIssue!.id!));
    for (const blocker of draft.blockedBy) {
      if (!present.has(blocker)) await this.link(jira, blocker, current.id ?? externalId);
    }
    return this.get(jira, externalId);
  }

  async setState(
    jira: CloudClient,
    externalId: string,
    state: IssueState,
    comment: string | undefined,
  ): Promise<ExternalIssue> {
    // A retried close (its transition failed) does not comment twice.
    const said = `${externalId} ${comment}`;
    if (comment && !this.commented.has(said)) {
      await jira.issueComments.addComment({
        issueIdOrKey: externalId,
        body: markdownToJiraDocument(comment) as never,
      });
      this.commented.add(said);
    }
    const current = await this.get(jira, externalId);
    if (current.state === state) return current;
    // Closing moves to a status of the Done category, reopening to one of To Do ('new'):
    // workflows name their statuses freely, the categories are fixed.
    const category = state === 'closed' ? 'done' : 'new';
    const { transitions = [] } = await jira.issues.getTransitions({ issueIdOrKey: externalId });
    const transition = transitions.find(
      (candidate) =>
        candidate.to?.statusCategory?.key === category && candidate.isAvailable !== false,
    );
    if (!transition?.id) {
      throw new TrackerRequestError(
        `Jira's workflow offers ${current.key} no transition to a ${state === 'closed' ? 'Done' : 'To Do'} status`,
        { status: 409, retryable: false },
      );
    }
    await jira.issues.doTransition({ issueIdOrKey: externalId, transition: { id: transition.id } });
    return this.get(jira, externalId);
  }

  /** `blocker` blocks `blocked`: Jira shows `blocked` as "is blocked by" `blocker`. */
  private async link(jira: CloudClient, blocker: string, blocked: string): Promise<void> {
    await jira.issueLinks.linkIssues({
      type: { name: 'Blocks' },
      inwardIssue: { id: blocker },
      outwardIssue: { id: blocked },
    });
  }

  private issueTypeFor(target: JiraTarget, draft: IssueDraft): string {
    if (draft.itemId.startsWith('FR-')) return target.parentIssueTypeId;
    const underTask = target.parentIssueTypeId === target.issueTypeId;
    return draft.parent && underTask && target.subtaskIssueTypeId
      ? target.subtaskIssueTypeId
      : target.issueTypeId;
  }

  private draftFields(target: JiraTarget, draft: IssueDraft, typeId: string) {
    // A parent is set where the hierarchy allows one (project.ts): under an Epic, any issue
    // but an Epic; without Epics, only a sub-task (a Task created before its FR group was
    // synced stays a Task, its group shown by the FR label).
    const epics = target.parentIssueTypeId !== target.issueTypeId;
    const parentAllowed = epics
      ? typeId !== target.parentIssueTypeId
      : typeId !== '' && typeId === target.subtaskIssueTypeId;
    return {
      summary: draft.title.slice(0, 255),
      description: markdownToJiraDocument(draft.body),
      // Jira labels cannot hold spaces.
      labels: [...new Set(draft.labels.map((label) => label.replace(/\s+/g, '-')))],
      ...(draft.parent && parentAllowed ? { parent: { id: draft.parent } } : {}),
    };
  }

  private toExternal(issue: JiraIssue): ExternalIssue {
    const fields = (issue.fields ?? {}) as {
      status?: { statusCategory?: { key?: string } };
      updated?: string;
      description?: unknown;
    };
    const key = issue.key ?? '';
    const marker = readMarker(jiraDocumentText(fields.description));
    return {
      externalId: issue.id ?? '',
      key,
      url: `${this.site}/browse/${key}`,
      state: fields.status?.statusCategory?.key === 'done' ? 'closed' : 'open',
      // An issue always has `updated`; the epoch only stands in for a malformed answer.
      updatedAt: jiraTime(fields.updated) ?? new Date(0).toISOString(),
      ...(marker ? { marker } : {}),
    };
  }
}
