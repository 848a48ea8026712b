import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS, documentKindsOf, GROUNDED_ARCHITECTURE_SECTIONS } from './catalogue.ts';
import {
  DETAIL_LEVELS,
  DETAIL_SCALE,
  documentCredits,
  projectCredits,
  REVISION_FEE,
  revisableKindsOf,
  revisionCredits,
} from './credits.ts';
import { openapiDocument } from './generated/openapi.ts';

const TYPES = ['web', 'mobile', 'mcp'] as const;

const readDoc = (name: string) =>
  readFile(path.resolve(import.meta.dirname, '..', '..', '..', 'docs', name), 'utf8');

/** The credits table of docs/api.md: kind → stage, credits and the types that generate it. */
async function documentedTable(): Promise<
  Record<string, { stage: string; credits: number; types: string }>
> {
  const doc = await readDoc('api.md');
  const start = doc.indexOf('### Credits');
  const end = doc.indexOf('\n## ', start);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const rows: Record<string, { stage: string; credits: number; types: string }> = {};
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    // | kind | stage | credits | types |
    if (cells.length !== 6 || !/^\d+$/.test(cells[3] ?? '')) continue;
    rows[cells[1] ?? ''] = {
      stage: cells[2] ?? '',
      credits: Number(cells[3]),
      types: cells[4] ?? '',
    };
  }
  expect(
    Object.keys(rows).length,
    'the credits table of docs/api.md was not found',
  ).toBeGreaterThan(5);
  return rows;
}

/** The "Detail levels" table of docs/api.md: type → [brief, standard, deep, revision triple]. */
async function documentedLevels(): Promise<Record<string, string[]>> {
  const doc = await readDoc('api.md');
  const section = doc.slice(doc.indexOf('#### Detail levels'));
  const rows: Record<string, string[]> = {};
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length === 7 && TYPES.includes(cells[1] as (typeof TYPES)[number]))
      rows[cells[1]!] = cells.slice(2, 6);
  }
  return rows;
}

describe('the catalogue', () => {
  it('matches the credits table of docs/api.md, kind by kind and in its order', async () => {
    const table = Object.fromEntries(
      Object.entries(DOCUMENT_KINDS).map(([kind, { stage, credits, types }]) => [
        kind,
        { stage, credits, types },
      ]),
    );
    const documented = await documentedTable();
    expect(table).toEqual(documented);
    expect(Object.keys(DOCUMENT_KINDS)).toEqual(Object.keys(documented));
  });

  it('gives each kind its own file and its own sections', () => {
    const kinds = Object.values(DOCUMENT_KINDS);
    expect(new Set(kinds.map((k) => k.filename)).size).toBe(kinds.length);
    for (const kind of kinds) {
      expect(kind.filename).toMatch(/^[A-Z_]+\.md$/);
      expect(new Set(kind.sections).size).toBe(kind.sections.length);
    }
    expect(GROUNDED_ARCHITECTURE_SECTIONS).toEqual([
      'Current system',
      ...DOCUMENT_KINDS.architecture.sections,
    ]);
  });

  it('plans the shared documents, the type’s design documents, then the plan and the README', () => {
    const plan = 'a kind added to the catalogue: list it here, price it in docs/api.md';
    expect(documentKindsOf('web'), plan).toEqual([
      'project-brief',
      'product-requirements',
      'user-stories',
      'architecture',
      'data-model',
      'api-design',
      'implementation-plan',
      'readme',
    ]);
    expect(documentKindsOf('mobile').slice(4, 7), plan).toEqual([
      'screens',
      'navigation',
      'offline-and-permissions',
    ]);
    expect(documentKindsOf('mcp', { grounded: true }).slice(0, 3), plan).toEqual([
      'project-brief',
      'codebase-overview',
      'product-requirements',
    ]);
  });

  it('has the detail levels of the contract', () => {
    const detail = openapiDocument.components.schemas.CreateProjectRequest.properties.detail;
    expect([...DETAIL_LEVELS]).toEqual([...detail.enum]);
  });
});

