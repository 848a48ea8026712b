import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import { creditBalances, creditLedger } from '../schema.ts';
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
