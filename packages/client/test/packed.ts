import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, delimiter, dirname, join } from 'node:path';
import { inject } from 'vitest';
import { cleanEnv, ROOT } from './pgs-server.ts';

// Helpers of the tests that install the packed packages (npm pack) into a project outside
// the repository and run them there, on the machine's own Node rather than the pinned one.
// Shared by packages/client/test/packed.test.ts and packages/cli/test/packed.test.ts.

/** A finished child process. */
export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion, collecting its output; rejects only if it cannot start
 * or outlives `timeoutMs` (then it is killed, with every process it started).
 *
 * @example
 * const { code, stdout } = await exec('npm', ['--version'], { cwd: ROOT, env: userEnv() });
 */
export function exec(
  command: string,
  args: readonly string[],
  { cwd, env, timeoutMs = 120_000 }: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    // A group of its own: killing npm alone would leave its scripts running (a build, then a
    // prepack that swaps a workspace's manifest with no postpack left to restore it).
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new Error(`${command} ${args.join(' ')} took over ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * stderr without npm's own warnings (`npm warn ...`, e.g. about the machine's npmrc), which
 * say nothing about the program npx ran.
 *
 * @example
 * expect(programErrors(run.stderr)).toBe('');
 */
export function programErrors(stderr: string): string {
  return stderr.replace(/^npm warn .*(\r?\n|$)/gm, '');
}

/** PATH without the repository's `node_modules/.bin` entries (where the pinned Node 24 is). */
export const USER_PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '' && !/node_modules[\\/]\.bin$/.test(dir))
  .join(delimiter);

function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

/** The Node that runs the packed packages, and how a test title names it. */
export interface TargetNode {
  /** The executable. */
  path: string;
  /** `process.version` of it, e.g. `v20.20.2`. */
  version: string;
  /** For test titles, e.g. `the machine's Node v20.20.2`. */
  label: string;
}

/**
 * The machine's own Node: the first `node` on PATH outside `node_modules/.bin` (on these
 * machines Node 20, the oldest release the packages support). When there is none, the
 * Node running the tests (the pinned 24), and the label says so.
 *
 * @example
 * const node = targetNode(); // e.g. { version: 'v20.20.2', label: "the machine's Node v20.20.2", ... }
 */
export function targetNode(): TargetNode {
  const path = findOnPath('node', USER_PATH);
  if (path !== undefined) {
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
    return { path, version, label: `the machine's Node ${version}` };
  }
  return {
    path: process.execPath,
    version: process.version,
    label: `the pinned Node ${process.version} (no other Node on PATH)`,
  };
}

/** Whether `npm` can be run at all (outside the repository's `node_modules/.bin`). */
export const NPM_AVAILABLE = findOnPath('npm', USER_PATH) !== undefined;

/**
 * The environment of a user in a fresh shell: the machine's PATH (its Node first), none
 * of our PGS_ variables, none of the `npm_*` variables the enclosing `npm test` set,
 * no NODE_OPTIONS meant for the pinned Node, and npm kept off the network.
 *
 * @example
 * await exec('npx', ['pgs', '--help'], { cwd: project, env: userEnv() });
 */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const name of Object.keys(env)) {
    if (/^npm_/i.test(name) || name === 'NODE_OPTIONS' || name === 'INIT_CWD') delete env[name];
  }
  return {
    ...env,
    PATH: USER_PATH,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** One packed workspace package. */
export interface Packed {
  name: string;
  /** The tarball's absolute path. */
  tarball: string;
  /** The paths inside the tarball, relative to `package/`. */
  files: string[];
}

// Packing rewrites the package's manifest for a few seconds (scripts/publish-manifest.ts):
// the test files that pack, in parallel workers, take turns.
const LOCK = join(ROOT, 'node_modules/.cache/pgs-pack.lock');
const PUBLISH_MANIFEST = join(ROOT, 'packages/client/scripts/publish-manifest.ts');
const LOCK_DEADLINE_MS = 180_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function withPackLock<T>(fn: () => Promise<T>): Promise<T> {
  await mkdir(join(LOCK, '..'), { recursive: true });
  const deadline = Date.now() + LOCK_DEADLINE_MS;
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => ''));
    // A holder that died (a killed test run) leaves the lock behind: take it over.
    if (owner > 0 && !alive(owner)) {
      await rm(LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${LOCK} still held after ${LOCK_DEADLINE_MS} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    await writeFile(join(LOCK, 'pid'), String(process.pid));
    return await fn();
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

/**
 * `npm pack -w <name>...` from the repository root into `destination`, the way a developer
 * would: each package's `prepack` builds it and swaps in the published manifest. Checks
 * that every manifest is back as it was afterwards.
 *
 * @example
 * const [client] = await packWorkspaces(['@pgs/client'], tmp);
 */
export async function packWorkspaces(
  names: readonly string[],
  destination: string,
): Promise<Packed[]> {
  return withPackLock(async () => {
    // Packed once per run: the client is packed by both packed test files, and its build
    // (tsdown, declarations) is most of a pack's CPU. The sources do not change during a run.
    const cache = join(inject('runDir'), 'packed');
    await mkdir(cache, { recursive: true });
    const cached = async (name: string): Promise<Packed | undefined> => {
      const entry = await readFile(join(cache, `${name.replace('/', '+')}.json`), 'utf8').catch(
        () => undefined,
      );
      if (entry === undefined) return undefined;
      const packed = JSON.parse(entry) as Packed;
      const tarball = join(destination, basename(packed.tarball));
      await copyFile(packed.tarball, tarball);
      return { ...packed, tarball };
    };
    const found = new Map<string, Packed>();
    for (const name of names) {
      const hit = await cached(name);
      if (hit) found.set(name, hit);
    }
    const missing = names.filter((name) => !found.has(name));
    if (missing.length > 0) {
      for (const packed of await packNow(missing, cache)) {
        await writeFile(
          join(cache, `${packed.name.replace('/', '+')}.json`),
          JSON.stringify(packed),
        );
        found.set(packed.name, (await cached(packed.name))!);
      }
    }
    return names.map((name) => found.get(name)!);
  });
}

/** `npm pack` of `names` into `destination` (the caller holds the pack lock). */
async function packNow(names: readonly string[], destination: string): Promise<Packed[]> {
  const dirs = names.map((name) => join(ROOT, 'packages', name.replace('@pgs/', '')));
  const manifest = (dir: string) => readFile(join(dir, 'package.json'), 'utf8');
  const before = await Promise.all(dirs.map(manifest));
  const args = ['pack', ...names.flatMap((name) => ['-w', name])];
  const restore = async () => {
    // A pack that failed between prepack and postpack leaves the published manifest.
    for (const cwd of dirs) {
      await exec(process.execPath, [PUBLISH_MANIFEST, 'restore'], { cwd, env: process.env });
    }
  };
  const run = await exec('npm', [...args, '--pack-destination', destination, '--json'], {
    cwd: ROOT,
    // npm puts the repository's node_modules/.bin first for the scripts (Node 24 builds).
    env: userEnv(),
    timeoutMs: 170_000,
  }).catch(async (error: unknown) => {
    await restore();
    throw error;
  });
  if (run.code !== 0) await restore();
  const after = await Promise.all(dirs.map(manifest));
  if (after.some((text, i) => text !== before[i])) {
    throw new Error(`npm ${args.join(' ')} left a package.json changed`);
  }
  if (run.code !== 0) {
    throw new Error(`npm ${args.join(' ')} exited ${run.code}\n${run.stderr}\n${run.stdout}`);
  }
  // The scripts' output (the builds) comes first; the JSON report starts at a line `[`.
  const report = JSON.parse(run.stdout.slice(run.stdout.search(/^\[$/m))) as {
    name: string;
    filename: string;
    files: { path: string }[];
  }[];
  return report.map(
    (entry): Packed => ({
      name: entry.name,
      tarball: join(destination, entry.filename),
      files: entry.files.map((f) => f.path).sort(),
    }),
  );
}

/** The directory of package `name` as Node resolves it from `from`: the nearest node_modules up to the root. */
async function installedDir(name: string, from: string): Promise<string> {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (await stat(join(candidate, 'package.json')).catch(() => undefined)) return candidate;
    if (dir === ROOT || dirname(dir) === dir) {
      throw new Error(`${name} is not installed (from ${from}): run npm install`);
    }
  }
}

async function manifestDependencies(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(manifest.dependencies ?? {});
}

/**
 * The registry packages that workspace packages `names` depend on at run time, with theirs,
 * each packed (`npm pack <folder>`, no scripts) from the repository's node_modules into
 * `destination`. \`npm install --offline\` of a workspace tarball needs every dependency's
 * registry metadata in npm's cache, which an install from the lockfile never puts there;
 * these tarballs, installed beside it, stand in for the registry. Empty when they have none.
 *
 * @example
 * const deps = await packDependencies(['@pgs/repository'], tmp); // ignore, @secretlint/core, debug, …
 */
export async function packDependencies(
  names: readonly string[],
  destination: string,
): Promise<string[]> {
  const found = new Map<string, string>();
  const visit = async (name: string, from: string): Promise<void> => {
    if (name.startsWith('@pgs/') || found.has(name)) return;
    const dir = await installedDir(name, from);
    found.set(name, dir);
    for (const dependency of await manifestDependencies(dir)) await visit(dependency, dir);
  };
  for (const name of names) {
    const workspace = join(ROOT, 'packages', name.replace('@pgs/', ''));
    for (const dependency of await manifestDependencies(workspace)) {
      await visit(dependency, workspace);
    }
  }
  if (found.size === 0) return [];
  const run = await exec(
    'npm',
    ['pack', ...found.values(), '--ignore-scripts', '--pack-destination', destination, '--json'],
    { cwd: destination, env: userEnv() },
  );
  if (run.code !== 0)
    throw new Error(`npm pack of the dependencies exited ${run.code}\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as { filename: string }[];
  return report.map((entry) => join(destination, entry.filename));
}

/**
 * A new npm project (`"type": "module"`) in `dir` with the tarballs installed, offline:
 * what `npm install ./pgs-client-0.1.0.tgz` does for a user.
 *
 * @example
 * await installProject(join(tmp, 'app'), [client.tarball]);
 */
export async function installProject(dir: string, tarballs: readonly string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = { name: 'pgs-packed-smoke', version: '1.0.0', private: true, type: 'module' };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const run = await exec('npm', ['install', '--no-audit', '--no-fund', '--offline', ...tarballs], {
    cwd: dir,
    env: userEnv(),
  });
  if (run.code !== 0) {
    throw new Error(`npm install exited ${run.code}\n${run.stderr}\n${run.stdout}`);
  }
}
