import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { ensureBuilt } from '../../scripts/ensure-built.ts';
import { OUTPUT_DIR } from './browser.ts';

const LOCK = path.join(OUTPUT_DIR, '.build.lock');

/**
 * Builds the console when it is missing or stale (the web package's own `ensureBuilt`) and
 * returns the directory the server serves. Test files run in parallel workers: they take
 * turns through a lock file, so a stale build is rebuilt once, and no file's server has the
 * output replaced under it by another file's build.
 *
 * @example
 * await buildConsole(); // then start the server, which serves packages/web/dist
 */
export async function buildConsole(): Promise<string> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  await waitFor(async () => ((await tryLock()) ? true : undefined), {
    timeoutMs: 180_000,
    intervalMs: 100,
    what: `the console build lock ${LOCK}`,
  });
  try {
    return await ensureBuilt();
  } finally {
    await rm(LOCK, { force: true });
  }
}

async function tryLock(): Promise<boolean> {
  try {
    await writeFile(LOCK, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A lock left by a run that was killed mid-build is taken over.
  if (await stale()) await rm(LOCK, { force: true });
  return false;
}

async function stale(): Promise<boolean> {
  try {
    const holder = Number(await readFile(LOCK, 'utf8'));
    if (Number.isInteger(holder) && holder > 0) {
      try {
        process.kill(holder, 0);
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ESRCH';
      }
    }
    // Created but its pid not yet written; only a long-empty lock is abandoned.
    return Date.now() - (await stat(LOCK)).mtimeMs > 60_000;
  } catch {
    return false;
  }
}
