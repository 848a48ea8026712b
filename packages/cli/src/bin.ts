#!/usr/bin/env node
import { run } from './main.ts';

// Ctrl-C stops a wait cleanly (exit 130, with how to resume); a second one kills at once.
const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort());

// A reader that went away (`pgs status ID | head -1`) ends the run quietly, as SIGPIPE would.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});

// exitCode, not exit(): lets stdout drain when it is a pipe.
process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});