describe('project credits', () => {
  it('sum to the prices per type docs/api.md states, grounded or not', async () => {
    const doc = (await readDoc('api.md')).replace(/\s+/g, ' ');
    const [web, mobile, mcp] = TYPES.map((type) => projectCredits(type));
    expect([web, mobile, mcp]).toEqual([47, 50, 50]);
    expect(doc).toContain(
      `a web project costs ${web} credits, a mobile project ${mobile} and an MCP server ${mcp}`,
    );
    const grounded = TYPES.map((type) => projectCredits(type, 'standard', { grounded: true }));
    const overview = DOCUMENT_KINDS['codebase-overview'].credits;
    expect(doc).toContain(
      `${overview} credits more: ${grounded.join(', ').replace(/, (\d+)$/, ' and $1')} (without a type, ${projectCredits(undefined, 'standard', { grounded: true })} reserved)`,
    );
  });

  it('scale each document by 0.5, 1 or 1.5, rounded up per document, at least 1', () => {
    expect({ ...DETAIL_SCALE }).toEqual({ brief: 0.5, standard: 1, deep: 1.5 });
    expect(documentCredits('project-brief', 'brief')).toBe(3);
    expect(documentCredits(8, 'brief')).toBe(4);
    expect(documentCredits(3, 'deep')).toBe(5);
    expect(documentCredits(6, 'deep')).toBe(9);
    expect(documentCredits(1, 'brief')).toBe(1);
    expect(documentCredits(7)).toBe(7);
  });

  it('price a project as the sum of its documents at the level, never the total scaled', () => {
    for (const detail of DETAIL_LEVELS) {
      for (const type of TYPES) {
        const sum = documentKindsOf(type).reduce(
          (total, kind) =>
            total + Math.max(1, Math.ceil(DOCUMENT_KINDS[kind].credits * DETAIL_SCALE[detail])),
          0,
        );
        expect(projectCredits(type, detail), `${type} ${detail}`).toBe(sum);
      }
    }
    // Rounding per document makes a brief project dearer than half the standard price.
    expect(projectCredits('web', 'brief')).toBeGreaterThan(Math.ceil(projectCredits('web') / 2));
  });

  it('hold the dearest type’s price when the type is left to the model', () => {
    for (const detail of DETAIL_LEVELS)
      expect(projectCredits(undefined, detail)).toBe(
        Math.max(...TYPES.map((type) => projectCredits(type, detail))),
      );
    expect(DETAIL_LEVELS.map((detail) => projectCredits(undefined, detail))).toEqual([27, 50, 77]);
  });
});

describe('revision credits', () => {
  it('are the analysis fee docs/revisions.md names plus every document but the brief', async () => {
    const doc = (await readDoc('revisions.md')).replace(/\s+/g, ' ');
    expect(doc).toContain(`an analysis fee (${REVISION_FEE} credits)`);
    expect(doc).toContain('every document of the type except the brief');
    for (const type of TYPES) {
      const brief = DOCUMENT_KINDS['project-brief'].credits;
      expect(revisionCredits(type)).toEqual({
        fee: REVISION_FEE,
        documents: projectCredits(type) - brief,
        total: REVISION_FEE + projectCredits(type) - brief,
      });
    }
  });

  it('rewrite the codebase overview only with a new digest', () => {
    expect(revisableKindsOf('web', { grounded: true })).not.toContain('codebase-overview');
    expect(revisableKindsOf('web', { grounded: true, newDigest: true })[0]).toBe(
      'codebase-overview',
    );
    // A project created without a digest has no overview to rewrite.
    expect(revisableKindsOf('web', { newDigest: true })).toEqual(revisableKindsOf('web'));
  });

  it('match the table of docs/api.md at every level', async () => {
    const table = Object.fromEntries(
      TYPES.map((type) => [
        type,
        [
          ...DETAIL_LEVELS.map((detail) => String(projectCredits(type, detail))),
          DETAIL_LEVELS.map((detail) => revisionCredits(type, detail).total).join(' / '),
        ],
      ]),
    );
    expect(table).toEqual(await documentedLevels());
    expect(revisionCredits('web', 'brief').total).toBe(24);
    expect(revisionCredits('mobile', 'deep').total).toBe(71);
  });
});
