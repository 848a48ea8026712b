import type {
  Pgs,
  ProjectCompleted,
  ProjectInProgress,
  ProjectResult,
  ProjectStatus,
} from '@pgs/client';
import type { CommandContext } from '../context.ts';
import { defaultOutDir, writeDocuments } from '../documents.ts';
import { GenerationFailedError } from '../errors.ts';
import { createProgressView, formatDuration } from '../progress.ts';

// What `generate` and `wait` share: the wait with its progress, and what to do with the result.

/** What the wait takes from the command line. */
export interface WaitFlags {
  pollIntervalMs: number | undefined;
  maxWaitMs: number | undefined;
}

/** Help of the flags that tune the wait. */
export const WAIT_OPTIONS_HELP = `  --poll-interval DURATION
                         time between polls, e.g. 2s; default: the server's Retry-After
                         (10 to 30 s, the API's polling guidance)
  --max-wait DURATION    give up waiting after this long (exit 11; the project keeps
                         generating); default 30m`;

/** What the progress shows, and what it cannot. */
export const PROGRESS_HELP = `Progress: on a terminal a bar redrawn in place, otherwise one line per poll
("in_progress: about 12 s left"). The API reports only the status and the estimated
time left (estimatedCompletionMs), so that is what is shown: the percentage compares
the estimate with the first one, and no stage or count of documents done is shown.`;

/**
 * Waits for the project with a progress view (none with --json) and resolves with its
 * final status; the view is cleaned up whatever happens.
 *
 * @example
 * const result = await waitWithProgress(ctx, pgs, id, flags, created);
 */
export async function waitWithProgress(
  ctx: CommandContext,
  pgs: Pgs,
  projectId: string,
  { pollIntervalMs, maxWaitMs }: WaitFlags,
  created?: ProjectInProgress,
): Promise<ProjectResult> {
  ctx.errorContext.projectId = projectId;
  const view = ctx.json
    ? undefined
    : createProgressView(ctx.io.stdout, { now: ctx.io.now ?? (() => Date.now()) });
  if (created !== undefined) view?.start(created);
  let result: ProjectResult | undefined;
  try {
    result = await pgs.projects.waitForCompletion(projectId, {
      pollIntervalMs,
      maxWaitMs,
      signal: ctx.io.signal,
      onProgress: view?.update,
    });
    return result;
  } finally {
    view?.finish(result);
  }
}

/**
 * A failed project: its status as JSON with --json, then {@link GenerationFailedError} (exit 9).
 *
 * @example
 * if (result.status === 'failed') reportFailure(ctx, result);
 */
export function reportFailure(ctx: CommandContext, result: ProjectResult): void {
  if (result.status !== 'failed') return;
  if (ctx.json) ctx.print(JSON.stringify(result));
  throw new GenerationFailedError(result);
}

/**
 * Writes a completed project's documents into `out` (or, with `useDefault`, into a
 * fresh `./<project-name-slug>/`), printing each path and a summary; with --json
 * prints the final status instead of text.
 *
 * @example
 * await deliver(ctx, result, { out: './out', useDefault: true, force: false });
 */
export async function deliver(
  ctx: CommandContext,
  result: ProjectCompleted,
  { out, useDefault, force }: { out: string | undefined; useDefault: boolean; force: boolean },
): Promise<void> {
  const cwd = ctx.io.cwd ?? process.cwd();
  const dir = out ?? (useDefault ? await defaultOutDir(cwd, result.project.name) : undefined);
  const paths =
    dir === undefined ? [] : await writeDocuments(cwd, dir, result.project.documents, { force });
  if (ctx.json) {
    ctx.print(JSON.stringify(result));
    return;
  }
  if (dir !== undefined) {
    const count = paths.length;
    ctx.print(`Wrote ${count} document${count === 1 ? '' : 's'} to ${dir}:`);
    for (const path of paths) ctx.print(`  ${path}`);
  } else {
    ctx.print('Documents:');
    for (const document of result.project.documents) ctx.print(`  ${document.filename}`);
  }
  ctx.print('');
  for (const line of summaryLines(result)) ctx.print(line);
  if (dir === undefined) {
    ctx.print('');
    ctx.print(`Write them to a directory with: pgs wait ${result.projectId} --out DIR`);
  }
}

/**
 * The summary of a completed project: name, type, documents, credits, time, id.
 *
 * @example
 * summaryLines(result).join('\n');
 */
export function summaryLines(result: ProjectCompleted): string[] {
  const { project, metadata } = result;
  return [
    `  Project     ${project.name}`,
    `  Type        ${project.type}`,
    `  Documents   ${metadata.documentsGenerated}`,
    `  Credits     ${metadata.creditsConsumed} consumed`,
    `  Generated   in ${formatDuration(metadata.generationTimeMs)}`,
    `  Project id  ${result.projectId}`,
  ];
}

/**
 * A status in words, for `pgs status`.
 *
 * @example
 * statusLines({ projectId, status: 'in_progress', estimatedCompletionMs: 12_000 }); // ['Project …: in_progress, about 12 s left']
 */
export function statusLines(status: ProjectStatus): string[] {
  const head = `Project ${status.projectId}: ${status.status}`;
  switch (status.status) {
    case 'in_progress': {
      const s = Math.ceil(status.estimatedCompletionMs / 1000);
      return [`${head}, ${s > 0 ? `about ${s} s left` : 'finishing'}`];
    }
    case 'failed':
      return [`${head}: ${status.error.message} (${status.error.code})`];
    case 'completed':
      return [
        head,
        ...summaryLines(status),
        '',
        'Documents:',
        ...status.project.documents.map((d) => `  ${d.filename}`),
      ];
  }
}
