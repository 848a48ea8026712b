import { and, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { creditBalances, creditLedger, projectRevisions, projects } from '../schema.ts';
import type { Mode } from './accounts.ts';

export interface Movement {
  accountId: string;
  mode: Mode;
  /** Positive adds to the balance, negative takes from it. */
  amount: number;
  kind: string;
  projectId?: string | null;
  /** Unique per movement: recording the same key twice changes nothing. */
  movementKey: string;
}

/**
 * Records a movement and applies it to the balance, once per `movementKey`. Call inside a
 * transaction. Returns the balance after the movement, or `undefined` when the movement
 * had already been recorded.
 */
export async function recordMovement(tx: Tx, movement: Movement): Promise<number | undefined> {
  const inserted = await tx
    .insert(creditLedger)
    .values({ ...movement, projectId: movement.projectId ?? null })
    .onConflictDoNothing({ target: creditLedger.movementKey })
    .returning({ id: creditLedger.id });
  if (inserted.length === 0) return undefined;
  const [row] = await tx
    .insert(creditBalances)
    .values({ accountId: movement.accountId, mode: movement.mode, balance: movement.amount })
    .onConflictDoUpdate({
      target: [creditBalances.accountId, creditBalances.mode],
      set: { balance: sql`${creditBalances.balance} + ${movement.amount}` },
    })
    .returning({ balance: creditBalances.balance });
  return row!.balance;
}

export async function getBalance(tx: Tx, accountId: string, mode: Mode): Promise<number> {
  const [row] = await tx
    .select({ balance: creditBalances.balance })
    .from(creditBalances)
    .where(and(eq(creditBalances.accountId, accountId), eq(creditBalances.mode, mode)));
  return row?.balance ?? 0;
}

/**
 * Takes `amount` from the balance only if the balance covers it, recording the movement
 * once. Returns the balance after, `undefined` when this movement was already recorded,
 * or `false` when the balance is short (nothing is recorded then).
 */
export async function debitIfCovered(
  tx: Tx,
  movement: Omit<Movement, 'amount'> & { amount: number },
): Promise<number | undefined | false> {
  const inserted = await tx
    .insert(creditLedger)
    .values({ ...movement, amount: -movement.amount, projectId: movement.projectId ?? null })
    .onConflictDoNothing({ target: creditLedger.movementKey })
    .returning({ id: creditLedger.id });
  if (inserted.length === 0) return undefined;
  const [row] = await tx
    .update(creditBalances)
    .set({ balance: sql`${creditBalances.balance} - ${movement.amount}` })
    .where(
      and(
        eq(creditBalances.accountId, movement.accountId),
        eq(creditBalances.mode, movement.mode),
        gte(creditBalances.balance, movement.amount),
      ),
    )
    .returning({ balance: creditBalances.balance });
  if (row === undefined) {
    await tx.delete(creditLedger).where(eq(creditLedger.movementKey, movement.movementKey));
    return false;
  }
  return row.balance;
}

/**
 * Credits held by the runs in progress of an account in one mode: projects in progress and
 * revisions in progress (a revision's account and mode are its project's; a completed
 * project being revised holds its revision's reservation).
 */
export async function sumReservedCredits(tx: Tx, accountId: string, mode: Mode): Promise<number> {
  const [created] = await tx
    .select({ reserved: sql<number>`coalesce(sum(${projects.creditsReserved}), 0)::int` })
    .from(projects)
    .where(
      and(
        eq(projects.accountId, accountId),
        eq(projects.mode, mode),
        eq(projects.status, 'in_progress'),
      ),
    );
  const [revising] = await tx
    .select({ reserved: sql<number>`coalesce(sum(${projectRevisions.creditsReserved}), 0)::int` })
    .from(projectRevisions)
    .innerJoin(projects, eq(projects.id, projectRevisions.projectId))
    .where(
      and(
        eq(projects.accountId, accountId),
        eq(projects.mode, mode),
        eq(projectRevisions.status, 'in_progress'),
      ),
    );
  return Number(created?.reserved ?? 0) + Number(revising?.reserved ?? 0);
}
