import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DETAIL_SCALE,
  DETAILS,
  DOCUMENT_PRICES,
  documentCredits,
  PRICES,
  priceOf,
  REVISION_FEE,
  revisionPrice,
} from './prices.ts';

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
      // The codebase overview is rewritten only by a revision that sends a new digest,
      // which the console never does (docs/brownfield.md).
    ).toEqual(['project-brief', 'codebase-overview']);
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

describe('detail levels', () => {
  const types = ['web', 'mobile', 'mcp'] as const;
  /** The documents of `type` with their standard credits, from the table. */
  const creditsOf = (type: (typeof types)[number]) =>
    Object.entries(DOCUMENT_PRICES).filter(([, p]) => p.types === 'all' || p.types === type);

  it('scale each document by 0.5, 1 or 1.5, rounded up per document, at least 1', () => {
    expect({ ...DETAIL_SCALE }).toEqual({ brief: 0.5, standard: 1, deep: 1.5 });
    expect(documentCredits(5, 'brief')).toBe(3);
    expect(documentCredits(8, 'brief')).toBe(4);
    expect(documentCredits(3, 'deep')).toBe(5);
    expect(documentCredits(6, 'deep')).toBe(9);
    expect(documentCredits(1, 'brief')).toBe(1);
    expect(documentCredits(7)).toBe(7);
  });

  it('price a project as the sum of its documents at the level, never the total scaled', () => {
    for (const { value: detail } of DETAILS) {
      for (const type of types) {
        const sum = creditsOf(type).reduce(
          (total, [, price]) =>
            total + Math.max(1, Math.ceil(price.credits * DETAIL_SCALE[detail])),
          0,
        );
        expect(priceOf(type, detail), `${type} ${detail}`).toBe(sum);
      }
    }
    // Rounding per document makes a brief project dearer than half the standard price.
    expect(priceOf('web', 'brief')).toBeGreaterThan(Math.ceil(PRICES.web / 2));
  });

  it('come to these prices per type, and the dearest type without one', () => {
    const table = Object.fromEntries(
      DETAILS.map(({ value }) => [
        value,
        {
          web: priceOf('web', value),
          mobile: priceOf('mobile', value),
          mcp: priceOf('mcp', value),
        },
      ]),
    );
    expect(table).toEqual({
      brief: { web: 25, mobile: 27, mcp: 27 },
      standard: { web: 47, mobile: 50, mcp: 50 },
      deep: { web: 72, mobile: 77, mcp: 77 },
    });
    expect(DETAILS.map(({ value }) => priceOf(undefined, value))).toEqual([27, 50, 77]);
    expect(priceOf('mcp')).toBe(priceOf('mcp', 'standard'));
  });

  it('price a revision at the level: the fee as it is, the documents scaled', () => {
    expect(revisionPrice('web', 'standard')).toEqual(revisionPrice('web'));
    for (const type of types) {
      for (const { value: detail } of DETAILS) {
        const brief = documentCredits(DOCUMENT_PRICES['project-brief']!.credits, detail);
        expect(revisionPrice(type, detail)).toEqual({
          fee: REVISION_FEE,
          documents: priceOf(type, detail) - brief,
          total: REVISION_FEE + priceOf(type, detail) - brief,
        });
      }
    }
    expect(revisionPrice('web', 'brief').total).toBe(24);
    expect(revisionPrice('mobile', 'deep').total).toBe(71);
  });

  it('list brief, standard and deep, each with a line saying what it asks for', () => {
    expect(DETAILS.map((level) => level.label)).toEqual(['Brief', 'Standard', 'Deep']);
    for (const level of DETAILS) expect(level.hint).toMatch(/^[A-Z].+\.$/);
  });
});
