import { describe, expect, it } from 'vitest';
import { budgetMessage, cancellationMessage } from './result.ts';

describe('the messages of a stopped project', () => {
  it('a cancellation says what was charged and released', () => {
    expect(cancellationMessage({ documents: 2, charged: 13, released: 34 })).toBe(
      'The project was cancelled. 13 credits were charged for the 2 documents already generated; the remaining 34 were released.',
    );
    expect(cancellationMessage({ documents: 1, charged: 1, released: 0 })).toBe(
      'The project was cancelled. 1 credit was charged for the 1 document already generated.',
    );
    expect(cancellationMessage({ documents: 0, charged: 0, released: 47 })).toBe(
      'The project was cancelled before any document was generated; nothing was charged.',
    );
  });

  it('a budget stop says the budget and what the calls cost, then the settlement', () => {
    expect(
      budgetMessage(
        { limitUsd: 0.5, spentUsd: 0.4312 },
        { documents: 2, charged: 13, released: 34 },
      ),
    ).toBe(
      'The project stopped before its next model call could pass its budget of $0.5000; its model calls cost $0.4312. 13 credits were charged for the 2 documents already generated; the remaining 34 were released.',
    );
    expect(
      budgetMessage({ limitUsd: 2, spentUsd: 0.0312 }, { documents: 0, charged: 0, released: 47 }),
    ).toBe(
      'The project stopped before its next model call could pass its budget of $2.00; its model calls cost $0.0312. No document was generated; nothing was charged.',
    );
  });
});
