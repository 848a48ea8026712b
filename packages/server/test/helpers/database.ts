import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/db.ts';

let template: Promise<Blob> | undefined;

/**
 * A fresh in-memory PGlite database, migrated: loaded from the run's template (made once
 * by test/helpers/global-setup.ts) rather than created and migrated anew, which took
 * seconds each. Every call gets a database of its own.
 *
 * @example
 * const database = await memoryDatabase();
 */
export async function memoryDatabase(): Promise<Database> {
  template ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return openDatabase({ kind: 'memory', from: await template });
}

/**
 * Fills a new server's data directory with the run's migrated PGlite cluster, so the
 * server's first start reopens it (a fraction of a second) instead of running initdb and
 * every migration. The directory must not hold a cluster yet. What a first start does
 * with a truly empty directory is data-dir.test.ts's to test, which does not call this.
 *
 * @example
 * const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-'));
 * await seedDataDir(dataDir);
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  await cp(path.join(inject('pgliteDataDir'), 'pgdata'), path.join(dataDir, 'pgdata'), {
    recursive: true,
    errorOnExist: true,
    force: false,
  });
}
