import { ulid } from 'ulid';
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { getBalance, recordMovement } from '../storage/sql/credits.ts';

/**
 * Adds credits to an account's balance in one mode; returns the new balance.
 *
 * @example
 * await grantCredits(db, { accountId, mode: 'test', amount: 1000 });
 */
export async function grantCredits(
  tx: Tx,
  grant: { accountId: string; mode: Mode; amount: number },
): Promise<number> {
  const balance = await recordMovement(tx, {
    ...grant,
    kind: 'grant',
    movementKey: `grant:${ulid()}`,
  });
  return balance ?? getBalance(tx, grant.accountId, grant.mode);
}

export { getBalance };
