import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { timeSliceTransactions } from './driver/pglite-turns.ts';
import * as schema from './schema.ts';

/** The Drizzle database, the same type on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: SQL functions accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** The one handle on storage that the rest of the server holds. */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** The raw client, for collaborators that need one (the queue, the rate limiter's store). */
  readonly pglite: PGlite | undefined;
  readonly pool: pg.Pool | undefined;
  /** The PostgreSQL connection string (collaborators that open their own connections). */
  readonly url: string | undefined;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string }
  | {
      kind: 'memory';
      /**
       * A dump of a migrated database (PGlite's `dumpDataDir`) to start from: no initdb, and
       * only the migrations it lacks. Tests open a fresh database this way in a fraction of
       * the time.
       */
      from?: Blob;
    };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Any constant: serialises migrations between processes starting together. */
const MIGRATION_LOCK = 7_410_411;

/**
 * Opens the database and applies pending migrations.
 *
 * @example
 * const database = await openDatabase({ kind: 'memory' });
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on the next checkout.
    });
    // pg-pool listens for errors only on idle clients. A checked-out client between two
    // statements of a transaction has no query to fail when the server ends its connection
    // (a restart, a failover, pg_terminate_backend), so it emits 'error', and with nobody
    // listening that ends the process. Listen for the client's whole life: its next statement
    // fails instead (the request answers 503, the job is retried), and the pool drops the
    // client when it is released, since it is no longer queryable.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      // On the locked connection itself: a pool of one would otherwise wait for itself.
      await migratePg(drizzlePg({ client: lock, schema }), { migrationsFolder });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      lock.release();
    }
    return {
      kind: 'postgres',
      db,
      pool,
      pglite: undefined,
      url: options.url,
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (options.kind === 'pglite') {
    await mkdir(options.dataDir, { recursive: true });
    client = await PGlite.create(path.join(options.dataDir, 'pgdata'));
  } else {
    client = await PGlite.create(options.from === undefined ? {} : { loadDataDir: options.from });
  }
  timeSliceTransactions(client);
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder });
  return {
    kind: 'pglite',
    db: db as unknown as Db,
    pglite: client,
    pool: undefined,
    url: undefined,
    close: () => client.close(),
  };
}
