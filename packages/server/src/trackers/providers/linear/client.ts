/**
 * One Linear connection through the official `@linear/sdk`: a team's issues with PGS's
 * labels, parents (Linear's sub-issues) and "blocks" relations, closed and reopened through
 * the team's workflow states. Every SDK failure leaves as a {@link TrackerRequestError}
 * (errors.ts); nothing here waits or retries.
 */
import { type Issue, IssueRelationType, LinearClient } from '@linear/sdk';
import {
  type ConnectOptions,
  type ExternalIssue,
  type IssueDraft,
  type IssueState,
  readMarker,
  type TrackerClient,
  TrackerRequestError,
} from '../provider.ts';
import { withFetch } from '../scoped-fetch.ts';
import { toTrackerError } from './errors.ts';
import { LabelCache } from './labels.ts';

/** Linear's page size ceiling is 250; 100 keeps each page's complexity modest. */
const PAGE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface TeamRef {
  id: string;
  key: string;
  name: string;
}

interface StateRef {
  id: string;
  type: string;
  position: number;
}

/** Workflow state types that mean the work is over, for PGS: closed. */
const CLOSED_TYPES = new Set(['completed', 'canceled']);

function notFound(reason: string): TrackerRequestError {
  return new TrackerRequestError(reason, { status: 404, retryable: false });
}

/** The item a draft is for, across projects (the marker names both). */
function itemKey(draft: IssueDraft): string {
  const marker = readMarker(draft.body);
  return marker ? `${marker.projectId}:${marker.itemId}` : draft.itemId;
}

/**
 * True when a failed write may have been done all the same: its answer was lost (5xx, a
 * network failure). A rate-limit answer or a refusal says it was not.
 */
function mayHaveLanded(error: unknown): boolean {
  const mapped = toTrackerError(error);
  return !(mapped instanceof TrackerRequestError) || (mapped.retryable && mapped.status !== 429);
}

/** A connection's client; ids of the team, its states and labels are cached per client. */
export class LinearTracker implements TrackerClient {
  readonly #token: string;
  readonly #apiUrl: string | undefined;
  readonly #team: string;
  readonly #timeoutMs: number | undefined;
  readonly #fetch: typeof fetch | undefined;
  #teamRef: TeamRef | undefined;
  #states: Map<string, StateRef> | undefined;
  readonly #labels = new LabelCache();
  // The sync engine retries a failed call as a whole; these keep a retry from writing twice.
  /** Issues made by a create that failed after (blockers, the read back), by item. */
  readonly #created = new Map<string, string>();
  /** Items whose issueCreate failed without saying it did nothing. */
  readonly #uncertain = new Set<string>();
  /** Comments made (or perhaps made) before a state change that failed, by issue and state. */
  readonly #commented = new Map<string, 'made' | 'perhaps'>();

  constructor(options: ConnectOptions, team: string) {
    this.#token = 'token' in options.credentials ? options.credentials.token : '';
    this.#apiUrl = options.baseUrl ? `${options.baseUrl.replace(/\/+$/, '')}/graphql` : undefined;
    this.#team = team;
    this.#timeoutMs = options.timeoutMs;
    this.#fetch = options.fetch;
    // A stored connection's target carries what verify found: no lookup per client then.
    const stored = options.target as Record<string, unknown>;
    if (typeof stored.teamId === 'string' && typeof stored.teamKey === 'string') {
      const name = typeof stored.teamName === 'string' ? stored.teamName : stored.teamKey;
      this.#teamRef = { id: stored.teamId, key: stored.teamKey, name };
    }
  }

