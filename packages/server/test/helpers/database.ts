import { readFile } from 'node:fs/promises';
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
