/**
 * A fake Jira Cloud site on loopback speaking REST v3 as Jira does, so jira.js runs unchanged
 * against it: basic auth (401 for anything else), `{ errorMessages, errors }` bodies, ADF
 * descriptions, statuses with categories and a simplified workflow's transitions, the
 * enhanced JQL search paged by `nextPageToken`/`isLast`, "Blocks" links, the unified `parent`
 * field with Jira's hierarchy rules, 429 with `Retry-After`, and 5xx by count. Times come from
 * an injectable clock. Webhook deliveries are signed as Jira signs them (`X-Hub-Signature`).
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IssueState } from '../../src/trackers/providers/provider.ts';
import { routeJira } from './jira-routes.ts';
import {
  adfText,
  issueTypes,
  jiraError,
  STATUSES,
  type StoredIssue,
  type StoredLink,
  wire,
} from './jira-wire.ts';
import type { FakeDelivery, FakeIssue, FakeTracker } from './tracker.ts';

export interface FakeJiraOptions {
  /** The project that exists (default `PGS`). */
  projectKey?: string;
  /** Whether the project has an Epic type (default true). */
  epics?: boolean;
  /** Whether the account holds the Create issues permission (default true). */
  canCreate?: boolean;
  /** The largest page the search answers, whatever maxResults asks (default 50). */
  pageSize?: number;
  /** The clock behind `created` and `updated` (default: the wall clock). */
  now?: () => Date;
}

/** The fake's state, shared with its routes. */
export interface JiraState {
  base: string;
  email: string;
  apiToken: string;
  projectKey: string;
  canCreate: boolean;
  pageSize: number;
  now: () => Date;
  issues: Map<string, StoredIssue>;
  links: StoredLink[];
  seq: { issue: number; key: number; link: number; comment: number };
  wire: ReturnType<typeof wire>;
  types: ReturnType<typeof issueTypes>;
}

/** A {@link FakeTracker} with what only Jira tests need. */
export interface FakeJira extends FakeTracker {
  /** Method and path (with query) of every request served, in order. */
  requests(): string[];
  /** Grants or withdraws the Create issues permission. */
  setCanCreate(allowed: boolean): void;
  /**
   * The next `times` requests to `route` (`POST /rest/api/3/issueLink`) go wrong: `fail`
   * answers 502 before doing anything, `lose` 502 after doing it (the answer lost on the way
   * back), `drop` does it and closes the connection without an answer, `hold` does it and
   * keeps its answer until {@link FakeJira.release} (a Jira slower than the client waits).
   */
  faultOn(route: string, times: number, mode: FaultMode): void;
  /** Sends the answers `hold` kept back; how many. */
  release(): number;
  /** Resolves when `hold` next keeps an answer back (the request was done). */
  whenHeld(): Promise<void>;
}

export type FaultMode = 'fail' | 'lose' | 'drop' | 'hold';

/** The `X-Hub-Signature` Jira sends for a body. */
export function signJira(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A delivery of any payload, signed as Jira signs it (for events other than status changes). */
export function jiraDelivery(
  payload: object,
  options: { secret: string; identifier?: string; signature?: 'valid' | 'wrong' | 'missing' },
): FakeDelivery {
  const body = JSON.stringify(payload);
  const signature = options.signature ?? 'valid';
  return {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Atlassian Webhook HTTP Client',
      'x-atlassian-webhook-flow': 'Primary',
      ...(options.identifier ? { 'x-atlassian-webhook-identifier': options.identifier } : {}),
      ...(signature === 'missing'
        ? {}
        : { 'x-hub-signature': signJira(body, signature === 'valid' ? options.secret : 'wrong') }),
    },
  };
}

