import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ParseArgsOptionsConfig } from 'node:util';
import { APIUserAbortError, type ProjectContext } from '@pgs/client';
import type { BuiltDigest, SkipKind, SkippedFile } from '@pgs/repository';
import type { CommandContext, Values } from '../context.ts';
import { integerValue, stringValue } from '../context.ts';
import { UsageError } from '../errors.ts';
import { table } from '../output.ts';

// `--repo DIR` of pgs generate and pgs revise: the digest of an existing codebase sent as
// the request's `context`, built by @pgs/repository (bundled into the published CLI) and
// counted with o200k, the tokenizer the server prices prompts with. Both modules load only
// when --repo is given: secretlint's rules and o200k's tables cost every other command
// nothing.

/** The options of a command that can send a repository. */
export const REPO_OPTIONS = {
  repo: { type: 'string' },
  'repo-budget': { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const satisfies ParseArgsOptionsConfig;

/** Their help text, for a command's Options section. */
export const REPO_OPTIONS_HELP = `  --repo DIR             ground it in the codebase at DIR: a digest of what explains
                         it (manifests, README and docs, API and database schemas,
                         entry points and routes, then source; tests last) is sent as
                         context. .gitignore is honoured; dependencies, build output,
                         lockfiles, binary files and secret files (.env*, keys,
                         certificates) are left out, and secrets inside files are
                         replaced by [redacted:<rule>] before anything is sent
  --repo-budget TOKENS   with --repo: at most this many tokens of files (o200k);
                         default 40000
  --dry-run              with --repo: print what would be sent (each file with its
                         size, tokens and category, what was left out and why, the
                         totals) and exit 0 without calling the server; never prints
                         a file's content`;

/** What `--repo`, `--repo-budget` and `--dry-run` asked for. */
export interface RepoRequest {
  /** The directory as given. */
  dir: string;
  budgetTokens: number | undefined;
  dryRun: boolean;
}

/**
 * The repository options of a command line, or undefined without `--repo`; a usage error
 * for `--repo-budget` or `--dry-run` alone, an empty DIR, or a budget that is no number.
 *
 * @example
 * const repo = repoValues(ctx.values, 'generate');
 */
export function repoValues(values: Values, command: string): RepoRequest | undefined {
  const dir = stringValue(values, 'repo');
  const budgetTokens = integerValue(values, 'repo-budget', command, { min: 1, max: 10_000_000 });
  const dryRun = values['dry-run'] === true;
  if (dir === undefined) {
    if (budgetTokens !== undefined || dryRun) {
      throw new UsageError(
        `${dryRun ? '--dry-run' : '--repo-budget'} needs --repo DIR`,
        `pgs ${command}`,
      );
    }
    return undefined;
  }
  if (dir.trim() === '') throw new UsageError('--repo must not be empty', `pgs ${command}`);
  return { dir, budgetTokens, dryRun };
}

/**
 * Builds the digest of `--repo DIR` (relative to the working directory), tokens counted
 * with o200k; a usage error when DIR is not a directory.
 *
 * @example
 * const built = await buildDigest(ctx, repo, 'generate');
 */
export async function buildDigest(
  ctx: CommandContext,
  repo: RepoRequest,
  command: string,
  /** Also the tests citing spec IDs (`pgs check`, docs/conformance.md). */
  { citations = false }: { citations?: boolean } = {},
): Promise<BuiltDigest> {
  const root = resolve(ctx.io.cwd ?? process.cwd(), repo.dir);
  const found = await stat(root).catch(() => undefined);
  if (found === undefined || !found.isDirectory()) {
    throw new UsageError(`--repo ${repo.dir}: no such directory`, `pgs ${command}`);
  }
  const [{ buildRepositoryDigest }, o200k] = await Promise.all([
    import('@pgs/repository'),
    import('gpt-tokenizer/encoding/o200k_base'),
  ]);
  // Source may hold a tokenizer's special tokens (`<|endoftext|>`): counted as text instead
  // of refused.
  const special = { disallowedSpecial: new Set<string>() };
  try {
    return await buildRepositoryDigest(root, {
      budgetTokens: repo.budgetTokens,
      countTokens: (text) => o200k.countTokens(text, special),
      signal: ctx.io.signal,
      citations,
    });
  } catch (error) {
    // Ctrl-C while reading the tree: interrupted (exit 130), as during a wait.
    if (ctx.io.signal?.aborted) throw new APIUserAbortError({ cause: error });
    throw error;
  }
}

/**
 * The `context` to send, or a usage error when every file was left out (the API takes a
 * digest of one file at least).
 *
 * @example
 * const context = contextOf(built, repo, 'generate');
 */
export function contextOf(built: BuiltDigest, repo: RepoRequest, command: string): ProjectContext {
  if (built.repository.files.length === 0) {
    throw new UsageError(
      `--repo ${repo.dir}: nothing to send, every file was left out ` +
        `(pgs ${command} … --repo ${repo.dir} --dry-run shows why)`,
      `pgs ${command}`,
    );
  }
  return { repository: built.repository };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function commitOf(built: BuiltDigest): string {
  const { commit } = built.repository;
  return commit === undefined ? '' : ` at ${commit.slice(0, 12)}`;
}

/** The kinds that say a file was cut to fit, rather than refused: counted, not listed. */
const CUT: readonly SkipKind[] = ['budget', 'size-limit', 'file-limit'];

/**
 * One line saying what goes with the request, before it is sent.
 *
 * @example
 * ctx.print(digestSummary(built)); // 'Repository vetbook-api at 3f2a9c1d0e4b: 12 files, 3538 bytes, 890 tokens, 2 secrets redacted, 3 left out'
 */
export function digestSummary(built: BuiltDigest): string {
  const { report } = built;
  return (
    `Repository ${built.repository.name}${commitOf(built)}: ` +
    `${plural(report.files.length, 'file')}, ${report.totalBytes} bytes, ` +
    `${plural(report.tokens, 'token')}, ${plural(report.redactions, 'secret')} redacted, ` +
    `${report.skipped.length} left out`
  );
}

/**
 * What `--dry-run` prints: the files that would be sent (path, bytes, tokens, category,
 * redactions), what was left out and why, and the totals; with --json one line, the
 * report without any content. Never a file's content.
 *
 * @example
 * printDryRun(ctx, built);
 */
export function printDryRun(ctx: CommandContext, built: BuiltDigest): void {
  const { report, repository } = built;
  if (ctx.json) {
    ctx.print(
      JSON.stringify({
        dryRun: true,
        repository: { name: repository.name, commit: repository.commit ?? null },
        ...report,
      }),
    );
    return;
  }
  const tty = ctx.io.stdout.isTTY === true;
  ctx.print(
    `Would send repository ${repository.name}${commitOf(built)}: ` +
      `${plural(report.files.length, 'file')}`,
  );
  if (report.files.length > 0) {
    ctx.print('');
    for (const line of table(
      [
        ['PATH', (f) => f.path],
        ['BYTES', (f) => String(f.bytes)],
        ['TOKENS', (f) => String(f.tokens)],
        ['CATEGORY', (f) => f.category],
        ['REDACTIONS', (f) => String(f.redactions)],
      ],
      report.files,
      tty,
    )) {
      ctx.print(line);
    }
  }
  const listed = report.skipped.filter((s) => !CUT.includes(s.kind));
  if (listed.length > 0) {
    ctx.print('');
    ctx.print(`Left out (${listed.length}):`);
    for (const line of table(
      [
        ['PATH', (s: SkippedFile) => s.path],
        ['REASON', (s: SkippedFile) => s.reason],
      ],
      listed,
      tty,
    )) {
      ctx.print(line);
    }
  }
  for (const kind of CUT) {
    const cut = report.skipped.filter((s) => s.kind === kind);
    if (cut.length === 0) continue;
    const why =
      kind === 'budget'
        ? `over the budget of ${report.budgetTokens} tokens (--repo-budget raises it)`
        : cut[0]!.reason;
    ctx.print(`And ${plural(cut.length, 'more file')} left out, ${why}; --json lists them.`);
  }
  ctx.print('');
  ctx.print(
    `Total: ${plural(report.files.length, 'file')}, ${report.totalBytes} bytes, ` +
      `${report.tokens} of ${report.budgetTokens} tokens, ` +
      `${plural(report.redactions, 'secret')} redacted, ${report.skipped.length} left out.`,
  );
  ctx.print('Nothing was sent (--dry-run).');
}
