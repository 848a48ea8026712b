import { open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Another live process holds the data directory. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/**
 * Takes the exclusive lock on an embedded data directory. PGlite has no lock of its own,
 * and two processes writing one directory corrupt it. The lock is a file created with
 * O_EXCL holding the owner's pid; a lock whose owner is dead (a crash, SIGKILL) is taken
 * over. Returns the release function.
 *
 * @example
 * const release = await lockDataDir('.pgs');
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, 'pgs.lock');
  const me: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const owner = await readOwner(file);
        if (owner?.pid === me.pid) await unlink(file).catch(() => {});
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(file);
    if (owner && owner.hostname === me.hostname && owner.pid !== me.pid && isAlive(owner.pid)) {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is in use by another PGS process (pid ${owner.pid}, started ${owner.startedAt}). ` +
          'Stop it first, or give this process its own PGS_DATA_DIR. To run several processes on one database, use PostgreSQL (DATABASE_URL).',
      );
    }
    if (owner && owner.hostname !== me.hostname) {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is locked by host ${owner.hostname} (pid ${owner.pid}). ` +
          `If that process is gone, delete ${file} and start again.`,
      );
    }
    // The owner is dead (or the file is half-written by one that died): take over by
    // moving the stale file aside atomically, so only one contender wins the next O_EXCL.
    const stale = `${file}.stale-${process.pid}`;
    await rename(file, stale).catch(() => {});
    await unlink(stale).catch(() => {});
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}; try again.`);
}

/** Reads the admin token file, creating it (mode 0600) with a random token when absent. */
export async function ensureSecretFile(file: string, make: () => string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = make();
  await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return (await readFile(file, 'utf8')).trim();
}
