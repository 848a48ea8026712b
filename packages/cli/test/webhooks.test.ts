import type { WebhookDelivery, WebhookEndpoint } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';

// pgs webhooks create, list, delete and deliveries in-process against a small fake API; the
// SDK's retry pauses are virtual.

const ID = 'we_01JD6WQ8V4Z9K3M2N5P7R8S0TA';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const URL = 'https://hooks.example.com/pgs';

const endpoint = (n: number, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: `we_01JD6WQ8V4Z9K3M2N5P7R8S0T${n}`,
  url: `https://hooks.example.com/${n}`,
  events: ['project.completed', 'project.failed'],
  createdAt: `2026-01-0${n}T10:00:00.000Z`,
  ...extra,
});
const delivery = (attempt: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  webhookId: 'msg_01JD6WQ8V4Z9K3M2N5P7R8S0TB',
  eventType: 'project.completed',
  projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
  attempt,
  statusCode: 200,
  error: null,
  durationMs: 42,
  attemptedAt: `2026-01-01T10:0${attempt}:00.000Z`,
  nextAttemptAt: null,
  state: 'succeeded',
  ...extra,
});
const notFound = () =>
  json(404, envelope('RESOURCE_NOT_FOUND', 'No webhook endpoint with this identifier exists.'));

useFakeApi();

describe('pgs webhooks create', () => {
  const created = {
    ...endpoint(1, { id: ID, url: URL, events: ['project.failed'] }),
    secret: SECRET,
  };

  it('prints the id and the secret, once, with an idempotency key on the POST', async () => {
    server.reply(json(201, { success: true, data: created }));
    const r = await pgs(['webhooks', 'create', URL, '--events', 'project.failed']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain(`Created webhook endpoint ${ID}.`);
    expect(r.stdout).toContain(`  Secret   ${SECRET}`);
    expect(r.stdout).toContain('This secret is shown only now');
    const [post] = server.requests;
    expect(post).toMatchObject({ method: 'POST', url: '/api/v1/webhook-endpoints' });
    expect(JSON.parse(post!.body)).toEqual({ url: URL, events: ['project.failed'] });
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a retry after a 503 sends the same idempotency key', async () => {
    server.reply(
      json(503, envelope('INTERNAL_ERROR', 'Try again.')),
      json(201, { success: true, data: created }),
    );
    const r = await pgs(['webhooks', 'create', URL, '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(JSON.parse(r.stdout)).toEqual(created);
    const [first, second] = server.requests;
    expect(JSON.parse(first!.body)).toEqual({ url: URL });
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });

  it('a URL the server refuses: exit 5 with the field', async () => {
    server.reply(
      json(
        400,
        envelope('VALIDATION_ERROR', 'url must use https.', 'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA', {
          invalid_fields: { url: 'must use https' },
        }),
      ),
    );
    const r = await pgs(['webhooks', 'create', 'http://hooks.example.com']);
    expect(r.code).toBe(EXIT.VALIDATION);
    expect(r.stderr).toContain('  url: must use https');
  });

  it('bad arguments are usage errors before any request', async () => {
    for (const argv of [
      ['webhooks', 'create'],
      ['webhooks', 'create', URL, 'extra'],
      ['webhooks', 'create', URL, '--events', 'project.started'],
      ['webhooks', 'create', URL, '--events', ','],
      ['webhooks', 'list', 'extra'],
      ['webhooks', 'delete'],
      ['webhooks', 'deliveries'],
      ['webhooks', 'rename', ID],
    ]) {
      const r = await pgs(argv);
      expect(r.code, argv.join(' ')).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('pgs webhooks list', () => {
  const two = [endpoint(1), endpoint(2, { events: ['project.failed'] })];

  it('on a terminal: a table; piped: tab-separated lines; --json: one line', async () => {
    server.reply(json(200, { success: true, data: two }));
    const r = await pgs(['webhooks', 'list'], { tty: true });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        'ID                             EVENTS                            CREATED               URL',
        `${two[0]!.id}  project.completed,project.failed  2026-01-01T10:00:00Z  https://hooks.example.com/1`,
        `${two[1]!.id}  project.failed                    2026-01-02T10:00:00Z  https://hooks.example.com/2`,
        '',
      ].join('\n'),
    );
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/api/v1/webhook-endpoints' });

    server.reply(json(200, { success: true, data: two }));
    const piped = await pgs(['webhooks', 'list']);
    expect(piped.stdout.split('\n')[1]).toBe(
      `${two[1]!.id}\tproject.failed\t2026-01-02T10:00:00Z\thttps://hooks.example.com/2`,
    );

    server.reply(json(200, { success: true, data: two }));
    const j = await pgs(['webhooks', 'list', '--json']);
    expect(JSON.parse(j.stdout)).toEqual({ data: two });
    expect(j.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('none on a terminal says how to create one', async () => {
    server.reply(json(200, { success: true, data: [] }));
    const r = await pgs(['webhooks', 'list'], { tty: true });
    expect(r.stdout).toBe('No webhook endpoints. Create one with: pgs webhooks create URL\n');
  });
});

describe('pgs webhooks delete', () => {
  it('deletes and says so; --json prints one line', async () => {
    server.reply((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const r = await pgs(['webhooks', 'delete', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(`Deleted webhook endpoint ${ID}.\n`);
    expect(server.requests[0]).toMatchObject({
      method: 'DELETE',
      url: `/api/v1/webhook-endpoints/${ID}`,
    });
    const j = await pgs(['webhooks', 'delete', ID, '--json']);
    expect(JSON.parse(j.stdout)).toEqual({ id: ID, deleted: true });
  });

  it('an unknown endpoint: exit 4', async () => {
    server.reply(notFound());
    const r = await pgs(['webhooks', 'delete', ID]);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stderr).toMatch(/RESOURCE_NOT_FOUND/);
  });
});

describe('pgs webhooks deliveries', () => {
  const attempts = [
    delivery(2),
    delivery(1, {
      statusCode: null,
      error: 'connection refused',
      nextAttemptAt: '2026-01-01T10:02:00.000Z',
      state: 'retrying',
    }),
  ];

  it('piped: one tab-separated line per attempt; --json: the attempts as listed', async () => {
    server.reply(json(200, { success: true, data: attempts }));
    const r = await pgs(['webhooks', 'deliveries', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      `2026-01-01T10:02:00Z\tsucceeded\tproject.completed\t2\t200\t${attempts[0]!.projectId}\t-`,
      `2026-01-01T10:01:00Z\tretrying\tproject.completed\t1\t-\t${attempts[0]!.projectId}\tconnection refused`,
    ]);
    expect(server.requests[0]?.url).toBe(`/api/v1/webhook-endpoints/${ID}/deliveries`);

    server.reply(json(200, { success: true, data: attempts }));
    const j = await pgs(['webhooks', 'deliveries', ID, '--json']);
    expect(JSON.parse(j.stdout)).toEqual({ data: attempts });
  });

  it('none on a terminal says so; an unknown endpoint exits 4', async () => {
    server.reply(json(200, { success: true, data: [] }));
    expect((await pgs(['webhooks', 'deliveries', ID], { tty: true })).stdout).toBe(
      'No delivery attempts yet.\n',
    );
    server.reply(notFound());
    expect((await pgs(['webhooks', 'deliveries', ID])).code).toBe(EXIT.NOT_FOUND);
  });

  it('--help shows the usage and the exit codes', async () => {
    const r = await pgs(['webhooks', 'deliveries', '--help']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain('Usage: pgs webhooks deliveries ID [--json]');
    expect(r.stdout).toContain('Exit codes:');
  });
});
