/**
 * Builds the console when its build is missing or stale, so `npm start` serves it with no
 * other step. Root `prestart` runs this file; browser tests call {@link ensureBuilt} from
 * their setup. Its export is stable:
 *
 *   export async function ensureBuilt(options?): Promise<string>  // the output directory
 *
 * "Stale" means the hash of the inputs (the web package's sources, the SDK's sources, and
 * the versions of Vite, Preact and markdown-it) differs from the one recorded in the
 * output's `.build-hash` (a dotfile, which the server never serves). A fresh build costs a
 * few directory reads and one hash, so starting stays fast; a stale one takes a second or
 * two. The build goes to a temporary directory that then replaces the output, so a server
 * running meanwhile never serves half a build.
 *
 * @example
 * import { ensureBuilt } from '../../web/scripts/ensure-built.ts';
 * const dir = await ensureBuilt(); // …/packages/web/dist
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { consoleViteConfig, WEB_DIR } from './vite-config.ts';

/** Where the console is built by default (the server's default `PGS_CONSOLE_DIR`). */
export const DEFAULT_OUT_DIR = path.join(WEB_DIR, 'dist');
/** The file in the output that records the inputs' hash. */
export const HASH_FILE = '.build-hash';

const CLIENT_DIR = path.resolve(WEB_DIR, '..', 'client');

/** Options of {@link ensureBuilt}. */
export interface EnsureBuiltOptions {
  /** Build here instead of `packages/web/dist`. */
  outDir?: string;
  /** Build even when the output is fresh. */
  force?: boolean;
  /** Where progress lines go; default none. */
  log?: (line: string) => void;
}

/**
 * Builds the console unless its output is fresh; resolves with the output directory.
 *
 * @example
 * const dir = await ensureBuilt({ log: console.log });
 */
export async function ensureBuilt(options: EnsureBuiltOptions = {}): Promise<string> {
  const outDir = path.resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const hash = await inputsHash();
  if (!options.force && (await recordedHash(outDir)) === hash) return outDir;

  options.log?.(`Building the PGS console into ${outDir} …`);
  const started = performance.now();
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch (cause) {
    throw new Error(
      'The console needs building, but Vite is not installed (it is a development dependency): run npm install, or set PGS_CONSOLE_DIR to a console built elsewhere.',
      { cause },
    );
  }
  const temp = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  try {
    await vite.build({ ...consoleViteConfig(temp), configFile: false });
    await writeFile(path.join(temp, HASH_FILE), `${hash}\n`);
    await replace(outDir, temp, hash);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  options.log?.(`Built the console in ${Math.round(performance.now() - started)} ms.`);
  return outDir;
}

/**
 * Puts the build in `temp` at `outDir`. Another process (a test setup beside `npm start`)
 * may be swapping in its own build at the same moment: a rename that finds the place taken
 * tries again, and a build of the same inputs already there is as good as ours.
 */
async function replace(outDir: string, temp: string, hash: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    await rm(outDir, { recursive: true, force: true });
    try {
      await rename(temp, outDir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      if ((await recordedHash(outDir)) === hash) return;
      if (attempt >= 5) throw error;
    }
  }
}

/**
 * The hash of everything the build reads that can change in this repository: sources of
 * the web package and the SDK (tests excluded), its HTML and config, and the versions of
 * the packages bundled or building.
 *
 * @example
 * const hash = await inputsHash();
 */
export async function inputsHash(): Promise<string> {
  const files = [
    path.join(WEB_DIR, 'index.html'),
    path.join(WEB_DIR, 'package.json'),
    path.join(WEB_DIR, 'scripts', 'vite-config.ts'),
    ...(await sources(path.join(WEB_DIR, 'src'))),
    path.join(CLIENT_DIR, 'package.json'),
    ...(await sources(path.join(CLIENT_DIR, 'src'))),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(WEB_DIR, file)).update('\0');
    hash.update(await readFile(file)).update('\0');
  }
  const require = createRequire(path.join(WEB_DIR, 'package.json'));
  for (const name of ['vite', 'preact', 'markdown-it']) {
    hash.update(`${name}@${packageVersion(require, name)}\0`);
  }
  return hash.digest('hex');
}

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function packageVersion(require: NodeJS.Require, name: string): string {
  try {
    const manifest = require(`${name}/package.json`) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    // Not installed (or its manifest not exported): the build itself will say so if needed.
    return 'missing';
  }
}

async function recordedHash(outDir: string): Promise<string | undefined> {
  try {
    const [hash] = await Promise.all([
      readFile(path.join(outDir, HASH_FILE), 'utf8'),
      // A hash without its page is no build.
      readFile(path.join(outDir, 'index.html')),
    ]);
    return hash.trim();
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  let built = false;
  const log = (line: string) => {
    built = true;
    console.log(line);
  };
  // `--force` (npm run build -w @pgs/web) builds even when fresh.
  ensureBuilt({ log, force: process.argv.includes('--force') }).then(
    (dir) => {
      if (!built)
        console.log(`The PGS console in ${path.relative(process.cwd(), dir)} is up to date.`);
    },
    (error: unknown) => {
      console.error(
        `Could not build the PGS console: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exit(1);
    },
  );
}
