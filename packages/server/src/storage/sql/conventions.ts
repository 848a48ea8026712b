import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { accountConventions, accounts } from '../schema.ts';
import type { Mode } from './accounts.ts';

/** A stored version of an account's house conventions (docs/conventions.md). */
export type ConventionsRow = typeof accountConventions.$inferSelect;

/**
 * Writes the next version of an account's conventions in a mode. The account's row is locked
 * first, so two writes at once take versions one after the other instead of colliding.
 *
 * @example const row = await insertConventions(tx, { accountId, mode: 'live', body, createdAt });
 */
export async function insertConventions(
  tx: Tx,
  row: { accountId: string; mode: Mode; body: unknown; createdAt: Date },
): Promise<ConventionsRow> {
  await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, row.accountId))
    .for('update');
  const latest = await findConventions(tx, row.accountId, row.mode);
  const [created] = await tx
    .insert(accountConventions)
    .values({ ...row, version: (latest?.version ?? 0) + 1 })
    .returning();
  return created!;
}

/**
 * A version of an account's conventions in a mode: the given one, or the latest when
 * `version` is absent; undefined when there is none.
 *
 * @example const current = await findConventions(db, accountId, 'live');
 */
export async function findConventions(
  tx: Tx,
  accountId: string,
  mode: Mode,
  version?: number,
): Promise<ConventionsRow | undefined> {
  const owned = and(
    eq(accountConventions.accountId, accountId),
    eq(accountConventions.mode, mode),
    ...(version === undefined ? [] : [eq(accountConventions.version, version)]),
  );
  const [row] = await tx
    .select()
    .from(accountConventions)
    .where(owned)
    .orderBy(desc(accountConventions.version))
    .limit(1);
  return row;
}
