import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
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
 * and two processes writing one directory corrupt it. The lock is a file holding the
 * owner's pid, host and start time, created atomically; a lock whose owner is dead (a
 * crash, SIGKILL) is taken over, one held by a live process (this one too) is refused.
 * Returns the release function.
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
  // The owner record is written to a private file first and then linked into place, so
  // the lock file never exists without its content (link fails with EEXIST if it exists).
  const draft = `${file}.${process.pid}.${Date.now()}`;
  await writeFile(draft, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(draft, file);
        return releaser(file, me);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      await takeOverIfDead(file, dataDir, me);
    }
  } finally {
    await unlink(draft).catch(() => {});
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}; try again.`);
}

function releaser(file: string, me: LockOwner): () => Promise<void> {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    const owner = await readOwner(file);
    if (owner?.pid === me.pid && owner.startedAt === me.startedAt) {
      await unlink(file).catch(() => {});
    }
  };
}

/** Throws when the lock's owner is alive (this process included); removes a dead owner's lock. */
async function takeOverIfDead(file: string, dataDir: string, me: LockOwner): Promise<void> {
  const owner = await readOwner(file);
  if (owner && owner.hostname === me.hostname && isAlive(owner.pid)) {
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
  // The owner is dead (a crash, SIGKILL): move its file aside atomically, so only one
  // contender removes it and races for the next link.
  const stale = `${file}.stale-${process.pid}`;
  await rename(file, stale).catch(() => {});
  await unlink(stale).catch(() => {});
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
