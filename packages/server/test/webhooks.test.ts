import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks } from '@pgs/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { backends, bearer, type Harness, startHarness } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 8 item 3: signed webhooks (docs/api.md "Webhooks"), with the real queue, workers
 * and an HTTP receiver on 127.0.0.1 (PGS_WEBHOOKS_ALLOW_PRIVATE on), and the SSRF rules
 * with it off.
 */

const ROOMY = { points: 100_000, durationSec: 60, window: '1 minute' } as const;
const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** A webhook receiver: records every request; `answer` chooses the status per path. */
async function startReceiver(answer: (path: string, count: number) => number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      });
      res.statusCode = answer(path, received.filter((r) => r.path === path).length);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const headersOf = (r: Received) =>
  Object.fromEntries(Object.entries(r.headers).map(([name, value]) => [name, String(value ?? '')]));

describe.each(await backends())('signed webhooks on %s', (backend) => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((path, count) =>
      path.startsWith('/down') || (path.startsWith('/flaky') && count <= 2) ? 500 : 200,
    );
    h = await startHarness(backend, {
      generation: 'workers',
      webhooks: { allowPrivate: true, retryScheduleMs: [1_000], pollingIntervalSeconds: 0.5 },
      rules: {
        create: { name: 'create', ...ROOMY },
        status: { name: 'status', ...ROOMY },
        webhooks: { name: 'webhooks', ...ROOMY },
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  const createEndpoint = (key: CreatedKey, body: unknown) =>
    h.request({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const deliveries = (key: CreatedKey, id: string) =>
    h.request({
      method: 'GET',
      url: `/api/v1/webhook-endpoints/${id}/deliveries`,
      headers: bearer(key.key),
    });
  async function runProject(key: CreatedKey, outcome: 'completed' | 'failed'): Promise<string> {
    const res = await h.createProject(key, {
      idea: IDEA,
      type: 'web',
      simulate: { outcome, durationMs: 0 },
    });
    expect(res.statusCode).toBe(202);
    return res.json().data.projectId;
  }

  it('creates an endpoint with its secret shown once, and lists it without', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const res = await createEndpoint(key, { url: receiver.url('/created') });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.id).toMatch(/^we_[0-9A-Z]{26}$/);
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(data.secret.slice(6), 'base64')).toHaveLength(24);
    expect(data.events).toEqual(['project.completed', 'project.failed', 'project.revised']);
    const list = await h.request({
      method: 'GET',
      url: '/api/v1/webhook-endpoints',
      headers: bearer(key.key),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      { id: data.id, url: data.url, events: data.events, createdAt: data.createdAt },
    ]);
    expect(list.body).not.toContain(data.secret);
    // The other mode of the same account sees none of them.
    const live = await h.createKey('live', { accountId: key.accountId });
    const liveList = await h.request({
      method: 'GET',
      url: '/api/v1/webhook-endpoints',
      headers: bearer(live.key),
    });
    expect(liveList.json().data).toEqual([]);
  });

  it('replays the first 201, secret included, for the same Idempotency-Key', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const post = (body: unknown) =>
      h.request({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        headers: {
          ...bearer(key.key),
          'content-type': 'application/json',
          'idempotency-key': 'create-endpoint-1',
        },
        payload: JSON.stringify(body),
      });
    const first = await post({ url: receiver.url('/idempotent') });
    expect(first.statusCode).toBe(201);
    const replay = await post({ url: receiver.url('/idempotent') });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data).toEqual(first.json().data);
    expect(replay.json().data.secret).toMatch(/^whsec_/);
    const other = await post({ url: receiver.url('/idempotent-other') });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const list = await h.request({
      method: 'GET',
      url: '/api/v1/webhook-endpoints',
      headers: bearer(key.key),
    });
    expect(list.json().data.map((e: { id: string }) => e.id)).toEqual([first.json().data.id]);
  });

  it('delivers project.completed once, signed so that the SDK verifies it', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const endpoint = (await createEndpoint(key, { url: receiver.url('/completed') })).json().data;
    const projectId = await runProject(key, 'completed');
    const [message] = await waitFor(
      async () => (receiver.at('/completed').length > 0 ? receiver.at('/completed') : undefined),
      { what: 'the webhook' },
    );
    const headers = headersOf(message!);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('PGS-Webhooks/1');
    expect(headers['webhook-id']).toMatch(/^msg_[0-9A-Z]{26}$/);
    const event = await webhooks.verify(message!.body, headers, endpoint.secret);
    expect(event).toMatchObject({
      type: 'project.completed',
      data: { projectId, status: 'completed' },
    });
    expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
    // The same bytes fail with another secret.
    await expect(
      webhooks.verify(message!.body, headers, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    ).rejects.toThrow(/signature/);
    const log = await waitFor(async () => {
      const rows = (await deliveries(key, endpoint.id)).json().data;
      return rows.length > 0 ? rows : undefined;
    });
    expect(log).toEqual([
      expect.objectContaining({
        webhookId: headers['webhook-id'],
        eventType: 'project.completed',
        projectId,
        attempt: 1,
        statusCode: 200,
        error: null,
        nextAttemptAt: null,
        state: 'succeeded',
      }),
    ]);
    expect(receiver.at('/completed')).toHaveLength(1);
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const endpoint = (await createEndpoint(key, { url: receiver.url('/flaky') })).json().data;
    await runProject(key, 'completed');
    const attempts = await waitFor(
      async () => (receiver.at('/flaky').length >= 3 ? receiver.at('/flaky') : undefined),
      { what: 'three attempts' },
    );
    const ids = attempts.map((a) => headersOf(a)['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const stamps = attempts.map((a) => Number(headersOf(a)['webhook-timestamp']));
    expect(stamps[1]).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]).toBeGreaterThan(stamps[1]!);
    for (const attempt of attempts) {
      await webhooks.verify(attempt.body, headersOf(attempt), endpoint.secret, {
        now: Number(headersOf(attempt)['webhook-timestamp']) * 1000,
      });
    }
    const log = await waitFor(async () => {
      const rows = (await deliveries(key, endpoint.id)).json().data;
      return rows.length >= 3 ? rows : undefined;
    });
    expect(
      log.map((r: { attempt: number; statusCode: number; state: string }) => [
        r.attempt,
        r.statusCode,
        r.state,
      ]),
    ).toEqual([
      [3, 200, 'succeeded'],
      [2, 500, 'retrying'],
      [1, 500, 'retrying'],
    ]);
    expect(log[1].nextAttemptAt).not.toBeNull();
    expect(new Set(log.map((r: { webhookId: string }) => r.webhookId))).toEqual(new Set(ids));
    expect(receiver.at('/flaky')).toHaveLength(3);
  });

  it('stops attempting once the endpoint is deleted', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const endpoint = (await createEndpoint(key, { url: receiver.url('/down') })).json().data;
    await runProject(key, 'completed');
    const [first] = await waitFor(async () =>
      receiver.at('/down').length > 0 ? receiver.at('/down') : undefined,
    );
    const messageId = headersOf(first!)['webhook-id'];
    // The retry is scheduled once the first attempt is recorded.
    await waitFor(async () => {
      const rows = (await deliveries(key, endpoint.id)).json().data;
      return rows.length > 0 ? rows : undefined;
    });
    const removed = await h.request({
      method: 'DELETE',
      url: `/api/v1/webhook-endpoints/${endpoint.id}`,
      headers: bearer(key.key),
    });
    expect(removed.statusCode).toBe(204);
    // The second attempt's job runs (after the 1 s pause), finds no endpoint and ends.
    await waitFor(
      async () => {
        const result = await h.database.db.execute(
          sql`select state from pgboss.job where name = 'pgs-webhooks' and data->>'messageId' = ${messageId} and (data->>'attempt')::int = 2`,
        );
        const rows = (result as unknown as { rows: { state: string }[] }).rows;
        return rows[0]?.state === 'completed' ? true : undefined;
      },
      { what: 'the second attempt to end' },
    );
    expect(receiver.at('/down')).toHaveLength(1);
  });

  it('sends project.failed, and only the events an endpoint subscribed to', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const failedOnly = (
      await createEndpoint(key, { url: receiver.url('/failed-only'), events: ['project.failed'] })
    ).json().data;
    expect(failedOnly.events).toEqual(['project.failed']);
    const completedOnly = (
      await createEndpoint(key, {
        url: receiver.url('/completed-only'),
        events: ['project.completed'],
      })
    ).json().data;
    const done = await runProject(key, 'completed');
    const failed = await runProject(key, 'failed');
    const [message] = await waitFor(async () =>
      receiver.at('/failed-only').length > 0 ? receiver.at('/failed-only') : undefined,
    );
    const event = await webhooks.verify(message!.body, headersOf(message!), failedOnly.secret);
    expect(event).toMatchObject({
      type: 'project.failed',
      data: { projectId: failed, status: 'failed' },
    });
    const [other] = await waitFor(async () =>
      receiver.at('/completed-only').length > 0 ? receiver.at('/completed-only') : undefined,
    );
    expect(JSON.parse(other!.body).data.projectId).toBe(done);
    // Both projects have ended and been delivered: each endpoint got its one event only.
    await waitFor(async () => {
      const a = (await deliveries(key, failedOnly.id)).json().data;
      const b = (await deliveries(key, completedOnly.id)).json().data;
      return a.length === 1 && b.length === 1 ? true : undefined;
    });
    expect(receiver.at('/failed-only')).toHaveLength(1);
    expect(receiver.at('/completed-only')).toHaveLength(1);
  });

  it('answers 404 for another account, deletes, and refuses an 11th endpoint', async () => {
    const key = await h.createKey('test', { credits: 1000 });
    const other = await h.createKey('test');
    const created = (await createEndpoint(key, { url: receiver.url('/mine') })).json().data;
    const foreign = await deliveries(other, created.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('RESOURCE_NOT_FOUND');
    const foreignDelete = await h.request({
      method: 'DELETE',
      url: `/api/v1/webhook-endpoints/${created.id}`,
      headers: bearer(other.key),
    });
    expect(foreignDelete.statusCode).toBe(404);
    for (let i = 1; i < 10; i++) {
      expect((await createEndpoint(key, { url: receiver.url(`/many/${i}`) })).statusCode).toBe(201);
    }
    const eleventh = await createEndpoint(key, { url: receiver.url('/many/11') });
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json().error.code).toBe('VALIDATION_ERROR');
    const removed = await h.request({
      method: 'DELETE',
      url: `/api/v1/webhook-endpoints/${created.id}`,
      headers: bearer(key.key),
    });
    expect(removed.statusCode).toBe(204);
    expect((await deliveries(key, created.id)).statusCode).toBe(404);
    expect((await createEndpoint(key, { url: receiver.url('/many/10') })).statusCode).toBe(201);
  });
});

describe.each(await backends())('webhook URL rules on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, { rules: { webhooks: { name: 'webhooks', ...ROOMY } } });
  });
  afterAll(async () => h?.close());

  it.each([
    'http://hooks.example.com/pgs',
    'https://127.0.0.1/pgs',
    'https://10.0.0.1/pgs',
    'https://[::1]/pgs',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/pgs',
    'https://[fd00::1]/pgs',
    'https://[::ffff:127.0.0.1]/pgs',
    'https://localhost/pgs',
    'not a url',
  ])('refuses %s with 400 naming url', async (url) => {
    const key = await h.createKey('test');
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ url }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.invalid_fields).toHaveProperty('url');
  });

  it('refuses unknown event types', async () => {
    const key = await h.createKey('test');
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://8.8.8.8/pgs', events: ['project.deleted'] }),
    });
    expect(res.statusCode).toBe(400);
  });
});
