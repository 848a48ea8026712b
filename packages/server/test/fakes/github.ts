/**
 * A fake GitHub on loopback speaking the REST API as GitHub does, so Octokit runs unchanged
 * against it: token auth (401 `Bad credentials` otherwise), `x-ratelimit-*` headers on every
 * answer, primary and secondary rate-limit answers exactly as GitHub sends them, Link-header
 * paging, labels, comments, `state_reason`, sub-issues and issue dependencies (or a GitHub
 * Enterprise Server without them: 404), and 5xx by count. Times come from an injectable
 * clock, and the Date header with them. Webhook deliveries are signed as GitHub signs them.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IssueState } from '../../src/trackers/providers/provider.ts';
import { routeGitHub } from './github-routes.ts';
import {
  type Answer,
  type GitHubState,
  githubError,
  type StoredIssue,
  stamp,
  wireIssue,
  wireRepo,
} from './github-wire.ts';
import type { FakeDelivery, FakeIssue, FakeTracker } from './tracker.ts';

export interface FakeGitHubOptions {
  owner?: string;
  repo?: string;
  /** What the token may do in the repository (default: admin). */
  permissions?: Partial<GitHubState['permissions']>;
  /** `x-oauth-scopes` as a classic token has them (default null: a fine-grained token). */
  scopes?: string | null;
  /** Whether the sub-issues and dependencies APIs exist (default true; false as on an older
   *  GitHub Enterprise Server, where they answer 404). */
  subIssues?: boolean;
  dependencies?: boolean;
  /** Whether issues carry `parent_issue_url` (default true). */
  parentUrls?: boolean;
  /** The largest page a listing answers, whatever per_page asks (GitHub: 100). */
  maxPerPage?: number;
  /** The clock behind created_at, updated_at and the Date header (default: the wall clock). */
  now?: () => Date;
}

/** A {@link FakeTracker} with what only GitHub tests need. */
export interface FakeGitHub extends FakeTracker {
  /** Method and path (with query) of every request served, in order. */
  requests(): string[];
  /** Changes what the token may do or which APIs exist, for the tests that follow. */
  configure(
    changes: Pick<
      FakeGitHubOptions,
      'permissions' | 'scopes' | 'subIssues' | 'dependencies' | 'parentUrls'
    >,
  ): void;
  /** The next `times` requests answer GitHub's primary limit: 403, remaining 0, a reset. */
  primaryRateLimit(times: number, resetInSeconds: number): void;
  /** The next `times` requests answer GitHub's secondary limit with `retry-after` (or
   *  without it, null, as GitHub sometimes answers). */
  secondaryRateLimit(times: number, retryAfterSeconds: number | null, status?: 403 | 429): void;
  /** An issue or pull request made on GitHub by a person; its number. */
  addIssue(issue: {
    title: string;
    body?: string;
    labels?: string[];
    pullRequest?: boolean;
  }): number;
  /**
   * The next `times` requests whose `METHOD /path` matches `pattern` answer `status` (502),
   * before doing anything, or after doing it (`afterWriting`: the answer is lost).
   */
  failNext(
    pattern: RegExp,
    times: number,
    options?: { status?: 500 | 502 | 503; afterWriting?: boolean },
  ): void;
  /** Changes an issue's labels or blockers as a person would on GitHub. */
  edit(externalId: string, changes: { labels?: string[]; blockedBy?: string[] }): void;
  /** Labels of the repository: name, colour, description. */
  labels(): Array<{ name: string; color: string; description: string | null }>;
  /** A signed delivery of any event and payload (ping, other actions). */
  deliveryOf(
    event: string,
    payload: object,
    options: { secret: string; signature?: 'valid' | 'wrong' | 'missing' },
  ): FakeDelivery;
}

