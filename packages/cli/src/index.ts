/**
 * `@pgs/cli`: the `pgs` command line as a library, so it runs in-process in tests.
 *
 * @example
 * import { run } from '@pgs/cli';
 * process.exitCode = await run(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
 */
export { COMMANDS, GROUPS, type Group } from './commands/index.ts';
export {
  type AdminToken,
  API_KEY_HELP,
  type ApiKey,
  dataDir,
  type Env,
  resolveAdminToken,
  resolveApiKey,
  resolveBaseUrl,
} from './config.ts';
export type { Command, CommandContext, ErrorContext, Io, Values, Writer } from './context.ts';
export { defaultOutDir, safeFilename, slugify, writeDocuments } from './documents.ts';
export {
  GenerationFailedError,
  MissingApiKeyError,
  MissingTokenError,
  RevisionNotCompletedError,
  UsageError,
} from './errors.ts';
export { EXIT, EXIT_CODES_HELP, type ExitCode, exitCodeFor } from './exit-codes.ts';
export { programHelp, run } from './main.ts';
export { reportError } from './output.ts';
export {
  createProgressView,
  formatDuration,
  type ProgressOptions,
  type ProgressView,
  progressBar,
  progressLine,
} from './progress.ts';
