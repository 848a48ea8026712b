import {
  EXPRESS_POSTGRES,
  GO_CHI,
  naiveDigest,
  PYTHON_FASTAPI,
} from '@pgs/contract/testing/repositories';
import { describe, expect, it } from 'vitest';
import { readCodebase } from './read.ts';
import { filesForTerms, rankFiles } from './terms.ts';

const factsOf = (repository: typeof EXPRESS_POSTGRES) => {
  const digest = naiveDigest(repository);
  return readCodebase({ name: digest.name, commit: null, files: digest.files });
};

describe('filesForTerms', () => {
  const express = factsOf(EXPRESS_POSTGRES);

  it('ranks the appointment files first for "appointment reminders" in the Express repository', () => {
    const files = filesForTerms(express, ['appointment reminders']);
    expect(files[0]).toBe('src/routes/appointments.ts');
    expect(files.slice(0, 3)).toEqual([
      'src/routes/appointments.ts',
      'migrations/001_init.sql',
      'test/appointments.test.ts',
    ]);
    expect(files).not.toContain('src/routes/owners.ts');
    expect(files).not.toContain('README.md');
  });

  it('says why a file matched', () => {
    const [first] = rankFiles(express, ['Appointments']);
    expect(first?.reasons).toEqual([
      'its name says appointment',
      'route GET /appointments',
      'part of Routes (HTTP routes for /appointments and /owners)',
    ]);
  });

  it('finds the payments code for "team billing" through close words, and says so', () => {
    expect(rankFiles(express, ['team billing'])).toEqual([
      {
        path: 'src/services/payments.ts',
        score: 2,
        reasons: ['its name says payment (close to billing)', 'part of Services (Stripe payments)'],
        terms: ['billing'],
      },
    ]);
    expect(filesForTerms(express, ['deposit payments'])[0]).toBe('src/services/payments.ts');
  });

  it('matches plural and singular loosely, in paths, routes and tables', () => {
    expect(filesForTerms(factsOf(PYTHON_FASTAPI), ['invoice'])).toEqual([
      'app/routers/invoices.py',
      'alembic/versions/0001_init.py',
      'app/models.py',
      'tests/test_invoices.py',
    ]);
    expect(filesForTerms(factsOf(GO_CHI), ['vehicle positions']).slice(0, 3)).toEqual([
      'db/schema.sql',
      'cmd/server/main.go',
      'internal/vehicles/handler.go',
    ]);
  });

  it('is empty when nothing matches, or when the words are all common ones', () => {
    expect(filesForTerms(express, ['quantum teleportation'])).toEqual([]);
    expect(filesForTerms(express, ['add a new feature to the app'])).toEqual([]);
    expect(filesForTerms(express, [])).toEqual([]);
  });

  it('honours a limit', () => {
    expect(filesForTerms(express, ['appointments owners pets'], { limit: 2 })).toHaveLength(2);
  });
});
