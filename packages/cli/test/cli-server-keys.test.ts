import { randomUUID } from 'node:crypto';
import { AuthenticationError, NotFoundError, Pgs } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealServer } from '../../client/test/pgs-server.ts';
import { EXIT } from '../src/index.ts';
import { IDEA, runCli, startRealCli, stopRealCli } from './cli-process.ts';

// The key and credit commands of the real CLI against the real server, each a subprocess
// (see cli-process.ts).
// Every test spawns CLI processes against a server process: on a loaded machine that takes
// many seconds, so the time limit is generous; no assertion depends on how long anything took.
describe('the pgs CLI against the real server', { timeout: 120_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let baseUrl: string;
  let cliEnv: NodeJS.ProcessEnv;
  let apiEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ server, tmp, baseUrl, cliEnv, apiEnv } = await startRealCli());
  });

  afterAll(async () => {
    await stopRealCli(server, tmp);
  });

  /** A fresh test key with its own balance, through `pgs keys create`. */
  async function newKey(credits: number): Promise<string> {
    const created = await runCli(
      ['keys', 'create', '--mode', 'test', '--credits', String(credits), '--json'],
      cliEnv,
    );
    expect(created.code).toBe(0);
    return (JSON.parse(created.stdout) as { key: string }).key;
  }

  it.concurrent('credits, and the errors that need a key', async ({ expect }) => {
    // Less than the 47 credits of a web project.
    const key = await newKey(40);
    const env = { ...apiEnv, PGS_API_KEY: key };
    const [text, json, byFlag, poor, noKey, badKey, missing, malformed] = await Promise.all([
      runCli(['credits'], env),
      runCli(['credits', '--json'], env),
      // The base URL may be the versioned base too, and the key a flag.
      runCli(['credits', '--json', '--api-key', key, '--base-url', `${baseUrl}/api/v1`], {
        ...apiEnv,
        PGS_API_KEY: 'pgs_test_ignored',
        PGS_BASE_URL: 'http://127.0.0.1:9',
      }),
      runCli(['generate', IDEA], env),
      runCli(['generate', IDEA], { ...apiEnv, PGS_API_KEY: undefined }),
      runCli(['credits'], { ...apiEnv, PGS_API_KEY: `pgs_test_${'x'.repeat(40)}` }),
      runCli(['status', randomUUID()], env),
      runCli(['wait', 'not-a-uuid'], env),
    ]);
    expect(text).toEqual({ code: 0, stdout: '40 test credits available.\n', stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual({ mode: 'test', balance: 40, reserved: 0 });
    expect(JSON.parse(byFlag.stdout)).toEqual({ mode: 'test', balance: 40, reserved: 0 });

    expect(poor.code).toBe(EXIT.INSUFFICIENT_CREDITS);
    expect(poor.stderr).toMatch(/\(INSUFFICIENT_CREDITS, req_[0-9A-Z]{26}\)/);
    expect(poor.stderr).toContain('pgs credits');

    expect(noKey.code).toBe(3);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toContain('PGS_API_KEY');
    expect(noKey.stderr).toContain('npx pgs keys create --mode test --credits 1000');

    expect(badKey.code).toBe(EXIT.AUTHENTICATION);
    expect(badKey.stderr).toMatch(/AUTHENTICATION_FAILED/);
    expect(badKey.stderr).toContain('rejected the API key (invalid_key) from PGS_API_KEY');

    expect(missing.code).toBe(EXIT.NOT_FOUND);
    expect(malformed.code).toBe(EXIT.VALIDATION);
    expect(malformed.stderr).toContain('projectId');
  });

  it('creates a key, revokes it, and grants credits', async () => {
    const created = await runCli(
      ['keys', 'create', '--mode', 'test', '--credits', '50', '--json'],
      cliEnv,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(['accountId', 'key', 'keyId', 'mode']);
    expect(out.key).toMatch(/^pgs_test_[0-9A-Za-z]{32,}$/);
    expect(out.keyId).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(out.accountId).toMatch(/^acct_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(out.mode).toBe('test');

    const pgs = new Pgs({ apiKey: out.key!, baseUrl, maxRetries: 0 });
    const projectId = randomUUID();
    // The key works: an unknown project is a 404, not a 401.
    await expect(pgs.projects.get(projectId)).rejects.toBeInstanceOf(NotFoundError);

    const revoked = await runCli(['keys', 'revoke', out.keyId!, '--json'], cliEnv);
    expect(revoked.stderr).toBe('');
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({
      keyId: out.keyId,
      accountId: out.accountId,
      mode: 'test',
    });

    const error = await pgs.projects.get(projectId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as AuthenticationError).code).toBe('AUTHENTICATION_FAILED');
    expect((error as AuthenticationError).details?.issue).toBe('revoked');

    const granted = await runCli(
      [
        'credits',
        'grant',
        '--account',
        out.accountId!,
        '--mode',
        'test',
        '--amount',
        '25',
        '--json',
      ],
      cliEnv,
    );
    expect(granted.stderr).toBe('');
    expect(granted.code).toBe(0);
    expect(JSON.parse(granted.stdout)).toEqual({
      accountId: out.accountId,
      mode: 'test',
      amount: 25,
      balance: 75,
    });
  });

  it('maps the server errors to exit codes', async () => {
    const unknownKey = await runCli(['keys', 'revoke', 'key_00000000000000000000000000'], cliEnv);
    expect(unknownKey.code).toBe(4);
    expect(unknownKey.stderr).toMatch(/^error: .+ \(RESOURCE_NOT_FOUND, req_[0-9A-Z]{26}\)/);

    const badToken = await runCli(['keys', 'create', '--mode', 'test'], {
      ...cliEnv,
      PGS_ADMIN_TOKEN: 'not-the-token',
    });
    expect(badToken.code).toBe(3);
    expect(badToken.stderr).toMatch(/AUTHENTICATION_FAILED/);
  });
});
