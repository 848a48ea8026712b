/**
 * A fake Linear GraphQL API on loopback, so the official `LinearClient` runs unchanged
 * against it (`apiUrl: ${baseUrl}/graphql`): the SDK's own documents, Linear's connections
 * and pagination, its error shapes (`extensions.type` and `code`, `userPresentableMessage`),
 * 401 for a wrong key, RATELIMITED answers with Linear's rate-limit headers, 5xx injected by
 * count, and Issue webhooks signed as Linear signs them.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IssueState } from '../../src/trackers/providers/provider.ts';
import { execute, LinearGraphQLError, parseOperation } from './linear-graphql.ts';
import { LinearStore, type StoredIssue } from './linear-store.ts';
import type { FakeDelivery, FakeIssue, FakeTracker } from './tracker.ts';

export interface FakeLinearOptions {
  /** The clock issues are dated by (updatedAt); defaults to the process's. */
  now?: () => Date;
  /** The visible team's key; `ENG` by default. */
  teamKey?: string;
  /** Largest page served (Linear's is 250): lower it to make pagination visible. */
  pageSize?: number;
}

/** The fake plus what only Linear's tests need. */
export interface FakeLinear extends FakeTracker {
  /** The visible team's id (the target may name it instead of its key). */
  readonly teamId: string;
  /** Adds an issue directly, as a person would in Linear's app; returns its id. */
  seed(issue: { title: string; body: string }): string;
  /**
   * The next request of this operation (`createIssue`, `createComment`, `updateIssue`…)
   * answers `status`, before doing anything or, with `after`, once it is done (its answer
   * lost, as when a gateway fails on the way back).
   */
  failOperation(name: string, options: { after: boolean; status?: 500 | 502 | 503 }): void;
  /** Puts a label on an issue as a person would (a workspace label, created if missing). */
  label(externalId: string, name: string): void;
  /** Operation names served so far, in order (`issueCreate`, `issues`, …). */
  operations(): string[];
  /** Any webhook payload, signed with `secret` as Linear signs deliveries. */
  signed(payload: Record<string, unknown>, secret: string): FakeDelivery;
}

const REQUESTS_LIMIT = 5000;
const COMPLEXITY_LIMIT = 3_000_000;

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function errorBody(error: LinearGraphQLError) {
  return { errors: [{ message: error.message, extensions: error.extensions }] };
}

