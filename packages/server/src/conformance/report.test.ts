import { describe, expect, it } from 'vitest';
import { DIGEST, SPEC_DOCUMENTS } from '../../test/fixtures/conformance.ts';
import { codebaseFacts } from '../models/codebase.ts';
import { routeKey, TextIndex } from './match.ts';
import { conformanceReport } from './report.ts';
import { specView } from './spec.ts';
import { MAX_CHANGE_REQUEST, suggestedChange } from './suggestion.ts';

const facts = codebaseFacts({ name: DIGEST.name, commit: null, files: DIGEST.files });
const report = conformanceReport(specView(SPEC_DOCUMENTS), {
  facts,
  citations: DIGEST.citations ?? [],
});
const requirement = (id: string) => report.requirements.find((r) => r.id === id)!;

describe('conformanceReport', () => {
  it('calls a requirement tested when a test cites one of its criteria', () => {
    expect(requirement('FR-1').status).toBe('tested');
    expect(requirement('FR-1').tests).toEqual([
      expect.objectContaining({ path: 'test/pets.test.ts', line: 3, id: 'FR-1.1' }),
    ]);
    const cited = report.criteria.find((c) => c.id === 'FR-1.1')!;
    expect(cited.tests.map((t) => `${t.path}:${t.line}`)).toEqual(['test/pets.test.ts:3']);
    expect(report.criteria.find((c) => c.id === 'FR-1.2')!.tests).toEqual([]);
  });

  it('calls a requirement implemented when its task files exist but no test cites it', () => {
    expect(requirement('FR-2').status).toBe('implemented');
    expect(requirement('FR-2').evidence).toContainEqual({
      kind: 'file',
      name: 'src/jobs/reminders.ts',
      path: 'src/jobs/reminders.ts',
    });
    expect(requirement('FR-2').evidence).toContainEqual(
      expect.objectContaining({ kind: 'table', name: 'vaccinations' }),
    );
  });

  it('calls a requirement missing when neither code nor a test shows it', () => {
    expect(requirement('FR-3').status).toBe('missing');
    const t3 = report.tasks.find((t) => t.id === 'T-3')!;
    expect(t3.files).toEqual([{ path: 'src/calendar/week.ts', exists: false }]);
    expect(report.tasks.find((t) => t.id === 'T-1')!.files).toEqual([
      { path: 'src/routes/pets.ts', exists: true },
    ]);
    expect(report.tasks.find((t) => t.id === 'T-1')!.tests).toHaveLength(1);
  });

  it('lists routes and tables no requirement names as drift, and suggests a change naming them', () => {
    expect(report.drift.routes).toEqual([
      { method: 'GET', path: '/admin/export', file: 'src/routes/admin.ts' },
    ]);
    expect(report.drift.tables.map((t) => t.name)).toEqual(['audit_log']);
    // Migrations hold covered tables, the entry point starts the process: neither is drift.
    expect(report.drift.components.map((c) => c.path)).toEqual(['src/services']);
    expect(report.suggestedChange).toContain('GET /admin/export (src/routes/admin.ts)');
    expect(report.suggestedChange).toContain('audit_log');
    expect(report.suggestedChange).toContain('Services (src/services)');
    expect(report.totals).toMatchObject({
      requirements: 3,
      tested: 1,
      implemented: 1,
      missing: 1,
      criteria: 4,
      criteriaCited: 1,
    });
  });

  it('is deterministic', () => {
    const again = conformanceReport(specView(SPEC_DOCUMENTS), {
      facts,
      citations: DIGEST.citations ?? [],
    });
    expect(again).toEqual(report);
  });
});

describe('matching names', () => {
  it('reads route parameters in any spelling and mounted prefixes', () => {
    expect(routeKey('/Pets/:petId/')).toBe('/pets/{}');
    const index = new TextIndex('`GET /api/v1/pets/{id}` and the `pet_owners` table');
    expect(index.namesRoute('/pets/<int:id>')).toBe(true);
    expect(index.namesRoute('/owners')).toBe(false);
    expect(index.namesTable('PetOwner')).toBe(true);
    expect(index.namesComponent('Routes', 'src/routes')).toBe(false);
  });

  it('names a table in the singular by pluralize, not by cutting letters', () => {
    const index = new TextIndex('Each movie has a title and a category.');
    expect(index.namesTable('movies')).toBe(true);
    expect(index.namesTable('categories')).toBe(true);
    expect(index.namesTable('sms')).toBe(false);
  });

  it('keeps the suggested change within a revision request', () => {
    const routes = Array.from({ length: 500 }, (_, i) => ({
      method: 'GET',
      path: `/r${i}/${'x'.repeat(200)}`,
      file: `src/${'y'.repeat(300)}.ts`,
    }));
    const text = suggestedChange({ routes, tables: [], components: [] })!;
    expect(text.length).toBeLessThanOrEqual(MAX_CHANGE_REQUEST);
    expect(text).toContain('488 more');
    expect(suggestedChange({ routes: [], tables: [], components: [] })).toBeNull();
  });
});
