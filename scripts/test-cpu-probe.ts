import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

/**
 * With PGS_TEST_CPU=<file>, appends one JSON line per test file: the worker's pid, its own
 * CPU so far (process.cpuUsage, since the process started) and the CPU of the child processes
 * it has reaped (servers, CLIs, browsers: /proc/self/stat cutime + cstime). A file in a fresh
 * worker process (the integration project) owns all of it; the unit project shares workers,
 * so scripts/test-cpu-report.ts takes differences per pid.
 *
 * With PGS_TEST_PROFILE=<dir>, writes each file's V8 CPU profile there (`<file>.cpuprofile`,
 * from its first hook to its last: Node's --cpu-prof writes nothing for a worker that is
 * stopped rather than exits). How to read both: docs/testing.md.
 */
const out = process.env.PGS_TEST_CPU;
const profiles = process.env.PGS_TEST_PROFILE;
const session = profiles ? new Session() : undefined;

if (session) {
  beforeAll(async () => {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  });
}

afterAll(async () => {
  const file = expect.getState().testPath ?? 'unknown';
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(profiles!, `${basename(file)}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
  if (out) appendFileSync(out, `${JSON.stringify(usage(file))}\n`);
});

function usage(file: string) {
  const own = process.cpuUsage();
  let childrenMs = Number.NaN;
  try {
    // Fields after the command name's closing parenthesis; cutime and cstime are the 14th
    // and 15th of them, in clock ticks (100 per second on Linux).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    childrenMs = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // Not Linux: the children's CPU is unknown.
  }
  return {
    file: file.slice(process.cwd().length + 1),
    pid: process.pid,
    ownMs: Math.round((own.user + own.system) / 1000),
    childrenMs,
    at: Date.now(),
  };
}
