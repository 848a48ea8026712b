/**
 * Checking for flakes: runs the test suite N times in a row while busy loops load the
 * machine, stops at the first failing run and prints a summary.
 *
 *   npm run test:soak                          # 5 runs of the whole suite, 2 busy loops
 *   npm run test:soak -- --runs 2 --busy 1 packages/server/test/faults.test.ts
 *
 * Arguments after the options go to `vitest run` (files, `-t pattern`, …). Each run's output
 * is written to a log file (its path is printed); a failing run's tail is shown. Exit code:
 * 0 when every run passed, 1 otherwise.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const USAGE = 'usage: npm run test:soak -- [--runs N] [--busy N] [vitest arguments…]';

interface Options {
  runs: number;
  busy: number;
  vitestArgs: string[];
}

function parse(argv: string[]): Options {
  const options: Options = { runs: 5, busy: 2, vitestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--runs' || arg === '--busy') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < (arg === '--runs' ? 1 : 0)) {
        throw new Error(`${arg} needs a whole number\n${USAGE}`);
      }
      if (arg === '--runs') options.runs = value;
      else options.busy = value;
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else {
      options.vitestArgs.push(arg);
    }
  }
  return options;
}

/** A process spinning one core at 100 % until killed: the load of a busy machine. */
function busyLoop(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

interface RunResult {
  run: number;
  ok: boolean;
  ms: number;
  /** vitest's closing line (scripts/summary-reporter.ts), e.g. "tests: 812 passed, 0 failed, 3 skipped". */
  summary: string;
  log: string;
}

function runSuite(run: number, args: string[], log: string): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log);
    const child = spawn(process.execPath, [VITEST, 'run', ...args], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', reject);
    child.on('close', async (code) => {
      current = undefined;
      await new Promise((done) => out.end(done));
      const text = await readFile(log, 'utf8');
      const summary = [...text.matchAll(/^tests: .*$/gm)].at(-1)?.[0] ?? 'no summary line';
      resolve({ run, ok: code === 0, ms: Date.now() - started, summary, log });
    });
  });
}

let current: ChildProcess | undefined;
const loops: ChildProcess[] = [];
function stopChildren(): void {
  for (const loop of loops) loop.kill('SIGKILL');
  current?.kill('SIGTERM');
}
// Stopped from a terminal (Ctrl-C) or by a supervisor: the busy loops and the run go too.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    stopChildren();
    process.exit(code);
  });
}

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pgs-soak-'));
  for (let i = 0; i < options.busy; i++) loops.push(busyLoop());
  const what = options.vitestArgs.length ? options.vitestArgs.join(' ') : 'the whole suite';
  console.log(
    `soak: ${options.runs} run(s) of ${what} with ${options.busy} busy loop(s) on ${os.availableParallelism()} cores; logs in ${dir}`,
  );
  const results: RunResult[] = [];
  try {
    for (let run = 1; run <= options.runs; run++) {
      const result = await runSuite(run, options.vitestArgs, path.join(dir, `run-${run}.log`));
      results.push(result);
      console.log(
        `run ${run}/${options.runs}: ${result.ok ? 'passed' : 'FAILED'} in ${(result.ms / 1000).toFixed(1)} s (${result.summary})`,
      );
      if (!result.ok) {
        const tail = (await readFile(result.log, 'utf8')).split('\n').slice(-80).join('\n');
        console.log(`--- last lines of ${result.log}\n${tail}\n---`);
        break;
      }
    }
  } finally {
    stopChildren();
  }
  const passed = results.filter((r) => r.ok).length;
  const total = results.reduce((sum, r) => sum + r.ms, 0);
  const failedRun = results.find((r) => !r.ok);
  console.log(
    `soak summary: ${passed}/${options.runs} run(s) passed in a row` +
      (failedRun ? `; run ${failedRun.run} failed (log: ${failedRun.log})` : '') +
      `; ${(total / 1000).toFixed(1)} s in all` +
      (results.length
        ? `, slowest run ${(Math.max(...results.map((r) => r.ms)) / 1000).toFixed(1)} s`
        : ''),
  );
  return failedRun || passed < options.runs ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    stopChildren();
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
