import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly migrated PGlite database (see test/helpers/database.ts). */
    pgliteTemplate: string;
  }
}

/**
 * Once per run: a PGlite database is created and migrated, and its dump written to a
 * temporary file that every test's fresh in-memory database starts from. Creating one
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
  return () => rm(dir, { recursive: true, force: true });
}
