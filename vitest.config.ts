import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // Vitest's default leaves a core idle (cores − 1: one worker on a 2-core CI machine), but
    // most files spend their time waiting on servers, child processes and the database, so one
    // worker per core finishes the suite sooner without starving anything.
    maxWorkers: Math.max(2, availableParallelism()),
    // Bounds on a test or hook that hangs, not speed targets: generous enough that a machine
    // loaded far beyond its cores (the soak check, docs/testing.md) does not trip them.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
    // A migrated PGlite database, dumped once per run: every test database starts from it.
    globalSetup: ['./packages/server/test/helpers/global-setup.ts'],
  },
});
