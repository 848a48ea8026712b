import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Env } from '../src/config.ts';
import { EXIT, run } from '../src/index.ts';
import { ADMIN_TOKEN, envelope, type FakeAdminServer, startFakeAdmin } from './admin-server.ts';

let server: FakeAdminServer;
let tmp: string;

beforeAll(async () => {
  server = await startFakeAdmin();
  tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-'));
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function pgs(argv: string[], env: Env = {}, cwd = tmp): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env: { PGS_BASE_URL: server.url, PGS_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    // Retries happen, but without sleeping.
    client: { sleep: async () => {} },
  });
  return { code, stdout, stderr };
}

describe('keys create', () => {
  it('--json prints exactly one line with key, keyId, accountId and mode', async () => {
    const r = await pgs(['keys', 'create', '--mode', 'test', '--credits', '50', '--json']);
    expect(r).toMatchObject({ code: EXIT.OK, stderr: '' });
    const lines = r.stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const out = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(out)).toEqual(['key', 'keyId', 'accountId', 'mode']);
    expect(out.key).toMatch(/^pgs_test_[0-9A-Za-z]{32,}$/);
    expect(out.keyId).toMatch(/^key_/);
    expect(out.accountId).toMatch(/^acct_/);
    expect(out.mode).toBe('test');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/admin/v1/keys',
      authorization: `Bearer ${ADMIN_TOKEN}`,
      body: { mode: 'test', credits: 50 },
    });
    expect(server.requests[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes --account and --name, and says in text that the key is shown once', async () => {
    const r = await pgs([
      'keys',
      'create',
      '--mode=live',
      '--account',
      'acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
      '--name',
      'ci',
    ]);
    expect(r.code).toBe(EXIT.OK);
    expect(server.requests[0]?.body).toEqual({
      mode: 'live',
      accountId: 'acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
      name: 'ci',
    });
    expect(r.stdout).toContain('Created a live API key.');
    expect(r.stdout).toContain('pgs_live_');
    expect(r.stdout).toContain('acct_01JD6WQ8V4Z9K3M2N5P7R8S0TA');
    expect(r.stdout).toMatch(/shown only once/);
    expect(r.stdout).toContain('pgs keys revoke key_');
  });

  it.each([
    [['keys', 'create'], /missing --mode/],
    [['keys', 'create', '--mode', 'prod'], /--mode must be test or live/],
    [['keys', 'create', '--mode', 'test', '--credits', 'ten'], /--credits must be an integer/],
    [['keys', 'create', '--mode', 'test', '--credits=-1'], /--credits must be an integer/],
    [['keys', 'create', '--mode', 'test', '--bogus'], /Unknown option '--bogus'/],
    [['keys', 'create', '--mode', 'test', 'extra'], /unexpected argument "extra"/],
    [['keys', 'create', '--mode'], /argument missing/],
  ])('usage error for %j', async (argv, message) => {
    const r = await pgs(argv);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain("Run 'pgs keys create --help' for usage.");
    expect(server.requests).toHaveLength(0);
  });
});

describe('keys revoke and credits grant', () => {
  it('revokes a key', async () => {
    const created = await pgs(['keys', 'create', '--mode', 'test', '--json']);
    const { keyId } = JSON.parse(created.stdout) as { keyId: string };
    const text = await pgs(['keys', 'revoke', keyId]);
    expect(text.code).toBe(EXIT.OK);
    expect(text.stdout).toMatch(new RegExp(`^Revoked test key ${keyId} `));
    const json = await pgs(['keys', 'revoke', keyId, '--json']);
    expect(json.code).toBe(EXIT.OK);
    expect(JSON.parse(json.stdout)).toMatchObject({ keyId, mode: 'test' });
    expect(server.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `/admin/v1/keys/${keyId}`,
    });
  });

  it('needs exactly one KEY_ID', async () => {
    expect((await pgs(['keys', 'revoke'])).stderr).toMatch(/missing KEY_ID/);
    expect((await pgs(['keys', 'revoke', 'a', 'b'])).code).toBe(EXIT.USAGE);
  });

  it('grants credits', async () => {
    const args = ['credits', 'grant', '--account', 'acct_A', '--mode', 'test', '--amount', '30'];
    const text = await pgs(args);
    expect(text.code).toBe(EXIT.OK);
    expect(text.stdout).toBe('Granted 30 test credits to acct_A; the test balance is now 30.\n');
    const json = await pgs([...args, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      accountId: 'acct_A',
      mode: 'test',
      amount: 30,
      balance: 60,
    });
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: '/admin/v1/credits/grants',
      body: { accountId: 'acct_A', mode: 'test', amount: 30 },
    });
  });

  it.each([
    [['credits', 'grant', '--mode', 'test', '--amount', '1'], /missing --account/],
    [['credits', 'grant', '--account', 'acct_A', '--amount', '1'], /missing --mode/],
    [['credits', 'grant', '--account', 'acct_A', '--mode', 'test'], /missing --amount/],
    [['credits', 'grant', '--account', 'a', '--mode', 'test', '--amount', '0'], /from 1 to/],
  ])('usage error for %j', async (argv, message) => {
    const r = await pgs(argv);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain("Run 'pgs credits grant --help' for usage.");
  });
});

