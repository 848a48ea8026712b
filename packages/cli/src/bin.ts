#!/usr/bin/env node
import { run } from './main.ts';

// exitCode, not exit(): lets stdout drain when it is a pipe.
process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
