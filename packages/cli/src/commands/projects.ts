import type { Command } from '../context.ts';
import { stringValue } from '../context.ts';
import { checkOutDir } from '../documents.ts';
import { UsageError } from '../errors.ts';
import { API_OPTIONS, durationValue, projectIdArgument } from './common.ts';
import {
  deliver,
  PROGRESS_HELP,
  reportFailure,
  statusLines,
  WAIT_OPTIONS_HELP,
  waitWithProgress,
} from './results.ts';

const STATUS = 'status';
const WAIT = 'wait';

/**
 * `pgs status ID`: a project's status, once.
 *
 * @example
 * pgs status 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --json
 */
export const status: Command = {
  name: STATUS,
  summary: "Show a project's status",
  usage: 'pgs status ID [--json]',
  credential: 'api-key',
  help: `Reads a project once: in_progress with the estimated time left, completed with a
summary and its documents' names, or failed with the reason. Exits 0 in all three
states (use pgs wait to wait, and for exit 9 on a failed project).

Arguments:
  ID                     the project id, as printed by pgs generate

With --json, prints the status as the API returns it, on one line.`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, STATUS);
    const project = await ctx.client().projects.get(projectId, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify(project));
      return;
    }
    for (const line of statusLines(project)) ctx.print(line);
  },
};

/**
 * `pgs wait ID`: waits for a project, then optionally writes its documents.
 *
 * @example
 * pgs wait 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --out ./habits
 */
export const wait: Command = {
  name: WAIT,
  summary: 'Wait for a project to finish; write its documents with --out',
  usage: 'pgs wait ID [--out DIR] [--json]',
  credential: 'api-key',
  help: `Waits until the project is completed or failed, with live progress. With --out, writes
every document into DIR and prints each path; then a summary. A project that ends failed
prints the reason and exits 9.

Arguments:
  ID                     the project id, as printed by pgs generate --no-wait

Options:
  --out DIR              write the documents into DIR (missing or empty, unless --force)
  --force                write into a non-empty DIR, overwriting files of the same names
${WAIT_OPTIONS_HELP}

${PROGRESS_HELP}

With --json: no progress; the final status on one line (documents are still written
with --out).`,
  options: {
    ...API_OPTIONS,
    out: { type: 'string' },
    force: { type: 'boolean' },
    'poll-interval': { type: 'string' },
    'max-wait': { type: 'string' },
  },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, WAIT);
    const out = stringValue(ctx.values, 'out');
    if (out !== undefined && out.trim() === '') {
      throw new UsageError('--out must not be empty', `pgs ${WAIT}`);
    }
    const force = ctx.values.force === true;
    const pollIntervalMs = durationValue(ctx.values, 'poll-interval', WAIT);
    const maxWaitMs = durationValue(ctx.values, 'max-wait', WAIT);
    if (out !== undefined) {
      await checkOutDir(ctx.io.cwd ?? process.cwd(), out, force, WAIT);
      ctx.errorContext.outDir = out;
    }

    const result = await waitWithProgress(ctx, ctx.client(), projectId, {
      pollIntervalMs,
      maxWaitMs,
    });
    reportFailure(ctx, result);
    if (result.status === 'completed') {
      await deliver(ctx, result, { out, useDefault: false, force });
    }
  },
};