describe('help and dispatch', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the program help on stdout', async (flag) => {
    const r = await pgs([flag]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain('Usage: pgs <command> [options]');
    for (const name of ['keys create', 'keys revoke', 'credits grant']) {
      expect(r.stdout).toContain(name);
    }
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stdout).toMatch(/7 {2}connection/);
  });

  it.each([
    ['keys', 'create'],
    ['keys', 'revoke'],
    ['credits', 'grant'],
  ])('pgs %s %s --help and -h print its help', async (group, verb) => {
    for (const flag of ['--help', '-h']) {
      const r = await pgs([group, verb, flag]);
      expect(r.code).toBe(EXIT.OK);
      expect(r.stdout).toContain(`Usage: pgs ${group} ${verb}`);
      expect(r.stdout).toContain('--admin-token');
      expect(r.stdout).toContain('Exit codes:');
    }
    // Help wins over missing or bad values.
    expect((await pgs([group, verb, '--mode', 'x', '--help'])).code).toBe(EXIT.OK);
    expect(server.requests).toHaveLength(0);
  });

  it('group help, version, and usage errors', async () => {
    const group = await pgs(['keys', '--help']);
    expect(group.code).toBe(EXIT.OK);
    expect(group.stdout).toContain('pgs keys revoke KEY_ID');

    expect((await pgs(['--version'])).stdout).toMatch(/^pgs \d+\.\d+\.\d+\n$/);

    const none = await pgs([]);
    expect(none.code).toBe(EXIT.USAGE);
    expect(none.stderr).toContain('Usage: pgs');

    const unknown = await pgs(['projects', 'list']);
    expect(unknown.code).toBe(EXIT.USAGE);
    expect(unknown.stderr).toBe(
      'error: unknown command "projects"\nRun \'pgs --help\' for usage.\n',
    );

    const verb = await pgs(['keys', 'list']);
    expect(verb.code).toBe(EXIT.USAGE);
    expect(verb.stderr).toMatch(/unknown command "keys list"; keys has create, revoke/);

    expect((await pgs(['keys'])).code).toBe(EXIT.USAGE);
    expect((await pgs(['--bogus'])).code).toBe(EXIT.USAGE);
  });

  it('a usage error with --json is JSON on stderr', async () => {
    const r = await pgs(['keys', 'create', '--json']);
    expect(r.code).toBe(EXIT.USAGE);
    expect(JSON.parse(r.stderr)).toEqual({
      success: false,
      error: {
        code: 'USAGE_ERROR',
        message: 'missing --mode (test or live)',
        details: { hint: "Run 'pgs keys create --help' for usage." },
      },
    });
  });
});

describe('configuration', () => {
  it('reads the admin token from admin-token in PGS_DATA_DIR, relative to the cwd', async () => {
    const dir = join(tmp, 'data');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'admin-token'), `${ADMIN_TOKEN}\n`);
    const r = await pgs(['keys', 'create', '--mode', 'test'], {
      PGS_ADMIN_TOKEN: undefined,
      PGS_DATA_DIR: 'data',
    });
    expect(r.code).toBe(EXIT.OK);
    expect(server.requests[0]?.authorization).toBe(`Bearer ${ADMIN_TOKEN}`);
  });

  it('defaults the data dir to ./.pgs', async () => {
    const cwd = await mkdtemp(join(tmp, 'cwd-'));
    await mkdir(join(cwd, '.pgs'));
    await writeFile(join(cwd, '.pgs', 'admin-token'), ADMIN_TOKEN);
    const r = await pgs(['keys', 'create', '--mode', 'test'], { PGS_ADMIN_TOKEN: undefined }, cwd);
    expect(r.code).toBe(EXIT.OK);
  });

  it('--admin-token wins over PGS_ADMIN_TOKEN', async () => {
    const r = await pgs(['keys', 'create', '--mode', 'test', '--admin-token', 'wrong']);
    expect(r.code).toBe(EXIT.AUTHENTICATION);
    expect(server.requests[0]?.authorization).toBe('Bearer wrong');
    expect(r.stderr).toMatch(
      /^error: The admin token is not valid\. \(AUTHENTICATION_FAILED, req_[0-9A-Z]{26}\)\n/,
    );
    expect(r.stderr).toContain('from the --admin-token flag');
  });

  it('says where it looked when there is no token', async () => {
    const r = await pgs(['keys', 'create', '--mode', 'test'], {
      PGS_ADMIN_TOKEN: undefined,
      PGS_DATA_DIR: 'nowhere',
    });
    expect(r.code).toBe(EXIT.AUTHENTICATION);
    expect(r.stderr).toContain('--admin-token');
    expect(r.stderr).toContain('PGS_ADMIN_TOKEN');
    expect(r.stderr).toContain(join(tmp, 'nowhere', 'admin-token'));
    expect(r.stderr).toContain('PGS_DATA_DIR=nowhere');
    expect(server.requests).toHaveLength(0);
  });

  it('uses http://127.0.0.1:$PORT without a base URL, and accepts an /api/v1 base', async () => {
    const port = new URL(server.url).port;
    const byPort = await pgs(['keys', 'create', '--mode', 'test'], {
      PGS_BASE_URL: undefined,
      PORT: port,
    });
    expect(byPort.code).toBe(EXIT.OK);
    const byFlag = await pgs([
      'keys',
      'create',
      '--mode',
      'test',
      '--base-url',
      `${server.url}/api/v1`,
    ]);
    expect(byFlag.code).toBe(EXIT.OK);
    expect(server.requests.map((r) => r.url)).toEqual(['/admin/v1/keys', '/admin/v1/keys']);
  });

  it('a bad base URL is a usage error', async () => {
    const r = await pgs(['keys', 'create', '--mode', 'test', '--base-url', 'ftp://x']);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(/--base-url does not give a valid http\(s\) URL/);
  });
});

