import { DomainError } from '../errors.ts';
import { newUlid } from '../ids.ts';
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  debitIfCovered,
  getBalance,
  recordMovement,
  sumReservedCredits,
} from '../storage/sql/credits.ts';

/**
 * The balance does not cover a price: INSUFFICIENT_CREDITS with `required` and `available`,
 * as the contract details it.
 *
 * @example
 * new InsufficientCreditsError(12, 5, 'revision').message; // 'This revision costs 12 credits; 5 are available.'
 */
export class InsufficientCreditsError extends DomainError {
  override name = 'InsufficientCreditsError';
  readonly required: number;
  readonly available: number;

  constructor(required: number, available: number, what: 'project' | 'revision' = 'project') {
    super(
      'INSUFFICIENT_CREDITS',
      `This ${what} costs ${required} credits; ${available} are available.`,
      {
        required,
        available,
      },
    );
    this.required = required;
    this.available = available;
  }
}

interface ProjectCharge {
  projectId: string;
  accountId: string;
  mode: Mode;
  /** A revision after the creation (2 and up): its movements are `project:<id>:r<n>:…`. */
  revision?: number | undefined;
}

/** The movement key of a project run's movement: `project:<id>:<what>`, `project:<id>:r<n>:<what>`. */
export const movementKey = (charge: ProjectCharge, what: string) =>
  charge.revision !== undefined && charge.revision > 1
    ? `project:${charge.projectId}:r${charge.revision}:${what}`
    : `project:${charge.projectId}:${what}`;

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
    movementKey: `grant:${newUlid()}`,
  });
  return balance ?? getBalance(tx, grant.accountId, grant.mode);
}

/**
 * Reserves a project's price at creation (movement `project:<id>:reserve`); throws
 * {@link InsufficientCreditsError} when the balance is short. Run in the creating transaction.
 */
export async function reserveCredits(
  tx: Tx,
  charge: ProjectCharge & { amount: number },
): Promise<void> {
  if (charge.amount === 0) return;
  const result = await debitIfCovered(tx, {
    accountId: charge.accountId,
    mode: charge.mode,
    amount: charge.amount,
    kind: 'reserve',
    projectId: charge.projectId,
    movementKey: movementKey(charge, 'reserve'),
  });
  if (result === false) {
    throw new InsufficientCreditsError(
      charge.amount,
      await getBalance(tx, charge.accountId, charge.mode),
      charge.revision !== undefined && charge.revision > 1 ? 'revision' : 'project',
    );
  }
}

/**
 * Settles a completed project: records the charge (movement `project:<id>:consume`, amount
 * 0: the reservation already took it) and gives back the reservation minus what was
 * consumed (`project:<id>:release`), each exactly once however often it is called.
 */
export async function settleCredits(
  tx: Tx,
  charge: ProjectCharge & { reserved: number; consumed: number },
): Promise<void> {
  const unused = charge.reserved - charge.consumed;
  await recordMovement(tx, {
    accountId: charge.accountId,
    mode: charge.mode,
    amount: 0,
    kind: 'consume',
    projectId: charge.projectId,
    movementKey: movementKey(charge, 'consume'),
  });
  if (unused <= 0) return;
  await recordMovement(tx, {
    accountId: charge.accountId,
    mode: charge.mode,
    amount: unused,
    kind: 'release',
    projectId: charge.projectId,
    movementKey: movementKey(charge, 'release'),
  });
}

/** Gives a failed project's whole reservation back (movement `project:<id>:refund`), once. */
export async function refundCredits(
  tx: Tx,
  charge: ProjectCharge & { reserved: number },
): Promise<void> {
  if (charge.reserved <= 0) return;
  await recordMovement(tx, {
    accountId: charge.accountId,
    mode: charge.mode,
    amount: charge.reserved,
    kind: 'refund',
    projectId: charge.projectId,
    movementKey: movementKey(charge, 'refund'),
  });
}

/** The spendable balance and what in-progress projects hold in reserve. */
export async function creditSummary(
  tx: Tx,
  accountId: string,
  mode: Mode,
): Promise<{ balance: number; reserved: number }> {
  const [balance, reserved] = await Promise.all([
    getBalance(tx, accountId, mode),
    sumReservedCredits(tx, accountId, mode),
  ]);
  return { balance, reserved };
}

export { getBalance };
