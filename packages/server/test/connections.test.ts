/**
 * Tracker connections (issue 31, item 1): made only once the tracker accepts the token and
 * the target (here a fake GitHub on loopback, the real Octokit adapter against it), never
 * shown or logged with their credentials, sealed at rest, one account's and mode's alone.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { newUlid } from '../src/ids.ts';
import {
  idempotencyKeys,
  projectTasks,
  trackerConnections,
  trackerLinks,
} from '../src/storage/schema.ts';
import { insertTrackerConnection } from '../src/storage/sql/trackers.ts';
import { Connections, openConnection, sealContext } from '../src/trackers/connections.ts';
import { githubAdapter } from '../src/trackers/providers/github.ts';
import { adapterFor } from '../src/trackers/providers/index.ts';
import { TrackerRequestError } from '../src/trackers/providers/provider.ts';
import { Sealer } from '../src/trackers/sealed.ts';
import { type FakeGitHub, startFakeGitHub } from './fakes/github.ts';
import { bearer, buildTestApp, type Harness, startHarness } from './helpers/harness.ts';
import { completedWithPlan, planDocument } from './helpers/tasks.ts';

const ring = { current: randomBytes(32), previous: [] };
const adapters = (provider: 'github' | 'linear' | 'jira') =>
  provider === 'github' ? githubAdapter : adapterFor(provider);
const lines: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  }),
);

let h: Harness;
let fake: FakeGitHub;
let key: CreatedKey;

beforeAll(async () => {
  fake = await startFakeGitHub();
  h = await startHarness('pglite', {
    trackers: { sealer: Sealer.of(ring), allowPrivate: true, adapters },
    logger,
  });
  key = await h.createKey('test');
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const token = () => (fake.credentials as { token: string }).token;
const body = (overrides: Record<string, unknown> = {}) => ({
  provider: 'github',
  baseUrl: fake.baseUrl,
  credentials: fake.credentials,
  target: fake.target,
  ...overrides,
});
const create = (k: CreatedKey, payload: unknown, headers: Record<string, string> = {}) =>
  h.request({
    method: 'POST',
    url: '/api/v1/connections',
    headers: { ...bearer(k.key), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });
const read = (k: CreatedKey, url: string, method: 'GET' | 'DELETE' = 'GET') =>
  h.request({ method, url: `/api/v1${url}`, headers: bearer(k.key) });

describe('creating a connection', () => {
  it('verifies with the tracker and answers the connection and, once, the webhook secret', async () => {
    const res = await create(key, body({ name: 'Booking issues' }), { 'idempotency-key': 'c-1' });
    expect(res.statusCode).toBe(201);
    const { connection, webhook } = res.json().data;
    expect(connection).toMatchObject({
      provider: 'github',
      name: 'Booking issues',
      baseUrl: fake.baseUrl,
      target: { owner: 'acme', repo: 'booking' },
      reconciledAt: null,
    });
    expect(connection.id).toMatch(/^tc_/);
    // Without PGS_PUBLIC_URL, the request's own host.
    expect(webhook.url).toBe(`http://localhost:80/api/v1/connections/${connection.id}/webhook`);
    expect(connection.webhookUrl).toBe(webhook.url);
    expect(webhook.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(webhook.help).toMatch(/Webhooks/);
    expect(res.body).not.toContain(token());

    // A retry under the same key replays the 201 (the same secret), making nothing new.
    const again = await create(key, body({ name: 'Booking issues' }), { 'idempotency-key': 'c-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.webhook.secret).toBe(webhook.secret);
    expect(again.json().data.connection).toEqual(connection);
    // The remembered 201 (kept 24 h) holds the secret sealed, never in plain text.
    const [remembered] = await h.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'c-1'));
    expect(remembered!.responseBody).toContain(connection.id);
    expect(remembered!.responseBody).not.toContain(webhook.secret);
    expect(JSON.stringify(remembered)).not.toContain(webhook.secret);

    const listed = await read(key, '/connections');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toEqual([connection.id]);
    const one = await read(key, `/connections/${connection.id}`);
    expect(one.json().data).toEqual(connection);
    for (const answer of [listed, one]) {
      expect(answer.body).not.toContain(token());
      expect(answer.body).not.toContain(webhook.secret);
    }

    // Sealed at rest: neither the token nor the secret is in the row.
    const [row] = await h.database.db
      .select()
      .from(trackerConnections)
      .where(eq(trackerConnections.id, connection.id));
    expect(row!.credentials).toMatch(/^v1\.[A-Za-z0-9_-]{8}\./);
    expect(row!.webhookSecret).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(token());
    expect(JSON.stringify(row)).not.toContain(webhook.secret);
  });

  it('builds the webhook URL from PGS_PUBLIC_URL when set, not from the request', async () => {
    // A second app on the same database (in-process, never listening) with the public address.
    const app = await buildTestApp(h.database, {
      trackers: { sealer: Sealer.of(ring), allowPrivate: true, adapters },
      publicUrl: 'https://pgs.example.com/base',
    });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/connections',
        headers: { ...bearer(key.key), 'content-type': 'application/json' },
        payload: JSON.stringify(body({ name: 'Public' })),
      });
      expect(res.statusCode).toBe(201);
      const { connection, webhook } = res.json().data;
      const url = `https://pgs.example.com/base/api/v1/connections/${connection.id}/webhook`;
      expect(webhook.url).toBe(url);
      expect(connection.webhookUrl).toBe(url);
      const one = await app.inject({
        url: `/api/v1/connections/${connection.id}`,
        headers: bearer(key.key),
      });
      expect(one.json().data.webhookUrl).toBe(url);
      await read(key, `/connections/${connection.id}`, 'DELETE');
    } finally {
      await app.close();
    }
  });

  it("answers a wrong token 422 TRACKER_REJECTED with the tracker's reason, storing nothing", async () => {
    const before = (await read(key, '/connections')).json().data.length;
    const wrong = 'ghp_wrongTokenWrongToken0123456789abcdef';
    const res = await create(key, body({ credentials: { token: wrong } }));
    expect(res.statusCode).toBe(422);
    const { error } = res.json();
    expect(error.code).toBe('TRACKER_REJECTED');
    expect(error.details).toMatchObject({ provider: 'github', provider_status: 401 });
    expect(error.details.reason).toMatch(/credentials/i);
    expect(res.body).not.toContain(wrong);
    expect((await read(key, '/connections')).json().data.length).toBe(before);
  });

  it('answers an unknown repository 422 TRACKER_REJECTED', async () => {
    const res = await create(key, body({ target: { owner: 'acme', repo: 'nowhere' } }));
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('TRACKER_REJECTED');
  });

  it('answers a tracker limiting our rate 502 TRACKER_UNAVAILABLE, with its wait', async () => {
    fake.rateLimit(1, 42);
    const res = await create(key, body());
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatchObject({
      code: 'TRACKER_UNAVAILABLE',
      details: { provider: 'github', retry_after: 42 },
    });
  });

  it('refuses a body the adapter does not accept, naming why', async () => {
    const res = await create(key, body({ target: { team: 'ENG' } }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.message).toMatch(/owner, repo/);
  });

  it('never writes a token or a webhook secret into a log line', async () => {
    const res = await create(key, body());
    expect(res.statusCode).toBe(201);
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('\n');
    expect(log).not.toContain(token());
    expect(log).not.toContain(res.json().data.webhook.secret);
    expect(log).not.toContain('ghp_wrongTokenWrongToken');
  });
});

describe('the address policy and the key', () => {
  const service = (allowPrivate: boolean, sealer = Sealer.of(ring)) =>
    new Connections({ db: h.database.db, sealer, adapters }, { allowPrivate });
  const owner = () => ({ accountId: key.accountId, mode: key.mode });

  it('refuses a private or plain-http baseUrl without PGS_CONNECTIONS_ALLOW_PRIVATE', async () => {
    const calls = fake.calls();
    const https = fake.baseUrl.replace(/^http:/, 'https:');
    for (const baseUrl of [fake.baseUrl, https, 'https://10.0.0.7/api/v3']) {
      await expect(
        service(false).create(
          owner(),
          { ...body({ baseUrl }), provider: 'github' },
          async () => {},
        ),
      ).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { invalid_fields: { baseUrl: expect.any(String) } },
      });
    }
    // Refused before the tracker is called.
    expect(fake.calls()).toBe(calls);
  });

  it('refuses to connect without an encryption key (ENCRYPTION_NOT_CONFIGURED), calling nobody', async () => {
    const calls = fake.calls();
    await expect(
      service(true, Sealer.of(undefined)).create(
        owner(),
        { ...body(), provider: 'github' },
        async () => {},
      ),
    ).rejects.toMatchObject({ code: 'ENCRYPTION_NOT_CONFIGURED' });
    expect(fake.calls()).toBe(calls);
  });
});

describe('isolation and deletion', () => {
  it("answers another account's or mode's connection 404, and deletes the owner's with its links", async () => {
    const made = await create(key, body());
    const id = made.json().data.connection.id as string;
    const stranger = await h.createKey('test');
    const live = await h.createKey('live', { accountId: key.accountId });
    for (const other of [stranger, live]) {
      expect((await read(other, `/connections/${id}`)).statusCode).toBe(404);
      expect((await read(other, `/connections/${id}`, 'DELETE')).statusCode).toBe(404);
      expect((await read(other, '/connections')).json().data).toEqual([]);
    }

    const projectId = await completedWithPlan(h.database, key, [planDocument(2)]);
    const [task] = await h.database.db
      .select()
      .from(projectTasks)
      .where(eq(projectTasks.projectId, projectId));
    await h.database.db.insert(trackerLinks).values({
      connectionId: id,
      projectId,
      itemId: task!.taskId,
      externalId: '1',
      externalKey: '#1',
      url: `${fake.baseUrl}/acme/booking/issues/1`,
      digest: 'x',
      state: 'open',
    });
    const deleted = await read(key, `/connections/${id}`, 'DELETE');
    expect(deleted.statusCode).toBe(204);
    expect((await read(key, `/connections/${id}`)).statusCode).toBe(404);
    expect((await read(key, `/connections/${id}`, 'DELETE')).statusCode).toBe(404);
    const links = await h.database.db
      .select()
      .from(trackerLinks)
      .where(eq(trackerLinks.connectionId, id));
    expect(links).toEqual([]);
  });
});

describe('every call to a tracker is pinned (no rebinding, no redirects)', () => {
  const owner = () => ({ accountId: key.accountId, mode: key.mode });
  const sealer = Sealer.of(ring);
  const trackers = {
    github: {
      baseUrl: 'https://tracker.example/api/v3',
      credentials: { token: 'ghp_0123456789' },
      target: { owner: 'acme', repo: 'booking' },
    },
    linear: {
      baseUrl: 'https://tracker.example',
      credentials: { token: 'lin_api_0123456789' },
      target: { team: 'ENG' },
    },
    jira: {
      baseUrl: 'https://tracker.example',
      credentials: { email: 'a@b.co', apiToken: 'jira0123456789' },
      target: { projectKey: 'PGS' },
    },
  } as const;

  it('refuses a connection whose host resolves to a private address after creation', async () => {
    for (const [provider, made] of Object.entries(trackers)) {
      const id = `tc_${newUlid()}`;
      // Stored as creation stores it: the host was public when it was checked.
      await insertTrackerConnection(h.database.db, {
        id,
        ...owner(),
        provider: provider as keyof typeof trackers,
        name: provider,
        baseUrl: made.baseUrl,
        target: made.target,
        credentials: await sealer.seal(
          JSON.stringify(made.credentials),
          sealContext.credentials(id),
        ),
        webhookSecret: await sealer.seal('s', sealContext.webhookSecret(id)),
      });
      // Now it resolves to the metadata address: refused at the socket's lookup.
      const asked: string[] = [];
      const resolve = async (host: string) => {
        asked.push(host);
        return ['169.254.169.254'];
      };
      const { client } = await openConnection(
        { db: h.database.db, sealer, adapters, network: { allowPrivate: false, resolve } },
        { ...owner(), connectionId: id },
      );
      const failure = await client.get('1').catch((error: unknown) => error);
      expect(failure, provider).toBeInstanceOf(TrackerRequestError);
      expect((failure as TrackerRequestError).reason, provider).toMatch(
        /^refused to connect: tracker\.example → 169\.254\.169\.254 /,
      );
      expect((failure as TrackerRequestError).retryable).toBe(false);
      expect(asked, provider).toContain('tracker.example');
    }
  });

  it('checks the address again when verifying a new connection (DNS rebinding)', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const resolve = async () => answers.shift() ?? ['127.0.0.1'];
    const service = new Connections(
      { db: h.database.db, sealer, adapters },
      { allowPrivate: false, resolve },
    );
    const before = (await read(key, '/connections')).json().data.length;
    await expect(
      service.create(owner(), { provider: 'github', ...trackers.github }, async () => {}),
    ).rejects.toMatchObject({
      code: 'TRACKER_REJECTED',
      details: { reason: expect.stringMatching(/tracker\.example → 127\.0\.0\.1/) },
    });
    expect(answers).toEqual([]);
    expect((await read(key, '/connections')).json().data.length).toBe(before);
  });

  it('never follows a redirect, even with PGS_CONNECTIONS_ALLOW_PRIVATE', async () => {
    const inside = createServer((_req, res) => res.end('{"secret":"metadata"}'));
    let reached = 0;
    inside.on('request', () => reached++);
    await new Promise<void>((done) => inside.listen(0, '127.0.0.1', done));
    const insideUrl = `http://127.0.0.1:${(inside.address() as AddressInfo).port}/latest/meta-data`;
    const redirector = createServer((_req, res) => {
      res.writeHead(302, { location: insideUrl }).end();
    });
    await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    const port = (redirector.address() as AddressInfo).port;
    try {
      const res = await create(key, body({ baseUrl: `http://127.0.0.1:${port}/api/v3` }));
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('TRACKER_REJECTED');
      expect(res.json().error.details.reason).toBe(
        `the tracker redirected to ${new URL(insideUrl).origin}/latest/meta-data; redirects are not followed`,
      );
      expect(reached).toBe(0);
    } finally {
      redirector.close();
      inside.close();
    }
  });
});
