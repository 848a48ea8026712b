import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { idempotencyKeys } from '../schema.ts';
import type { Mode } from './accounts.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

interface Scope {
  accountId: string;
  mode: Mode;
  key: string;
}

const where = (scope: Scope) =>
  and(
    eq(idempotencyKeys.accountId, scope.accountId),
    eq(idempotencyKeys.mode, scope.mode),
    eq(idempotencyKeys.key, scope.key),
  );

/**
 * Claims a key for a request: inserts a `processing` row unless a live one exists.
 * Returns `undefined` when this call claimed it, else the existing row. An expired row,
 * or a claim left `processing` since before `staleBefore` (its request died), is replaced.
 */
export async function claimIdempotencyKey(
  tx: Tx,
  row: Scope & { operation: string; requestHash: string; expiresAt: Date; staleBefore: Date },
): Promise<IdempotencyRow | undefined> {
  const { staleBefore, ...values } = row;
  await tx
    .delete(idempotencyKeys)
    .where(
      and(
        where(row),
        or(
          lt(idempotencyKeys.expiresAt, sql`now()`),
          and(eq(idempotencyKeys.state, 'processing'), lt(idempotencyKeys.createdAt, staleBefore)),
        ),
      ),
    );
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ ...values, state: 'processing' })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return undefined;
  const [existing] = await tx.select().from(idempotencyKeys).where(where(row));
  return existing;
}

/** Stores the response to replay for later requests with the same key. */
export async function completeIdempotencyKey(
  tx: Tx,
  scope: Scope,
  response: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({
      state: 'done',
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
    })
    .where(where(scope));
}

/** Forgets a claim whose request failed unexpectedly, so a retry can run. */
export async function releaseIdempotencyKey(tx: Tx, scope: Scope): Promise<void> {
  await tx
    .delete(idempotencyKeys)
    .where(and(where(scope), eq(idempotencyKeys.state, 'processing')));
}

/** Deletes expired keys; returns how many. */
export async function deleteExpiredIdempotencyKeys(tx: Tx): Promise<number> {
  const rows = await tx
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, sql`now()`))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
