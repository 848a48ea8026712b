import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_PRICES, PRICES, priceOf, REVISION_FEE, revisionPrice } from './prices.ts';

const readDoc = (name: string) =>
  readFile(path.resolve(import.meta.dirname, '..', '..', '..', 'docs', name), 'utf8');

/** The credits table of docs/api.md: kind → credits and the types that generate it. */
async function documentedTable(): Promise<Record<string, { credits: number; types: string }>> {
  const doc = await readDoc('api.md');
  const start = doc.indexOf('### Credits');
  const end = doc.indexOf('\n## ', start);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const rows: Record<string, { credits: number; types: string }> = {};
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | kind | stage | credits | types |
    if (cells.length !== 6 || !/^\d+$/.test(cells[3] ?? '')) continue;
    rows[cells[1] ?? ''] = { credits: Number(cells[3]), types: cells[4] ?? '' };
  }
  expect(
    Object.keys(rows).length,
    'the credits table of docs/api.md was not found',
  ).toBeGreaterThan(5);
  return rows;
}

describe('prices', () => {
  it('match the credits table of docs/api.md, kind by kind', async () => {
    const table = Object.fromEntries(
      Object.entries(DOCUMENT_PRICES).map(([kind, { credits, types }]) => [
        kind,
        { credits, types },
      ]),
    );
    expect(table).toEqual(await documentedTable());
  });

  it('sum to the prices per type docs/api.md states', async () => {
    expect({ ...PRICES }).toEqual({ web: 47, mobile: 50, mcp: 50 });
    const doc = await readDoc('api.md');
    expect(doc).toContain(
      `a web project costs ${PRICES.web} credits, a mobile project ${PRICES.mobile} and an MCP server ${PRICES.mcp}`,
    );
  });

  it('hold the dearest price when the type is left to the model', () => {
    expect(priceOf(undefined)).toBe(Math.max(PRICES.web, PRICES.mobile, PRICES.mcp));
    expect(priceOf('web')).toBe(PRICES.web);
  });
});

describe('revisionPrice', () => {
  it('is the analysis fee docs/revisions.md names plus every document but the brief', async () => {
    const doc = (await readDoc('revisions.md')).replace(/\s+/g, ' ');
    expect(doc).toContain(`an analysis fee (${REVISION_FEE} credits)`);
    expect(doc).toContain('every document of the type except the brief');
    expect(
      Object.entries(DOCUMENT_PRICES)
        .filter(([, price]) => !price.revisable)
        .map(([kind]) => kind),
    ).toEqual(['project-brief']);
    const brief = DOCUMENT_PRICES['project-brief']!.credits;
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      expect(revisionPrice(type)).toEqual({
        fee: REVISION_FEE,
        documents: PRICES[type] - brief,
        total: REVISION_FEE + PRICES[type] - brief,
      });
    }
  });

  it('reserves 44 credits for a web project and 47 for a mobile app or an MCP server', () => {
    expect(revisionPrice('web').total).toBe(44);
    expect(revisionPrice('mobile').total).toBe(47);
    expect(revisionPrice('mcp').total).toBe(47);
  });
});