/** Starts a fake Jira site on 127.0.0.1 with one project and an account that may use it. */
export async function startFakeJira(options: FakeJiraOptions = {}): Promise<FakeJira> {
  const projectKey = options.projectKey ?? 'PGS';
  const types = issueTypes(options.epics ?? true);
  const faults = { writes: 0, writeStatus: 500, limited: 0, retryAfter: 0 };
  const routeFaults = new Map<string, { times: number; mode: FaultMode }>();
  const held: (() => void)[] = [];
  const heldWaiters: (() => void)[] = [];
  const routeFault = (route: string) => {
    const fault = routeFaults.get(route);
    if (!fault || fault.times <= 0) return undefined;
    fault.times -= 1;
    return fault.mode;
  };
  const log: string[] = [];
  let calls = 0;
  let delivered = 0;
  const state: JiraState = {
    base: '',
    email: 'robot@example.com',
    apiToken: 'fake-jira-api-token',
    projectKey,
    canCreate: options.canCreate ?? true,
    pageSize: options.pageSize ?? 50,
    now: options.now ?? (() => new Date()),
    issues: new Map(),
    links: [],
    seq: { issue: 10000, key: 0, link: 20000, comment: 30000 },
    wire: wire('', projectKey, types),
    types,
  };

  const send = (response: ServerResponse, status: number, body?: unknown, headers = {}) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    response.writeHead(status, {
      ...(text ? { 'content-type': 'application/json;charset=UTF-8' } : {}),
      ...headers,
    });
    response.end(text);
  };

  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    calls += 1;
    const method = request.method ?? 'GET';
    log.push(`${method} ${request.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (faults.limited > 0) {
      faults.limited -= 1;
      const reset = new Date(state.now().getTime() + faults.retryAfter * 1000);
      send(response, 429, jiraError(['Rate limit exceeded.']), {
        'retry-after': String(faults.retryAfter),
        'x-ratelimit-reset': reset.toISOString(),
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '0',
        'ratelimit-reason': 'jira-burst-based',
      });
      return;
    }
    if (method !== 'GET' && faults.writes > 0) {
      faults.writes -= 1;
      send(response, faults.writeStatus, jiraError(['Internal server error']));
      return;
    }
    const expected = `Basic ${Buffer.from(`${state.email}:${state.apiToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      // Jira answers a wrong API token with text, not its JSON error body.
      response.writeHead(401, {
        'content-type': 'text/plain;charset=UTF-8',
        'www-authenticate': 'Basic realm="protected-area"',
      });
      response.end('Client must be authenticated to access this resource.');
      return;
    }
    let body: unknown;
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(response, 400, jiraError(['Unexpected character in the request body.']));
        return;
      }
    }
    const url = new URL(request.url ?? '/', state.base);
    const fault = routeFault(`${method} ${url.pathname}`);
    if (fault === 'fail') {
      send(response, 502, jiraError(['Bad gateway']));
      return;
    }
    const answer = routeJira(state, method, url, body);
    if (fault === 'lose') {
      send(response, 502, jiraError(['Bad gateway']));
      return;
    }
    if (fault === 'drop') {
      request.socket.destroy();
      return;
    }
    if (fault === 'hold') {
      held.push(() => send(response, answer.status, answer.body));
      for (const waiter of heldWaiters.splice(0)) waiter();
      return;
    }
    send(response, answer.status, answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.base = `http://127.0.0.1:${port}`;
  state.wire = wire(state.base, projectKey, types);

  const issueOf = (externalId: string) => {
    const issue = state.issues.get(externalId);
    if (!issue) throw new Error(`the fake Jira has no issue ${externalId}`);
    return issue;
  };

  return {
    provider: 'jira',
    baseUrl: state.base,
    credentials: { email: state.email, apiToken: state.apiToken },
    target: { projectKey },
    issues: (): FakeIssue[] =>
      [...state.issues.values()].map((issue) => ({
        externalId: issue.id,
        key: issue.key,
        url: `${state.base}/browse/${issue.key}`,
        title: issue.summary,
        body: adfText(issue.description),
        state: statusState(issue.statusId),
        labels: [...issue.labels],
        ...(issue.parentId ? { parent: issue.parentId } : {}),
        blockedBy: state.links.filter((link) => link.blocked === issue.id).map((l) => l.blocker),
        comments: issue.comments.map((comment) => adfText(comment.body)),
        updatedAt: issue.updated.toISOString(),
      })),
    calls: () => calls,
    requests: () => [...log],
    setCanCreate: (allowed) => {
      state.canCreate = allowed;
    },
    faultOn: (route, times, mode) => {
      routeFaults.set(route, { times, mode });
    },
    release: () => {
      const answers = held.splice(0);
      for (const answer of answers) answer();
      return answers.length;
    },
    whenHeld: () => new Promise<void>((resolve) => heldWaiters.push(resolve)),
    failWrites: (times, status = 500) => {
      faults.writes = times;
      faults.writeStatus = status;
    },
    rateLimit: (times, retryAfterSeconds) => {
      faults.limited = times;
      faults.retryAfter = retryAfterSeconds;
    },
    setState: (externalId: string, wanted: IssueState, at?: Date) => {
      const issue = issueOf(externalId);
      const target = STATUSES.find((status) =>
        wanted === 'closed' ? status.category.key === 'done' : status.category.key === 'new',
      )!;
      issue.previousStatusId = issue.statusId;
      issue.statusId = target.id;
      issue.updated = at ?? state.now();
    },
    delivery: (externalId, { secret, at, signature }) => {
      const issue = issueOf(externalId);
      delivered += 1;
      const from = STATUSES.find((status) => status.id === (issue.previousStatusId ?? '10000'))!;
      const to = STATUSES.find((status) => status.id === issue.statusId)!;
      const payload = {
        timestamp: at.getTime(),
        webhookEvent: 'jira:issue_updated',
        issue_event_type_name: 'issue_generic',
        user: state.wire.user(state.email),
        issue: state.wire.issue(issue, state.issues, state.links),
        changelog: {
          id: String(40000 + delivered),
          items: [
            {
              field: 'status',
              fieldtype: 'jira',
              fieldId: 'status',
              from: from.id,
              fromString: from.name,
              to: to.id,
              toString: to.name,
            },
          ],
        },
      };
      return jiraDelivery(payload, {
        secret,
        identifier: String(90000 + delivered),
        ...(signature ? { signature } : {}),
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The PGS state of a status: closed in the Done category, open otherwise. */
export function statusState(statusId: string): IssueState {
  return STATUSES.find((status) => status.id === statusId)?.category.key === 'done'
    ? 'closed'
    : 'open';
}
