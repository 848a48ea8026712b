import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AuthenticationError, NotFoundError, Pgs } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real server and the real CLI, each a subprocess started the way a user would.
const ROOT = resolve(import.meta.dirname, '../../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const SERVER_MAIN = join(ROOT, 'packages/server/src/main.ts');
const CLI_BIN = join(ROOT, 'packages/cli/src/bin.ts');
const START_DEADLINE_MS = 45_000;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without anything of ours that could leak in from the developer's shell. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(PGS_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$)/.test(name)) delete env[name];
  }
  return env;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<Exit> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(NODE, [CLI_BIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Resolves with the base URL once the server prints its listening line; rejects if it dies first. */
function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => fail(new Error(`no listening line within ${START_DEADLINE_MS} ms`)),
      START_DEADLINE_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    };
    child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      const match = /^PGS listening on (http:\/\/127\.0\.0\.1:\d+)/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]!);
      }
    });
    child.on('exit', (code, signal) =>
      fail(new Error(`the server exited early (code ${code}, signal ${signal})`)),
    );
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

if (!existsSync(SERVER_MAIN)) {
  it.skip('skipped: packages/server/src/main.ts does not exist yet', () => {});
} else {
  describe('the pgs CLI against the real server', () => {
    let dataDir: string;
    let server: ChildProcess;
    let baseUrl: string;
    let cliEnv: NodeJS.ProcessEnv;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'pgs-cli-server-'));
      server = spawn(NODE, [SERVER_MAIN], {
        cwd: ROOT,
        env: {
          ...cleanEnv(),
          PORT: '0',
          HOST: '127.0.0.1',
          PGS_DATA_DIR: dataDir,
          PGS_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      baseUrl = await waitForListening(server);
      // The token file is found through PGS_DATA_DIR, as for a user in another directory.
      cliEnv = { ...cleanEnv(), PGS_BASE_URL: baseUrl, PGS_DATA_DIR: dataDir };
    });

    afterAll(async () => {
      if (server) await stop(server);
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
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
}
