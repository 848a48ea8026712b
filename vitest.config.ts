import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Node's on-disk compile cache for every process of the run: vitest's workers and the
// servers, CLIs and MCP servers the tests start (they inherit the environment). Each such
// process otherwise strips the types of and compiles about a thousand modules again: about
// a quarter of a server's start, measured at 5.3 s against 4.0 s of CPU (docs/testing.md).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'pgs-test-compile-cache');

export default defineConfig({
  // Resolve packages as Node does when the server runs, without Vite's `development`
  // condition: with it, micromark and its extensions load their dev builds, which call
  // `debug` and assert on every token (about half of a documents-heavy file's CPU, measured
  // with PGS_TEST_PROFILE; docs/testing.md). Set on the environments themselves: a project's
  // config merges arrays, so `ssr.resolve.conditions` would only add to Vite's defaults.
  plugins: [
    {
      name: 'pgs:node-conditions',
      configEnvironment(_name, environment) {
        environment.resolve ??= {};
        environment.resolve.conditions = ['node'];
        environment.resolve.externalConditions = ['node'];
      },
    },
  ],
  test: {
    // One worker more than cores (three on a 2-core CI machine). The integration files spend
    // most of their time waiting on servers, child processes, simulated models and the
    // database: the ten heaviest took 420 s on two workers and 314 s on three for the same
    // CPU (290 s), measured together in one clone (docs/testing.md).
    maxWorkers: availableParallelism() + 1,
    // Bounds on a test or hook that hangs, not speed targets: generous enough that a machine
    // loaded far beyond its cores (the soak check, docs/testing.md) does not trip them.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
    // PGS_TEST_CPU=<file> records each file's CPU, its own and its child processes', and
    // PGS_TEST_PROFILE=<dir> its CPU profile (scripts/test-cpu-probe.ts, docs/testing.md).
    setupFiles:
      process.env.PGS_TEST_CPU || process.env.PGS_TEST_PROFILE
        ? ['./scripts/test-cpu-probe.ts']
        : [],
    // A migrated PGlite database, dumped once per run: every test database starts from it.
    globalSetup: ['./packages/server/test/helpers/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          // Unit tests beside the code they test: pure, or on their own in-memory database.
          // They share worker processes (isolate: false) instead of paying ~0.6 s of process
          // start and module loading per file; none changes globals it does not restore
          // (fake timers are put back in afterEach), so sharing a module cache is safe.
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The server's integration tests: the real app in process (the harness), or servers
          // and processes they start. They share worker processes too: a fresh process per
          // file loaded the server's module graph and the NLP model again each time, about
          // 4 s of CPU a file, a third of these files' CPU in all (docs/testing.md). Every
          // harness, runtime and process is closed in the file's afterAll, and none of these
          // files mocks a module or changes the environment.
          name: 'server',
          include: ['packages/server/test/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The other packages' integration tests, one fresh process per file: the SDK's and
          // the CLI's stub the environment and the clock, the repository's mocks a module.
          name: 'integration',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: ['packages/server/test/**'],
          // One real server for the run, started on the first file that asks, shared by the
          // SDK's and the CLI's files, each on an account of its own (docs/testing.md).
          globalSetup: ['./packages/client/test/shared-server-setup.ts'],
        },
      },
    ],
  },
});
