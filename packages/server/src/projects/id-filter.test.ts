import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdFilter } from './id-filter.ts';

describe('IdFilter', () => {
  it('always has what was added, and rarely what was not (about 1 % at capacity)', () => {
    const filter = new IdFilter(20_000);
    const added = Array.from({ length: 20_000 }, () => randomUUID());
    for (const id of added) filter.add(id);
    expect(added.every((id) => filter.has(id))).toBe(true);
    let passed = 0;
    for (let i = 0; i < 20_000; i++) if (filter.has(randomUUID())) passed++;
    expect(passed / 20_000).toBeLessThan(0.03);
    expect(filter.count).toBe(20_000);
    expect(filter.bytes).toBe(Math.ceil((20_000 * 10) / 32) * 4);
  });

  it('empty, it has nothing; two filters probe differently (keyed per instance)', () => {
    const id = randomUUID();
    expect(new IdFilter(100).has(id)).toBe(false);
    // Overfilled on purpose (about 4 in 10 unknown ids pass): the ids that pass one
    // filter by chance mostly do not pass another built from the same ids.
    const a = new IdFilter(64);
    const b = new IdFilter(64);
    for (let i = 0; i < 300; i++) {
      const added = randomUUID();
      a.add(added);
      b.add(added);
    }
    const passA = Array.from({ length: 5_000 }, () => randomUUID()).filter((x) => a.has(x));
    expect(passA.length).toBeGreaterThan(500);
    expect(passA.filter((x) => b.has(x)).length).toBeLessThan(passA.length);
  });
});
