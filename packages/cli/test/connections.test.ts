import { Readable } from 'node:stream';
import type { Connection } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT, run } from '../src/index.ts';
import { KEY, pgs, server, useFakeApi } from './fake-api.ts';

// pgs connect github|linear|jira, pgs connections and pgs disconnect in-process against a
// small fake API: tokens come from the environment or stdin, never from a flag's value.

const TOKEN = 'ghp_fromTheEnvironment0123456789abcdef';
const connection = (extra: Partial<Connection> = {}): Connection => ({
  id: 'tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
  provider: 'github',
  name: 'acme/booking',
  baseUrl: null,
  target: { owner: 'acme', repo: 'booking', repositoryId: '42' },
  webhookUrl: 'https://pgs.example.com/api/v1/connections/tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA/webhook',
  reconciledAt: null,
  createdAt: '2026-11-28T15:00:00.000Z',
  ...extra,
});
const created = (extra: Partial<Connection> = {}) => ({
  connection: connection(extra),
  webhook: {
    url: connection().webhookUrl,
    secret: 'mC4dX0a1b2c3d4e5f6g7h8i9j0k1l2m3',
    help: 'Settings → Webhooks → Add webhook',
  },
});

/** `pgs argv` with more environment and a stdin. */
async function pgsWith(argv: string[], env: Record<string, string>, stdin?: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env: { PGS_BASE_URL: server.url, PGS_API_KEY: KEY, ...env },
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }),
    client: { sleep: async () => {} },
  });
  return { code, stdout, stderr };
}

useFakeApi();

describe('pgs connect', () => {
  it('github: reads the token from GITHUB_TOKEN, prints the webhook and its secret once', async () => {
    server.reply(json(201, { success: true, data: created() }));
    const r = await pgsWith(['connect', 'github', '--repo', 'acme/booking'], {
      GITHUB_TOKEN: TOKEN,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain('Connected github acme/booking as tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA.');
    expect(r.stdout).toContain(`  Secret   ${created().webhook.secret}`);
    expect(r.stdout).not.toContain(TOKEN);
    const [post] = server.requests;
    expect(post).toMatchObject({ method: 'POST', url: '/api/v1/connections' });
    expect(JSON.parse(post!.body)).toEqual({
      provider: 'github',
      credentials: { token: TOKEN },
      target: { owner: 'acme', repo: 'booking' },
    });
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('linear: --token-env names the variable; jira: the token from stdin, the site as baseUrl', async () => {
    server.reply(json(201, { success: true, data: created({ provider: 'linear' }) }));
    const linear = await pgsWith(
      ['connect', 'linear', '--team', 'ENG', '--token-env', 'MY_LINEAR', '--json'],
      { MY_LINEAR: 'lin_api_x' },
    );
    expect(linear.code).toBe(EXIT.OK);
    expect(JSON.parse(linear.stdout).connection.provider).toBe('linear');
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      provider: 'linear',
      credentials: { token: 'lin_api_x' },
      target: { team: 'ENG' },
    });

    server.reply(json(201, { success: true, data: created({ provider: 'jira' }) }));
    const jira = await pgsWith(
      [
        'connect',
        'jira',
        '--site',
        'https://acme.atlassian.net',
        '--project',
        'PGS',
        '--email',
        'me@acme.com',
        '--token-stdin',
      ],
      {},
      'atlassian-token\n',
    );
    expect(jira.code).toBe(EXIT.OK);
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      provider: 'jira',
      baseUrl: 'https://acme.atlassian.net',
      credentials: { email: 'me@acme.com', apiToken: 'atlassian-token' },
      target: { projectKey: 'PGS' },
    });
  });

  it('refuses without a token, and has no flag that takes one', async () => {
    const missing = await pgsWith(['connect', 'github', '--repo', 'acme/booking'], {});
    expect(missing.code).toBe(EXIT.USAGE);
    expect(missing.stderr).toContain('GITHUB_TOKEN');
    const flag = await pgsWith(['connect', 'github', '--repo', 'acme/booking', '--token', 'x'], {
      GITHUB_TOKEN: TOKEN,
    });
    expect(flag.code).toBe(EXIT.USAGE);
    expect(server.requests).toEqual([]);
  });

  it("prints the tracker's refusal", async () => {
    server.reply(
      json(
        422,
        envelope('TRACKER_REJECTED', 'github refused: Bad credentials', undefined, {
          provider: 'github',
          reason: 'Bad credentials',
        }),
      ),
    );
    const r = await pgsWith(['connect', 'github', '--repo', 'acme/booking'], {
      GITHUB_TOKEN: TOKEN,
    });
    expect(r.code).not.toBe(EXIT.OK);
    expect(r.stderr).toContain('Bad credentials');
    expect(r.stderr).not.toContain(TOKEN);
  });
});

describe('pgs connections and pgs disconnect', () => {
  it('lists without credentials and deletes by id', async () => {
    server.reply(json(200, { success: true, data: [connection()] }));
    const listed = await pgs(['connections']);
    expect(listed.code).toBe(EXIT.OK);
    expect(listed.stdout).toContain('tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA\tgithub\tacme/booking');

    server.reply((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const removed = await pgs(['disconnect', 'tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA']);
    expect(removed.code).toBe(EXIT.OK);
    expect(removed.stdout).toContain('Deleted connection tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA.');
    expect(server.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: '/api/v1/connections/tc_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
    });

    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No connection with this identifier exists.')),
    );
    expect((await pgs(['disconnect', 'tc_01JD6WQ8V4Z9K3M2N5P7R8S0TB'])).code).toBe(EXIT.NOT_FOUND);
  });
});