  /**
   * A fresh SDK client per call so that each call carries its own abort signal and timeout
   * (the SDK takes fetch options only at construction); constructing one costs nothing. The
   * timeout bounds the whole call, all its requests and pages together.
   */
  async #run<T>(signal: AbortSignal | undefined, work: (sdk: LinearClient) => Promise<T>) {
    const signals = [signal, this.#timeoutMs ? AbortSignal.timeout(this.#timeoutMs) : undefined];
    const present = signals.filter((one): one is AbortSignal => one !== undefined);
    // Personal API keys go bare in Authorization; OAuth tokens as Bearer.
    const auth = this.#token.startsWith('lin_api_')
      ? { apiKey: this.#token }
      : { accessToken: this.#token };
    const sdk = new LinearClient({
      ...auth,
      ...(this.#apiUrl ? { apiUrl: this.#apiUrl } : {}),
      ...(present.length > 0 ? { signal: AbortSignal.any(present) } : {}),
    });
    try {
      // The SDK calls the global fetch and takes none of its own: scoped to this call.
      return await withFetch(this.#fetch, () => work(sdk));
    } catch (error) {
      throw toTrackerError(error, signal);
    }
  }

  async #teamOf(sdk: LinearClient): Promise<TeamRef> {
    if (this.#teamRef) return this.#teamRef;
    const filter = UUID.test(this.#team)
      ? { id: { eq: this.#team } }
      : { key: { eqIgnoreCase: this.#team } };
    const teams = await sdk.teams({ filter, first: 1 });
    const team = teams.nodes[0];
    if (!team) {
      throw notFound(`no Linear team "${this.#team}" is visible to this API key`);
    }
    this.#teamRef = { id: team.id, key: team.key, name: team.name };
    return this.#teamRef;
  }

  async #statesOf(sdk: LinearClient, refresh = false): Promise<Map<string, StateRef>> {
    if (this.#states && !refresh) return this.#states;
    const team = await this.#teamOf(sdk);
    const page = await sdk.workflowStates({
      filter: { team: { id: { eq: team.id } } },
      first: PAGE,
    });
    while (page.pageInfo.hasNextPage) await page.fetchNext();
    this.#states = new Map(
      page.nodes.map((state) => [
        state.id,
        { id: state.id, type: state.type, position: state.position },
      ]),
    );
    return this.#states;
  }

  /** The team's state to move an issue to: its first completed one, or first unstarted. */
  async #stateFor(sdk: LinearClient, state: IssueState): Promise<StateRef> {
    const states = [...(await this.#statesOf(sdk)).values()].sort(
      (a, b) => a.position - b.position,
    );
    const wanted = state === 'closed' ? ['completed'] : ['unstarted', 'backlog'];
    for (const type of wanted) {
      const found = states.find((one) => one.type === type);
      if (found) return found;
    }
    throw new TrackerRequestError(
      `the Linear team "${this.#team}" has no ${wanted.join(' or ')} workflow state`,
      { retryable: false },
    );
  }

  async #external(sdk: LinearClient, issue: Issue): Promise<ExternalIssue> {
    const stateId = issue.stateId;
    let states = await this.#statesOf(sdk);
    // A state added on Linear since the cache was filled.
    if (stateId && !states.has(stateId)) states = await this.#statesOf(sdk, true);
    const type = stateId ? states.get(stateId)?.type : undefined;
    const marker = readMarker(issue.description);
    return {
      externalId: issue.id,
      key: issue.identifier,
      url: issue.url,
      state: type && CLOSED_TYPES.has(type) ? 'closed' : 'open',
      updatedAt: issue.updatedAt.toISOString(),
      ...(marker ? { marker } : {}),
    };
  }

  /** Adds the "blocks" relations this issue lacks; relations people added stay. */
  async #addBlockers(sdk: LinearClient, issue: Issue, blockedBy: string[]): Promise<void> {
    if (blockedBy.length === 0) return;
    const existing = new Set<string>();
    const page = await issue.inverseRelations({ first: PAGE });
    while (page.pageInfo.hasNextPage) await page.fetchNext();
    for (const relation of page.nodes) {
      if (relation.type === IssueRelationType.Blocks && relation.issueId) {
        existing.add(relation.issueId);
      }
    }
    for (const blocker of blockedBy) {
      if (existing.has(blocker)) continue;
      await sdk.createIssueRelation({
        issueId: blocker,
        relatedIssueId: issue.id,
        type: IssueRelationType.Blocks,
      });
      existing.add(blocker);
    }
  }

  verify(signal?: AbortSignal): Promise<Record<string, string>> {
    return this.#run(signal, async (sdk) => {
      await sdk.viewer;
      // Verification asks Linear, whatever the target claims.
      this.#teamRef = undefined;
      this.#states = undefined;
      const team = await this.#teamOf(sdk);
      await this.#stateFor(sdk, 'closed');
      await this.#stateFor(sdk, 'open');
      return { team: team.key, teamId: team.id, teamKey: team.key, teamName: team.name };
    });
  }

  findMarked(projectId: string, signal?: AbortSignal): Promise<ExternalIssue[]> {
    return this.#run(signal, async (sdk) => {
      const team = await this.#teamOf(sdk);
      const page = await sdk.issues({
        filter: {
          team: { id: { eq: team.id } },
          description: { contains: `pgs:project=${projectId}` },
        },
        first: PAGE,
      });
      while (page.pageInfo.hasNextPage) await page.fetchNext();
      const found: ExternalIssue[] = [];
      for (const issue of page.nodes) {
        if (readMarker(issue.description)?.projectId !== projectId) continue;
        found.push(await this.#external(sdk, issue));
      }
      return found;
    });
  }

  get(externalId: string, signal?: AbortSignal): Promise<ExternalIssue> {
    return this.#run(signal, async (sdk) => this.#external(sdk, await sdk.issue(externalId)));
  }

  /** An issue made by an earlier, failed create of this item, if there is one. */
  async #earlier(sdk: LinearClient, draft: IssueDraft): Promise<string | undefined> {
    const key = itemKey(draft);
    const known = this.#created.get(key);
    if (known || !this.#uncertain.has(key)) return known;
    const marker = readMarker(draft.body);
    if (!marker) return undefined;
    const team = await this.#teamOf(sdk);
    const page = await sdk.issues({
      filter: {
        team: { id: { eq: team.id } },
        description: { contains: `pgs:project=${marker.projectId} item=${marker.itemId}` },
      },
      first: PAGE,
    });
    while (page.pageInfo.hasNextPage) await page.fetchNext();
    const found = page.nodes.find((issue) => {
      const its = readMarker(issue.description);
      return its?.projectId === marker.projectId && its.itemId === marker.itemId;
    });
    return found?.id;
  }

  create(draft: IssueDraft, signal?: AbortSignal): Promise<ExternalIssue> {
    return this.#run(signal, async (sdk) => {
      const key = itemKey(draft);
      const earlier = await this.#earlier(sdk, draft);
      if (earlier) {
        // A retry of a create that got as far as the issue: finish it as an update.
        const done = await this.#write(sdk, earlier, draft);
        this.#created.delete(key);
        this.#uncertain.delete(key);
        return done;
      }
      const team = await this.#teamOf(sdk);
      const labelIds = await this.#labels.ids(sdk, team.id, draft.labels);
      let id: string | undefined;
      try {
        const payload = await sdk.createIssue({
          teamId: team.id,
          title: draft.title,
          description: draft.body,
          labelIds,
          ...(draft.parent ? { parentId: draft.parent } : {}),
        });
        id = payload.issueId;
      } catch (error) {
        if (mayHaveLanded(error)) this.#uncertain.add(key);
        throw error;
      }
      this.#uncertain.delete(key);
      if (!id) {
        this.#uncertain.add(key);
        throw new TrackerRequestError('Linear did not return the new issue', { retryable: true });
      }
      this.#created.set(key, id);
      let issue = await sdk.issue(id);
      if (draft.blockedBy.length > 0) {
        await this.#addBlockers(sdk, issue, draft.blockedBy);
        issue = await sdk.issue(id);
      }
      const done = await this.#external(sdk, issue);
      this.#created.delete(key);
      return done;
    });
  }

  /** Rewrites an issue from a draft (title, body, labels, parent, blockers). */
  async #write(sdk: LinearClient, externalId: string, draft: IssueDraft): Promise<ExternalIssue> {
    const before = await sdk.issue(externalId);
    const team = await this.#teamOf(sdk);
    const kept = await this.#labels.peoples(sdk, before.labelIds ?? []);
    const ours = await this.#labels.ids(sdk, team.id, draft.labels);
    // The parent is set when PGS gives one and left alone otherwise: a tasks-only sync
    // must not undo the parents an earlier sync with requirements set.
    await sdk.updateIssue(externalId, {
      title: draft.title,
      description: draft.body,
      labelIds: [...new Set([...ours, ...kept])],
      ...(draft.parent ? { parentId: draft.parent } : {}),
    });
    await this.#addBlockers(sdk, before, draft.blockedBy);
    return this.#external(sdk, await sdk.issue(externalId));
  }

