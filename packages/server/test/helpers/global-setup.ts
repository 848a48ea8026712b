import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly migrated PGlite database (see test/helpers/database.ts). */
    pgliteTemplate: string;
    /** A data directory holding a freshly migrated PGlite cluster (`seedDataDir`). */
    pgliteDataDir: string;
    /** A directory for the run's shared scratch (e.g. the packed tarballs), removed at its end. */
    runDir: string;
  }
}

/**
 * Once per run: a PGlite database is created and migrated, and its dump written to a
 * temporary file that every test's fresh in-memory database starts from; and a data
 * directory is made the same way for servers the tests start as processes. Creating one
 * (initdb, then every migration) cost seconds of CPU per harness, and the suite opens
 * about a hundred of them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const database = await openDatabase({ kind: 'memory' });
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  // The same for servers started as processes: a data directory to copy, which `main.ts`
  // reopens instead of running initdb and the migrations on its first start.
  const data = path.join(dir, 'data');
  await (await openDatabase({ kind: 'pglite', dataDir: data })).close();
  project.provide('pgliteDataDir', data);
  project.provide('runDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