describe('exit codes of API errors', () => {
  it.each([
    [401, 'AUTHENTICATION_FAILED', EXIT.AUTHENTICATION],
    [404, 'RESOURCE_NOT_FOUND', EXIT.NOT_FOUND],
    [400, 'VALIDATION_ERROR', EXIT.VALIDATION],
    [400, 'INVALID_JSON', EXIT.VALIDATION],
    [413, 'VALIDATION_ERROR', EXIT.VALIDATION],
    [415, 'VALIDATION_ERROR', EXIT.VALIDATION],
    [422, 'VALIDATION_ERROR', EXIT.VALIDATION],
    [429, 'RATE_LIMIT_EXCEEDED', EXIT.RATE_LIMITED],
    [500, 'INTERNAL_ERROR', EXIT.SERVER],
    [503, 'INTERNAL_ERROR', EXIT.SERVER],
    [403, 'SECURITY_VIOLATION', EXIT.UNEXPECTED],
  ])('%i %s → exit %i', async (status, code, exit) => {
    const body = envelope(code, `failed with ${status}`);
    server.override({ status, body });
    const text = await pgs([
      'credits',
      'grant',
      '--account',
      'a',
      '--mode',
      'test',
      '--amount',
      '1',
    ]);
    expect(text.code).toBe(exit);
    expect(text.stdout).toBe('');
    expect(text.stderr.split('\n')[0]).toBe(
      `error: failed with ${status} (${code}, ${body.error.request_id})`,
    );

    const json = await pgs(['keys', 'create', '--mode', 'test', '--json']);
    expect(json.code).toBe(exit);
    const printed = JSON.parse(json.stderr) as { success: boolean; error: Record<string, unknown> };
    expect(printed.success).toBe(false);
    expect(printed.error).toMatchObject({
      code,
      message: `failed with ${status}`,
      request_id: body.error.request_id,
      status,
    });
  });

  it('lists the fields a validation error names', async () => {
    server.override({
      status: 400,
      body: envelope('VALIDATION_ERROR', 'The request body is not valid.', {
        missing_fields: ['mode'],
        invalid_fields: { accountId: 'must match pattern' },
      }),
    });
    const r = await pgs(['credits', 'grant', '--account', 'x', '--mode', 'test', '--amount', '1']);
    expect(r.code).toBe(EXIT.VALIDATION);
    expect(r.stderr.split('\n').slice(1)).toEqual([
      '  mode: missing',
      '  accountId: must match pattern',
      '',
    ]);
  });

  it('a real 404 from the admin logic', async () => {
    const r = await pgs(['keys', 'revoke', 'key_NOPE']);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stderr).toMatch(
      /^error: No key with this identifier exists\. \(RESOURCE_NOT_FOUND, req_/,
    );
  });

  it('retries a 503 before giving up (three attempts, one idempotency key)', async () => {
    server.override({ status: 503, body: envelope('INTERNAL_ERROR', 'down') });
    const r = await pgs(['keys', 'create', '--mode', 'test']);
    expect(r.code).toBe(EXIT.SERVER);
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((q) => q.idempotencyKey)).size).toBe(1);
    expect(r.stderr).toContain("finds the server's log line");
  });

  it('a server that is not running → exit 7 with a hint', async () => {
    const gone = await startFakeAdmin();
    const url = gone.url;
    await gone.close();
    const r = await pgs(['keys', 'create', '--mode', 'test'], { PGS_BASE_URL: url });
    expect(r.code).toBe(EXIT.CONNECTION);
    expect(r.stderr).toContain(`Could not connect to ${url} (ECONNREFUSED)`);
    expect(r.stderr).toContain('Is the server running? Start it with npm start');
    const json = await pgs(['keys', 'create', '--mode', 'test', '--json'], { PGS_BASE_URL: url });
    expect(JSON.parse(json.stderr)).toMatchObject({
      success: false,
      error: { code: 'CONNECTION_ERROR' },
    });
  });
});
