import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRICES, priceOf } from './prices.ts';

/** The credits table of docs/api.md: kind → credits and the types that generate it. */
async function documentedPrices(): Promise<Record<string, number>> {
  const doc = await readFile(
    path.resolve(import.meta.dirname, '..', '..', '..', 'docs', 'api.md'),
    'utf8',
  );
  const start = doc.indexOf('### Credits');
  const end = doc.indexOf('\n## ', start);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const totals: Record<string, number> = { web: 0, mobile: 0, mcp: 0 };
  let rows = 0;
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | kind | stage | credits | types |
    if (cells.length !== 6 || !/^\d+$/.test(cells[3] ?? '')) continue;
    rows++;
    const credits = Number(cells[3]);
    const types = cells[4] === 'all' ? Object.keys(totals) : [cells[4] ?? ''];
    for (const type of types) totals[type] = (totals[type] ?? 0) + credits;
  }
  expect(rows, 'the credits table of docs/api.md was not found').toBeGreaterThan(5);
  return totals;
}

describe('prices', () => {
  it('match the credits table of docs/api.md', async () => {
    expect({ ...PRICES }).toEqual(await documentedPrices());
  });

  it('hold the dearest price when the type is left to the model', () => {
    expect(priceOf(undefined)).toBe(Math.max(PRICES.web, PRICES.mobile, PRICES.mcp));
    expect(priceOf('web')).toBe(PRICES.web);
  });
});
