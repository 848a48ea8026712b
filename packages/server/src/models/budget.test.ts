import { describe, expect, it } from 'vitest';
import { Budget, BudgetExceededError, usd } from './budget.ts';

describe('Budget', () => {
  it('holds worst cases against what is left, and settles them with what calls cost', () => {
    const budget = new Budget(0.5, 0.1);
    const a = budget.hold(0.2);
    const b = budget.hold(0.2);
    // 0.1 spent + 0.4 held: a third hold of anything passes the limit.
    expect(() => budget.hold(0.000001)).toThrow(BudgetExceededError);
    budget.settle(a, 0.05);
    budget.settle(b, 0);
    expect(budget.spentUsd).toBe(0.15);
    expect(() => budget.hold(0.35)).not.toThrow();
  });

  it('adds micro-dollars exactly, with no float drift', () => {
    const budget = new Budget(1);
    for (let i = 0; i < 10; i++) budget.settle(budget.hold(0.1), 0.1);
    expect(budget.spentUsd).toBe(1);
    expect(() => budget.hold(0.000001)).toThrow(BudgetExceededError);
  });

  it('refuses a call whose model has no price, and charges an unknown cost at its hold', () => {
    const budget = new Budget(1);
    const error = (() => {
      try {
        budget.hold(null);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect((error as BudgetExceededError).nextUsd).toBeNull();
    budget.settle(budget.hold(0.3), null);
    expect(budget.spentUsd).toBe(0.3);
  });

  it('says what it refused in dollars a person reads', () => {
    const error = new BudgetExceededError(0.5, 0.4312, 0.13);
    expect(error.message).toBe(
      'the next model call could cost up to $0.1300, past the budget of $0.5000 ($0.4312 spent)',
    );
    expect(usd(12.345)).toBe('$12.35');
  });
});