/** Starts the fake on 127.0.0.1 with a free port. */
export async function startFakeLinear(options: FakeLinearOptions = {}): Promise<FakeLinear> {
  const now = options.now ?? (() => new Date());
  const store = new LinearStore(now, options.teamKey ?? 'ENG');
  if (options.pageSize) store.pageSize = options.pageSize;
  const token = `lin_api_${randomUUID().replaceAll('-', '')}`;
  let calls = 0;
  let failing: { times: number; status: number } = { times: 0, status: 500 };
  let limited: { times: number; seconds: number } = { times: 0, seconds: 0 };
  const served: string[] = [];
  const chosen = new Map<string, { after: boolean; status: number }>();

  function send(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/html' : 'application/json; charset=utf-8',
      ...headers,
    });
    response.end(text);
  }

  function budgetHeaders(remaining: number): Record<string, string> {
    const reset = String(Date.now() + 3_600_000);
    return {
      'x-ratelimit-requests-limit': String(REQUESTS_LIMIT),
      'x-ratelimit-requests-remaining': String(remaining),
      'x-ratelimit-requests-reset': reset,
      'x-ratelimit-complexity-limit': String(COMPLEXITY_LIMIT),
      'x-ratelimit-complexity-remaining': String(COMPLEXITY_LIMIT - 1000),
      'x-ratelimit-complexity-reset': reset,
      'x-complexity': '1000',
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    calls += 1;
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/graphql') {
      send(response, 404, 'Not Found');
      return;
    }
    const raw = await readBody(request);
    const auth = request.headers.authorization ?? '';
    if (auth !== token && auth !== `Bearer ${token}`) {
      // Linear's answer to a missing or refused key.
      send(
        response,
        401,
        errorBody(
          new LinearGraphQLError('Authentication required, not authenticated', {
            type: 'authentication error',
            code: 'AUTHENTICATION_ERROR',
            statusCode: 401,
            userError: true,
            userPresentableMessage:
              'Authentication required, not authenticated. Check that your API key is valid.',
          }),
        ),
      );
      return;
    }
    if (limited.times > 0) {
      limited.times -= 1;
      // Dated by the process's clock, as the adapter turns a reset into a wait with it (the
      // injected clock dates issues, and may be anywhere in time).
      const reset = String(Date.now() + limited.seconds * 1000);
      // Linear answers a spent budget with HTTP 400 and the RATELIMITED code.
      send(
        response,
        400,
        errorBody(
          new LinearGraphQLError('Rate limit exceeded', {
            type: 'ratelimited',
            code: 'RATELIMITED',
            statusCode: 429,
            userError: true,
            userPresentableMessage: 'Too many API requests. Please try again later.',
          }),
        ),
        {
          ...budgetHeaders(0),
          'x-ratelimit-requests-reset': reset,
          'x-ratelimit-complexity-reset': reset,
        },
      );
      return;
    }
    let query: string;
    let variables: Record<string, unknown>;
    try {
      const parsed = JSON.parse(raw) as { query?: unknown; variables?: unknown };
      query = String(parsed.query ?? '');
      variables = (parsed.variables ?? {}) as Record<string, unknown>;
    } catch {
      send(response, 400, { errors: [{ message: 'POST body is not JSON' }] });
      return;
    }
    let operation: ReturnType<typeof parseOperation>;
    try {
      operation = parseOperation(query);
    } catch (error) {
      send(response, 400, {
        errors: [
          {
            message: (error as Error).message,
            extensions: { type: 'graphql error', code: 'GRAPHQL_PARSE_FAILED' },
          },
        ],
      });
      return;
    }
    served.push(operation.name ?? '(anonymous)');
    const fault = chosen.get(operation.name ?? '');
    if (fault) chosen.delete(operation.name ?? '');
    if (fault?.after) execute(operation, variables, store.root());
    if (fault || (operation.kind === 'mutation' && failing.times > 0)) {
      if (!fault) failing.times -= 1;
      const status = fault?.status ?? failing.status;
      if (status === 500) {
        send(
          response,
          500,
          errorBody(
            new LinearGraphQLError('Internal server error', {
              type: 'internal error',
              code: 'INTERNAL_SERVER_ERROR',
              userPresentableMessage: 'Something went wrong on our end.',
            }),
          ),
        );
      } else {
        // A gateway's answer, not Linear's: HTML, no GraphQL body.
        send(response, status, `<html><body>${status}</body></html>`);
      }
      return;
    }
    const result = execute(operation, variables, store.root());
    send(
      response,
      result.errors ? 400 : 200,
      result.errors ? errorBody(result.errors[0]!) : result,
      budgetHeaders(REQUESTS_LIMIT - calls),
    );
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, { errors: [{ message: String(error) }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const toFake = (issue: StoredIssue): FakeIssue => {
    const type = store.stateOf(issue).type;
    return {
      externalId: issue.id,
      key: store.identifier(issue),
      url: store.url(issue),
      title: issue.title,
      body: issue.description,
      state: type === 'completed' || type === 'canceled' ? 'closed' : 'open',
      labels: issue.labelIds.map((id) => store.labels.find((label) => label.id === id)?.name ?? id),
      ...(issue.parentId ? { parent: issue.parentId } : {}),
      blockedBy: store.relations
        .filter((one) => one.type === 'blocks' && one.relatedIssueId === issue.id)
        .map((one) => one.issueId),
      comments: [...issue.comments],
      updatedAt: issue.updatedAt,
    };
  };

  const signed = (payload: Record<string, unknown>, secret: string, signature = 'valid') => {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'linear-delivery': randomUUID(),
      'linear-event': String(payload.type ?? ''),
      'user-agent': 'Linear-Webhook',
    };
    if (signature === 'valid') headers['linear-signature'] = sign(secret, body);
    if (signature === 'wrong') headers['linear-signature'] = sign(`${secret}-not`, body);
    return { headers, body };
  };

  return {
    provider: 'linear',
    baseUrl: `http://127.0.0.1:${port}`,
    credentials: { token },
    target: { team: store.team.key },
    teamId: store.team.id,
    issues: () => store.issues.map(toFake),
    calls: () => calls,
    operations: () => [...served],
    failWrites(times, status = 500) {
      failing = { times, status };
    },
    rateLimit(times, retryAfterSeconds) {
      limited = { times, seconds: retryAfterSeconds };
    },
    seed(issue) {
      return store.add({ title: issue.title, description: issue.body }).id;
    },
    failOperation(name, { after, status = 500 }) {
      chosen.set(name, { after, status });
    },
    label(externalId, name) {
      const issue = store.find(externalId);
      let label = store.labels.find((one) => one.name === name);
      if (!label) {
        label = { id: randomUUID(), name, teamId: null };
        store.labels.push(label);
      }
      issue.labelIds.push(label.id);
    },
    setState(externalId: string, state: IssueState, at?: Date) {
      const issue = store.find(externalId);
      const type = state === 'closed' ? 'completed' : 'unstarted';
      issue.stateId = store.states.find((one) => one.type === type)!.id;
      issue.updatedAt = (at ?? now()).toISOString();
    },
    delivery(externalId, { secret, at, signature = 'valid' }) {
      const issue = store.find(externalId);
      const state = store.stateOf(issue);
      const previous = store.states.find((one) => one.id !== state.id)!;
      const data = {
        id: issue.id,
        identifier: store.identifier(issue),
        number: issue.number,
        title: issue.title,
        description: issue.description,
        url: store.url(issue),
        priority: 0,
        labelIds: issue.labelIds,
        parentId: issue.parentId,
        teamId: store.team.id,
        team: { id: store.team.id, key: store.team.key, name: store.team.name },
        stateId: state.id,
        state: { id: state.id, name: state.name, type: state.type, color: '#888888' },
        createdAt: issue.createdAt,
        updatedAt: at.toISOString(),
      };
      return signed(
        {
          action: 'update',
          type: 'Issue',
          createdAt: at.toISOString(),
          data,
          updatedFrom: { stateId: previous.id, updatedAt: issue.updatedAt },
          url: store.url(issue),
          organizationId: store.organization.id,
          webhookId: randomUUID(),
          webhookTimestamp: at.getTime(),
        },
        secret,
        signature,
      );
    },
    signed: (payload, secret) => signed(payload, secret),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
