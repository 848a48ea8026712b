/**
 * A project's spending limit on model calls (`maxCostUsd`, docs/cost.md): before each call
 * its worst case (every input token at the dearer input price, the whole output allowance)
 * is held against what is left; a call that could pass the limit is not made. Amounts are
 * whole micro-dollars, so holds and settlements add up exactly.
 */

/** The next call could pass the project's budget: the run stops before making it. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
  /** The limit, in USD. */
  readonly limitUsd: number;
  /** Spent by the project's calls so far (settled and held), in USD. */
  readonly spentUsd: number;
  /** The worst case of the call refused, in USD; null when its model has no price. */
  readonly nextUsd: number | null;
  constructor(limitUsd: number, spentUsd: number, nextUsd: number | null) {
    super(
      nextUsd === null
        ? `the next model call has no known price, and the budget of ${usd(limitUsd)} cannot be kept`
        : `the next model call could cost up to ${usd(nextUsd)}, past the budget of ${usd(limitUsd)} (${usd(spentUsd)} spent)`,
    );
    this.limitUsd = limitUsd;
    this.spentUsd = spentUsd;
    this.nextUsd = nextUsd;
  }
}

/** Dollars as a person reads them: cents from a dollar up, else four significant decimals. */
export function usd(amount: number): string {
  return amount >= 1 ? `$${amount.toFixed(2)}` : `$${amount.toFixed(4)}`;
}

const micro = (amountUsd: number) => Math.round(amountUsd * 1e6);

/**
 * What one run may still spend. Calls in flight at once each hold their worst case until
 * they settle with what they did cost.
 *
 * @example
 * const budget = new Budget(0.5, spentSoFar);
 * const hold = budget.hold(0.12); // throws BudgetExceededError when it could pass 0.5
 * budget.settle(hold, 0.031);
 */
export class Budget {
  readonly #limit: number;
  #spent: number;
  #held = 0;

  constructor(limitUsd: number, spentUsd = 0) {
    this.#limit = micro(limitUsd);
    this.#spent = micro(spentUsd);
  }

  /** Spent so far by settled calls, in USD. */
  get spentUsd(): number {
    return this.#spent / 1e6;
  }

  /**
   * Holds the worst case of a call about to be made; null (no known price) is refused.
   * Returns the hold, to be settled once the call has ended.
   */
  hold(worstUsd: number | null): number {
    const worst = worstUsd === null ? null : micro(worstUsd);
    if (worst === null || this.#spent + this.#held + worst > this.#limit) {
      throw new BudgetExceededError(this.#limit / 1e6, (this.#spent + this.#held) / 1e6, worstUsd);
    }
    this.#held += worst;
    return worst;
  }

  /** Ends a hold with what the call cost (0 when it reported nothing, e.g. a time-out). */
  settle(hold: number, costUsd: number | null): void {
    this.#held -= hold;
    // A call whose cost is unknown is charged at its hold: never less than it may have cost.
    this.#spent += costUsd === null ? hold : micro(costUsd);
  }
}