  update(externalId: string, draft: IssueDraft, signal?: AbortSignal): Promise<ExternalIssue> {
    return this.#run(signal, (sdk) => this.#write(sdk, externalId, draft));
  }

  /** True when the issue already carries this comment (one whose answer was lost). */
  async #hasComment(issue: Issue, body: string): Promise<boolean> {
    const page = await issue.comments({ first: PAGE });
    while (page.pageInfo.hasNextPage) await page.fetchNext();
    return page.nodes.some((one) => one.body.trim() === body.trim());
  }

  setState(
    externalId: string,
    state: IssueState,
    comment: string | undefined,
    signal?: AbortSignal,
  ): Promise<ExternalIssue> {
    return this.#run(signal, async (sdk) => {
      const key = `${externalId}:${state}`;
      const issue = await sdk.issue(externalId);
      const current = await this.#external(sdk, issue);
      // Already there (a retry, or a person was first): no second comment.
      if (current.state === state) {
        this.#commented.delete(key);
        return current;
      }
      const commented = this.#commented.get(key);
      const already =
        commented === 'made' ||
        (commented === 'perhaps' &&
          comment !== undefined &&
          (await this.#hasComment(issue, comment)));
      if (comment && !already) {
        try {
          await sdk.createComment({ issueId: externalId, body: comment });
        } catch (error) {
          if (mayHaveLanded(error)) this.#commented.set(key, 'perhaps');
          throw error;
        }
      }
      this.#commented.set(key, 'made');
      const target = await this.#stateFor(sdk, state);
      await sdk.updateIssue(externalId, { stateId: target.id });
      this.#commented.delete(key);
      return this.#external(sdk, await sdk.issue(externalId));
    });
  }
}
