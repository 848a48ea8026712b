import type {
  DeltaSummary,
  Pgs,
  ProjectContext,
  RevisionAnalysedData,
  RevisionCreated,
  RevisionResult,
} from '@pgs/client';
import type { Command, CommandContext } from '../context.ts';
import { changeLines, deltaCounts } from '../deltas.ts';
import { GenerationFailedError, UsageError } from '../errors.ts';
import { createProgressView, formatDuration } from '../progress.ts';
import { API_OPTIONS, durationValue, simulateValue } from './common.ts';
import { createEventView, followEvents } from './live.ts';
import {
  buildDigest,
  contextOf,
  digestSummary,
  printDryRun,
  REPO_OPTIONS,
  REPO_OPTIONS_HELP,
  repoValues,
} from './repo.ts';

const NAME = 'revise';

/** How a revision is waited for: its events (default), polling it, or not at all. */
type Follow = 'events' | 'poll' | 'none';

/** A revision that ended, and whether its analysis was already shown as it arrived. */
export interface Ended {
  result: RevisionResult;
  analysisShown: boolean;
}

/**
 * Follows the project's event stream to the revision's end (each event shown, none with
 * --json), then reads the revision once.
 */
async function followRevision(
  ctx: CommandContext,
  pgs: Pgs,
  created: RevisionCreated,
  maxWaitMs: number | undefined,
): Promise<Ended> {
  const { projectId, revision } = created;
  const signal = ctx.io.signal;
  const view = ctx.json ? undefined : createEventView(ctx.io.stdout);
  let analysisShown = false;
  const showAnalysis = (data: RevisionAnalysedData) => {
    if (analysisShown) return;
    analysisShown = true;
    view?.event({ id: '', type: 'revision.analysed', data });
  };
  try {
    await followEvents(ctx, pgs, projectId, {
      maxWaitMs,
      revision,
      onEvent: async (event) => {
        switch (event.type) {
          case 'status': {
            // A stream starts at the moment it opens: a quick revision may have been
            // analysed before. Its read then has the analysis; if it comes later, the
            // event will, and whichever is first is shown.
            if (view === undefined) return;
            const read = await pgs.projects.revisions.get(projectId, revision, { signal });
            if (read.deltas.length > 0) {
              showAnalysis({ revision, deltas: read.deltas, documents: read.documentsChanged });
            }
            return;
          }
          case 'revision.started':
            // The "started" line said it.
            return;
          case 'revision.analysed':
            showAnalysis(event.data);
            return;
          default:
            view?.event(event);
        }
      },
    });
  } finally {
    view?.finish();
  }
  const result = await pgs.projects.revisions.get(projectId, revision, { signal });
  if (result.status === 'in_progress') {
    throw new Error(
      `revision ${revision} of project ${projectId} is still in_progress after its end`,
    );
  }
  return { result, analysisShown };
}

/**
 * A revision started and not followed (`pgs revise --no-follow`, `pgs answer` without
 * `--wait`): its number alone on stdout (with --json, what the 202 said), and on stderr `hint`.
 *
 * @example
 * printStarted(ctx, created, `Follow it with: pgs watch ${created.projectId}`);
 */
export function printStarted(ctx: CommandContext, created: RevisionCreated, hint: string): void {
  const { projectId, revision, status, estimatedCompletionMs } = created;
  if (ctx.json) {
    ctx.print(JSON.stringify({ projectId, revision, status, estimatedCompletionMs }));
    return;
  }
  ctx.print(String(revision));
  ctx.io.stderr.write(`${hint}\n`);
}

/**
 * Waits by polling the revision (long-polls), with the progress bar or lines of `pgs wait`;
 * `pgs answer --wait` too.
 */
export async function pollRevision(
  ctx: CommandContext,
  pgs: Pgs,
  created: RevisionCreated,
  maxWaitMs: number | undefined,
): Promise<Ended> {
  const view = ctx.json
    ? undefined
    : createProgressView(ctx.io.stdout, { now: ctx.io.now ?? (() => Date.now()) });
  view?.start(created);
  let result: RevisionResult | undefined;
  try {
    result = await pgs.projects.revisions.waitForCompletion(created.projectId, created.revision, {
      maxWaitMs,
      signal: ctx.io.signal,
      onProgress: view?.update,
    });
    return { result, analysisShown: false };
  } finally {
    view?.finish(result);
  }
}