/** GitHub's `X-Hub-Signature-256` for a body. */
export function signGitHub(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const SECONDARY =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. ' +
  'If you reach out to GitHub Support for help, please include the request ID ';

/** Starts a fake GitHub on 127.0.0.1 with one repository and a token that may write to it. */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const state: GitHubState = {
    base: '',
    owner: options.owner ?? 'acme',
    repo: options.repo ?? 'booking',
    repoId: 424242,
    token: 'ghp_fakeGitHubToken0123456789abcdefABCDEF',
    permissions: {
      admin: true,
      maintain: true,
      push: true,
      triage: true,
      pull: true,
      ...options.permissions,
    },
    scopes: options.scopes ?? null,
    subIssues: options.subIssues ?? true,
    dependencies: options.dependencies ?? true,
    parentUrls: options.parentUrls ?? true,
    maxPerPage: options.maxPerPage ?? 100,
    now: options.now ?? (() => new Date()),
    issues: new Map(),
    labels: new Map(),
    seq: { number: 0, id: 1_000_000, label: 500, comment: 9_000_000 },
  };
  const faults: {
    writes: number;
    writeStatus: number;
    limited: number;
    kind: string;
    wait: number | null;
    limitStatus: number;
  } = {
    writes: 0,
    writeStatus: 500,
    limited: 0,
    kind: 'secondary',
    wait: 0,
    limitStatus: 403,
  };
  const log: string[] = [];
  const targeted: Array<{ pattern: RegExp; times: number; status: number; afterWriting: boolean }> =
    [];
  let used = 0;

  const send = (response: ServerResponse, answer: Answer) => {
    const now = state.now();
    const reset = Math.floor(now.getTime() / 1000) + 3600;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      date: now.toUTCString(),
      'x-github-request-id': `FAKE:${log.length}`,
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(Math.max(0, 5000 - used)),
      'x-ratelimit-reset': String(reset),
      'x-ratelimit-used': String(used),
      'x-ratelimit-resource': 'core',
      ...(state.scopes !== null ? { 'x-oauth-scopes': state.scopes } : {}),
      ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...answer.headers,
    });
    response.end(text);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? 'GET';
    log.push(`${method} ${request.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (faults.limited > 0) {
      faults.limited -= 1;
      const now = state.now();
      if (faults.kind === 'primary') {
        const reset = Math.floor(now.getTime() / 1000) + (faults.wait ?? 0);
        send(response, {
          ...githubError(403, `API rate limit exceeded for user ID 1.`),
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-used': '5000',
            'x-ratelimit-reset': String(reset),
          },
        });
      } else {
        send(response, {
          ...githubError(faults.limitStatus, `${SECONDARY}FAKE:${log.length}.`),
          headers: faults.wait === null ? {} : { 'retry-after': String(faults.wait) },
        });
      }
      return;
    }
    const auth = request.headers.authorization ?? '';
    if (auth !== `token ${state.token}` && auth !== `Bearer ${state.token}`) {
      send(response, githubError(401, 'Bad credentials'));
      return;
    }
    used += 1;
    if (method !== 'GET' && method !== 'HEAD' && faults.writes > 0) {
      faults.writes -= 1;
      send(response, githubError(faults.writeStatus, 'Server Error'));
      return;
    }
    let body: Record<string, unknown> | undefined;
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        send(response, githubError(400, 'Problems parsing JSON'));
        return;
      }
    }
    if (method !== 'GET' && !state.permissions.push && !state.permissions.triage) {
      send(response, {
        ...githubError(403, 'Resource not accessible by personal access token'),
        headers: { 'x-accepted-github-permissions': 'issues=write' },
      });
      return;
    }
    const url = new URL(request.url ?? '/', state.base);
    const fault = targeted.find((f) => f.times > 0 && f.pattern.test(`${method} ${url.pathname}`));
    if (fault) fault.times -= 1;
    if (fault && !fault.afterWriting) {
      send(response, githubError(fault.status, 'Server Error'));
      return;
    }
    const answer = routeGitHub(state, method, url, body);
    // GitHub did the work; the answer is lost on the way (a 502 from a proxy, a timeout).
    send(response, fault ? githubError(fault.status, 'Server Error') : answer);
  };
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      send(response, githubError(500, `fake GitHub failed: ${String(error)}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const issueOf = (externalId: string): StoredIssue => {
    const issue = state.issues.get(Number(externalId));
    if (!issue) throw new Error(`the fake GitHub has no issue #${externalId}`);
    return issue;
  };
  const deliveryOf: FakeGitHub['deliveryOf'] = (
    event,
    payload,
    { secret, signature = 'valid' },
  ) => {
    const body = JSON.stringify(payload);
    const key = signature === 'valid' ? secret : `${secret}-not`;
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'GitHub-Hookshot/5f0b2d1',
        'x-github-event': event,
        'x-github-delivery': randomUUID(),
        'x-github-hook-id': '471100',
        'x-github-hook-installation-target-id': String(state.repoId),
        'x-github-hook-installation-target-type': 'repository',
        ...(signature === 'missing'
          ? {}
          : {
              'x-hub-signature': `sha1=${createHmac('sha1', key).update(body).digest('hex')}`,
              'x-hub-signature-256': signGitHub(body, key),
            }),
      },
    };
  };

  return {
    provider: 'github',
    baseUrl: state.base,
    credentials: { token: state.token },
    target: { owner: state.owner, repo: state.repo },
    issues: (): FakeIssue[] =>
      [...state.issues.values()]
        .filter((issue) => !issue.pullRequest)
        .map((issue) => ({
          externalId: String(issue.number),
          key: `#${issue.number}`,
          url: wireIssue(state, issue).html_url,
          title: issue.title,
          body: issue.body ?? '',
          state: issue.state,
          labels: [...issue.labels],
          ...(issue.parent ? { parent: String(issue.parent) } : {}),
          blockedBy: issue.blockedBy.map(String),
          comments: issue.comments.map((c) => c.body),
          updatedAt: stamp(issue.updatedAt),
        })),
    calls: () => log.length,
    requests: () => [...log],
    configure: (changes) => {
      if (changes.permissions) Object.assign(state.permissions, changes.permissions);
      if (changes.scopes !== undefined) state.scopes = changes.scopes;
      if (changes.subIssues !== undefined) state.subIssues = changes.subIssues;
      if (changes.dependencies !== undefined) state.dependencies = changes.dependencies;
      if (changes.parentUrls !== undefined) state.parentUrls = changes.parentUrls;
    },
    labels: () =>
      [...state.labels.values()].map(({ name, color, description }) => ({
        name,
        color,
        description,
      })),
    failNext: (pattern, times, { status = 502, afterWriting = false } = {}) => {
      targeted.push({ pattern, times, status, afterWriting });
    },
    failWrites: (times, status = 500) => {
      faults.writes = times;
      faults.writeStatus = status;
    },
    rateLimit: (times, retryAfterSeconds) => {
      Object.assign(faults, {
        limited: times,
        kind: 'secondary',
        wait: retryAfterSeconds,
        limitStatus: 403,
      });
    },
    primaryRateLimit: (times, resetInSeconds) => {
      Object.assign(faults, { limited: times, kind: 'primary', wait: resetInSeconds });
    },
    secondaryRateLimit: (times, retryAfterSeconds, status = 403) => {
      Object.assign(faults, {
        limited: times,
        kind: 'secondary',
        wait: retryAfterSeconds,
        limitStatus: status,
      });
    },
    addIssue: ({ title, body, labels = [], pullRequest = false }) => {
      state.seq.number += 1;
      state.seq.id += 7;
      const now = state.now();
      state.issues.set(state.seq.number, {
        id: state.seq.id,
        number: state.seq.number,
        title,
        body: body ?? null,
        state: 'open',
        stateReason: null,
        labels,
        blockedBy: [],
        comments: [],
        pullRequest,
        createdAt: now,
        updatedAt: now,
        closedAt: null,
      });
      return state.seq.number;
    },
    edit: (externalId, changes) => {
      const issue = issueOf(externalId);
      if (changes.labels) issue.labels = [...changes.labels];
      if (changes.blockedBy) issue.blockedBy = changes.blockedBy.map(Number);
      issue.updatedAt = state.now();
    },
    setState: (externalId: string, wanted: IssueState, at?: Date) => {
      const issue = issueOf(externalId);
      const when = at ?? state.now();
      if (issue.state !== wanted) {
        issue.state = wanted;
        issue.stateReason = wanted === 'closed' ? 'completed' : 'reopened';
        issue.closedAt = wanted === 'closed' ? when : null;
      }
      issue.updatedAt = when;
    },
    delivery: (externalId, { secret, at, signature }) => {
      const issue = issueOf(externalId);
      const payload = {
        action: issue.state === 'closed' ? 'closed' : 'reopened',
        issue: { ...wireIssue(state, issue), updated_at: stamp(at) },
        repository: wireRepo(state),
        sender: { login: state.owner, id: 1, type: 'User' },
      };
      return deliveryOf('issues', payload, { secret, ...(signature ? { signature } : {}) });
    },
    deliveryOf,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
