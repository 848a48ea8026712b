import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertMatchesContract } from '@pgs/contract/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, ensureSecretFile, lockDataDir } from '../src/storage/data-dir.ts';
import { LISTENING, Proc, TEST_KEY } from './helpers/process.ts';

const DATA_DIR_MODULE = fileURLToPath(new URL('../src/storage/data-dir.ts', import.meta.url));
const LOCK_FILE = 'pgs.lock';

const children: Proc[] = [];
const tempDirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-data-dir-test-'));
  tempDirs.push(dir);
  return dir;
}

function track(proc: Proc): Proc {
  children.push(proc);
  return proc;
}

afterAll(async () => {
  await Promise.all(children.map((proc) => proc.kill('SIGKILL').catch(() => {})));
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
}, 30_000);

/** A process that holds the lock on `dir` through the real module, as another PGS would. */
async function lockInAnotherProcess(dir: string): Promise<Proc> {
  const script =
    'const m = await import(process.argv[1]); await m.lockDataDir(process.argv[2]);' +
    " console.log('locked'); setInterval(() => {}, 1000);";
  const proc = track(
    new Proc(['--input-type=module', '-e', script, DATA_DIR_MODULE, dir], process.env),
  );
  await proc.waitForOutput(/^locked$/m, 15_000);
  return proc;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const proc = track(new Proc(['-e', ''], process.env));
  const pid = proc.pid;
  await proc.waitForExit(15_000);
  return pid;
}

const lockOwner = (pid: number) =>
  JSON.stringify({ pid, hostname: os.hostname(), startedAt: new Date().toISOString() });

describe('lockDataDir and ensureSecretFile', () => {
  it('locks a directory; the release deletes the lock file and frees it', async () => {
    const dir = await tempDir();
    const release = await lockDataDir(dir);
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
    expect(JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await release();
    expect(await readdir(dir)).toEqual([]);
    await (await lockDataDir(dir))();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a directory held by another live process, naming its pid; takes it over once that process is killed', async () => {
    const dir = await tempDir();
    const owner = await lockInAnotherProcess(dir);

    const refused = lockDataDir(dir);
    await expect(refused).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(refused).rejects.toThrow(`pid ${owner.pid}`);

    await owner.kill('SIGKILL');
    const release = await lockDataDir(dir);
    expect(JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a lock file naming a live process, and takes over one naming a dead process', async () => {
    const dir = await tempDir();
    const file = path.join(dir, LOCK_FILE);
    const live = track(new Proc(['-e', 'setInterval(() => {}, 1000)'], process.env));

    await writeFile(file, lockOwner(live.pid));
    const refused = lockDataDir(dir);
    await expect(refused).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(refused).rejects.toThrow(`pid ${live.pid}`);
    // The refused attempt left the owner's lock alone.
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(live.pid);
    await live.kill('SIGKILL');

    const dead = await deadPid();
    await writeFile(file, lockOwner(dead));
    const release = await lockDataDir(dir);
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
    await release();
    expect(existsSync(file)).toBe(false);
  });

  it('ensureSecretFile creates a 0600 file once and returns the same value after', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'admin-token');
    let made = 0;
    const make = () => {
      made++;
      return `token-${randomUUID()}`;
    };
    const first = await ensureSecretFile(file, make);
    expect(first).toMatch(/^token-/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    const second = await ensureSecretFile(file, make);
    expect(second).toBe(first);
    expect(made).toBe(1);
  });
});

/** The environment of `npm start` for a data directory, without the caller's PGS settings. */
function serverEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(PGS_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, PORT: '0', HOST: '127.0.0.1', PGS_DATA_DIR: dataDir, PGS_LOG_LEVEL: 'warn' };
}

const startServer = (dataDir: string) =>
  track(new Proc(['packages/server/src/main.ts'], serverEnv(dataDir)));

/** GET over real HTTP, checked against the contract like every other response. */
async function get(port: number, url: string, token: string) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  assertMatchesContract('GET', url, { statusCode: res.status, headers, body });
  return { status: res.status, json: JSON.parse(body) as { error?: { code: string } } };
}

describe('the server on its data directory (subprocesses, as `npm start` runs it)', () => {
  const STARTUP_MS = 120_000;
  let dataDir: string;
  let first: Proc;
  let firstPort: number;
  let testKey: string;

  it(
    'the first start prints a test key that works',
    async () => {
      dataDir = await tempDir();
      first = startServer(dataDir);
      firstPort = Number((await first.waitForOutput(LISTENING, STARTUP_MS))[1]);
      testKey = (await first.waitForOutput(TEST_KEY, 5_000))[1] ?? '';
      expect(testKey).toMatch(/^pgs_test_[0-9A-Za-z]{32,}$/);

      const res = await get(firstPort, `/api/v1/projects/${randomUUID()}`, testKey);
      expect(res.status).toBe(404);
      expect(res.json.error?.code).toBe('RESOURCE_NOT_FOUND');
    },
    STARTUP_MS + 15_000,
  );

  it('writes the admin token to a 0600 file in the data directory, and it works', async () => {
    const file = path.join(dataDir, 'admin-token');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const token = (await readFile(file, 'utf8')).trim();
    expect(token.length).toBeGreaterThanOrEqual(16);
    const url = '/admin/v1/accounts/acct_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    expect((await get(firstPort, url, token)).status).toBe(404);
    expect((await get(firstPort, url, `${token}x`)).status).toBe(401);
  });

  it(
    'a second server on the same directory exits non-zero, saying it is in use by the first',
    async () => {
      const second = startServer(dataDir);
      const exit = await second.waitForExit(STARTUP_MS, LISTENING);
      expect(exit.code, second.describe()).not.toBe(0);
      expect(exit.code, second.describe()).not.toBeNull();
      expect(second.stderr).toMatch(/in use/i);
      expect(second.stderr).toContain(String(first.pid));
      expect(second.stdout).not.toMatch(LISTENING);
      // The first is unharmed.
      const res = await get(firstPort, `/api/v1/projects/${randomUUID()}`, testKey);
      expect(res.status).toBe(404);
    },
    STARTUP_MS + 15_000,
  );

  it(
    'after the first is killed, a new start takes the directory over and keeps its data',
    async () => {
      await first.kill('SIGKILL');
      const third = startServer(dataDir);
      const port = Number((await third.waitForOutput(LISTENING, STARTUP_MS))[1]);
      // After a request round trip, everything the start prints is in.
      const res = await get(port, `/api/v1/projects/${randomUUID()}`, testKey);
      expect(res.status, third.describe()).toBe(404);
      expect(res.json.error?.code).toBe('RESOURCE_NOT_FOUND');
      expect(third.stdout).not.toMatch(/Test API key/);

      // It holds the lock now: a fourth start is refused, naming the third.
      const fourth = startServer(dataDir);
      const exit = await fourth.waitForExit(STARTUP_MS, LISTENING);
      expect(exit.code, fourth.describe()).not.toBe(0);
      expect(fourth.stderr).toContain(String(third.pid));

      // A clean stop releases the lock.
      const stopped = await third.kill('SIGTERM');
      expect(stopped.code, third.describe()).toBe(0);
      expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    },
    2 * STARTUP_MS + 20_000,
  );
});