function counted(result: RevisionResult): DeltaSummary {
  const counts = { added: 0, modified: 0, removed: 0, renamed: 0 };
  for (const delta of result.deltas) counts[delta.op]++;
  return counts;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Prints how the revision ended; a failed one is {@link GenerationFailedError} (exit 9). */
export function report(ctx: CommandContext, { result, analysisShown }: Ended): void {
  if (result.status === 'failed') {
    if (ctx.json) ctx.print(JSON.stringify(result));
    throw new GenerationFailedError(result);
  }
  if (ctx.json) {
    ctx.print(JSON.stringify(result));
    return;
  }
  // Not seen as it happened (--wait): the deltas now; the documents follow.
  if (!analysisShown) for (const line of changeLines(result.deltas)) ctx.print(line);
  const changed = result.documentsChanged;
  const kept = result.project.documents
    .map((d) => d.filename)
    .filter((filename) => !changed.includes(filename));
  ctx.print(`Changed ${plural(changed.length, 'document')}:`);
  for (const filename of changed) ctx.print(`  ${filename}`);
  if (kept.length > 0) ctx.print(`Kept unchanged: ${kept.join(', ')}`);
  ctx.print('');
  ctx.print(`  Revision    ${result.revision}`);
  ctx.print(`  Changes     ${deltaCounts(counted(result))}`);
  ctx.print(`  Documents   ${changed.length} changed, ${kept.length} kept`);
  ctx.print(`  Credits     ${result.metadata.creditsConsumed} consumed`);
  ctx.print(`  Revised     in ${formatDuration(result.metadata.generationTimeMs)}`);
  ctx.print(`  Project id  ${result.projectId}`);
  ctx.print('');
  ctx.print(`See the changes with: pgs diff ${result.projectId}`);
}

/**
 * `pgs revise ID "<change request>"`: changes a completed project with one sentence and
 * follows the revision to its end.
 *
 * @example
 * pgs revise 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 "Add SMS reminders; drop the medical records"
 */
export const revise: Command = {
  name: NAME,
  summary: 'Change a completed project with one sentence (a revision)',
  usage:
    'pgs revise ID "<change request>" [--repo DIR [--repo-budget TOKENS] [--dry-run]] [--no-follow | --wait] [--max-wait DURATION] [--json]',
  credential: 'api-key',
  help: `Starts a revision of a completed project and follows it to its end. The server reads the
change request against the project's requirements as deltas (requirement groups FR-n
added, modified, removed or renamed; no ID is ever renumbered), rewrites only the
documents they touch and carries the others over byte for byte. Its price is reserved at
once (an analysis fee and every document it might rewrite); it charges the fee and the
documents it rewrote. Only a completed project can be revised, one revision at a time
(exit 12 otherwise: the message says which).

Arguments:
  ID                     the project id
  "<change request>"     what to change, in plain words (at most 4,000 characters)

Options:
${REPO_OPTIONS_HELP}
  --no-follow            print the revision's number and exit; follow it with pgs watch ID
  --wait                 wait by polling the revision instead of following the event
                         stream (a bar on a terminal, lines otherwise); the same summary
  --max-wait DURATION    give up after this long (exit 11; the revision keeps running);
                         default 30m
  --simulate completed|failed
                         test keys only: end as given after --duration
  --duration DURATION    with --simulate: how long the revision stays in progress

Progress: revise follows the project's event stream: the changes once the request is
analysed ("+ FR-7 SMS reminders", "~ FR-2 ...", "- FR-5 Medical records (reason)",
"FR-3 renamed: old → new") and the documents it will rewrite, each document as it is
rewritten, then the revision's number, the documents changed (and those kept
unchanged) and the credits consumed. On a terminal, documents are lines under one status
line redrawn in place, as for pgs generate.

With --repo, the revision reads the codebase as it is now (without it, the digest sent
before stays in force); a line before it starts says what is sent. Only a project
created with --repo takes one: the server refuses it for the others.

With --json: no progress; one line on stdout, the final revision as the API returns it
(with --no-follow, the started revision: projectId, revision, status,
estimatedCompletionMs).

A revision that ends failed prints the reason and exits 9: nothing of it was applied,
its credits were refunded, and the previous revision stays current.

Examples:
  pgs revise "$ID" "Add SMS reminders two days before each appointment; drop the medical records"
  pgs revise "$ID" "Bill teams per seat" --repo . --dry-run
  pgs history "$ID"
  pgs diff "$ID"`,
  options: {
    ...API_OPTIONS,
    'no-follow': { type: 'boolean' },
    wait: { type: 'boolean' },
    'max-wait': { type: 'string' },
    simulate: { type: 'string' },
    duration: { type: 'string' },
    ...REPO_OPTIONS,
  },
  async run(ctx) {
    const { values, positionals } = ctx;
    const projectId = positionals[0]?.trim();
    if (!projectId) {
      throw new UsageError(
        'missing the project ID: pgs revise ID "<change request>"',
        'pgs revise',
      );
    }
    const changeRequest = positionals.slice(1).join(' ').trim();
    if (changeRequest === '') {
      throw new UsageError(
        'missing the change request: pgs revise ID "<change request>"',
        'pgs revise',
      );
    }
    if (values['no-follow'] === true && values.wait === true) {
      throw new UsageError('--no-follow and --wait do not go together', `pgs ${NAME}`);
    }
    const follow: Follow =
      values['no-follow'] === true ? 'none' : values.wait === true ? 'poll' : 'events';
    const maxWaitMs = durationValue(values, 'max-wait', NAME);
    const durationMs = durationValue(values, 'duration', NAME, { max: 600_000 });
    const simulate = simulateValue(values, durationMs, NAME);
    const repo = repoValues(values, NAME);
    let context: ProjectContext | undefined;
    if (repo !== undefined) {
      const built = await buildDigest(ctx, repo, NAME);
      if (repo.dryRun) {
        printDryRun(ctx, built);
        return;
      }
      context = contextOf(built, repo, NAME);
      // On stderr with --no-follow, whose stdout is the revision's number alone.
      if (!ctx.json) {
        (follow === 'none' ? ctx.io.stderr : ctx.io.stdout).write(`${digestSummary(built)}\n`);
      }
    }

    const pgs = ctx.client();
    const created = await pgs.projects.revisions.create(
      projectId,
      { changeRequest, simulate, context },
      { signal: ctx.io.signal },
    );
    ctx.errorContext.projectId = created.projectId;
    ctx.errorContext.revision = created.revision;
    if (follow === 'none') {
      printStarted(ctx, created, `Follow it with: pgs watch ${created.projectId}`);
      return;
    }
    if (!ctx.json) {
      ctx.print(
        `Revision ${created.revision} of project ${created.projectId} started ` +
          `(about ${formatDuration(created.estimatedCompletionMs)} estimated)`,
      );
    }
    const ended =
      follow === 'events'
        ? await followRevision(ctx, pgs, created, maxWaitMs)
        : await pollRevision(ctx, pgs, created, maxWaitMs);
    report(ctx, ended);
  },
};
