import { readFile, realpath, stat } from 'node:fs/promises';
import type { RepositoryDigest } from '@pgs/contract';
import { looksBinary, REPOSITORY_LIMITS, redactSecrets, utf8Bytes } from '@pgs/contract/repository';
import { collectCitations } from './citations.ts';
import { readCommit, readName } from './git.ts';
import { type FileCategory, rankPaths } from './rank.ts';
import { type Candidate, type SkippedFile, tooLarge, walkRepository } from './walk.ts';

/**
 * The token budget of a digest when none is given: the share of a prompt the server gives the
 * codebase (40,000 tokens beside the earlier documents, docs/brownfield.md); files past it
 * would be stored and then left out of every prompt.
 */
export const DEFAULT_BUDGET_TOKENS = 40_000;

/**
 * Once this many files in a row did not fit the budget or the total size, the builder
 * stops reading: the rest are reported as left out by the budget without being opened,
 * so a large repository costs a few hundred reads, not one per file.
 */
export const MAX_MISSES_IN_A_ROW = 64;

/**
 * The default token count: a quarter of the characters, the usual estimate for English
 * and code with BPE tokenizers (o200k, cl100k). It keeps the builder free of a tokenizer's
 * tables; pass `countTokens` for an exact count (the CLI passes o200k's).
 *
 * @example
 * estimateTokens('const x = 1;'); // 3
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The share of the budget each category may fill before the others have had theirs: a
 * first pass takes files in rank order up to these (a category's first file up to
 * {@link FIRST_FILE_SHARE}, so a long README still goes), a second pass gives what is left
 * to the files they held back, in rank order. The shares add up to more than one on
 * purpose: most repositories lack some categories.
 */
export const CATEGORY_SHARES: Readonly<Record<FileCategory, number>> = {
  manifest: 0.1,
  docs: 0.25,
  'api-schema': 0.15,
  database: 0.15,
  'entry-point': 0.1,
  routes: 0.2,
  config: 0.05,
  source: 0.35,
  other: 0.03,
  test: 0.05,
};

/** What the first file of a category may take of the budget in the first pass, at most. */
export const FIRST_FILE_SHARE = 1 / 3;

/** A file read, redacted and counted, with its place in the ranking. */
interface Taken extends DigestFileReport {
  rank: number;
  content: string;
}

/** Options of {@link buildRepositoryDigest}. */
export interface RepositoryDigestOptions {
  /** The repository's name; default its package.json, pyproject, Cargo or go.mod name, else the folder's. */
  name?: string | undefined;
  /** Tokens the files may add up to; default {@link DEFAULT_BUDGET_TOKENS}. */
  budgetTokens?: number | undefined;
  /** Counts a text's tokens; default {@link estimateTokens}. */
  countTokens?: ((text: string) => number) | undefined;
  /** Extra exclusions, as gitignore patterns (e.g. `['fixtures/', '*.snap']`). */
  exclude?: readonly string[] | undefined;
  /** At most this many files; default and ceiling `REPOSITORY_LIMITS.maxFiles`. */
  maxFiles?: number | undefined;
  /** At most this many bytes of text in all; default and ceiling `REPOSITORY_LIMITS.maxTotalBytes`. */
  maxTotalBytes?: number | undefined;
  /** At most this many bytes in one file; default and ceiling `REPOSITORY_LIMITS.maxFileBytes`. */
  maxFileBytes?: number | undefined;
  /** Stops the walk and the reads (rejects with the signal's reason). */
  signal?: AbortSignal | undefined;
  /**
   * Adds `citations`: the lines of every test file (also those left out of `files`) that
   * cite spec IDs, for a conformance check (`pgs check --repo`, docs/conformance.md).
   */
  citations?: boolean | undefined;
}

/** One file of a digest as the report describes it: never its content. */
export interface DigestFileReport {
  path: string;
  /** The sent (redacted) text's size in UTF-8 bytes. */
  bytes: number;
  tokens: number;
  category: FileCategory;
  /** Secrets replaced in it. */
  redactions: number;
}

/** What went into a digest and what was left out, without any file's content. */
export interface DigestReport {
  /** The files sent, in the digest's order. */
  files: DigestFileReport[];
  /** What was left out, and why, by path: a folder left out whole once (its path ends in `/`). */
  skipped: SkippedFile[];
  totalBytes: number;
  tokens: number;
  budgetTokens: number;
  redactions: number;
  /** Citations found in test files, when asked for. */
  citations?: number;
}

/** What {@link buildRepositoryDigest} returns: the digest to send and its report. */
export interface BuiltDigest {
  /** `context.repository` of `projects.create` or `projects.revisions.create`. */
  repository: RepositoryDigest;
  report: DigestReport;
}

function limit(name: string, given: number | undefined, ceiling: number): number {
  if (given === undefined) return ceiling;
  if (!Number.isSafeInteger(given) || given < 1) {
    throw new RangeError(`${name} must be a positive integer, not ${given}`);
  }
  return Math.min(given, ceiling);
}

type Read = { content: string } | { skip: SkippedFile };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads one candidate as text; binary, grown or unreadable files become skips. */
async function readText(candidate: Candidate, maxFileBytes: number): Promise<Read> {
  const { path } = candidate;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(candidate.file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { skip: { path, kind: 'unreadable', reason: `could not be read (${code})` } };
  }
  if (bytes.length > maxFileBytes) {
    return { skip: { path, kind: 'too-large', reason: tooLarge(bytes.length, maxFileBytes) } };
  }
  if (bytes.includes(0)) {
    return { skip: { path, kind: 'binary', reason: 'binary (it holds NUL bytes)' } };
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { skip: { path, kind: 'binary', reason: 'binary (not UTF-8 text)' } };
  }
  if (looksBinary(text)) {
    return { skip: { path, kind: 'binary', reason: 'binary (control characters)' } };
  }
  return { content: text };
}

/**
 * Builds a digest of the working tree at `root` for `context.repository`: the files that
 * explain the system, secrets redacted, within a token budget and the API's limits.
 *
 * - Walks the tree with node:fs (no git binary needed): never into `.git`, never through a
 *   symbolic link (one that points out of the root is reported as such), honouring every
 *   `.gitignore` (root and nested, and `.git/info/exclude`) and the default exclusions
 *   (dependencies, virtual environments, build output, lockfiles, minified files).
 * - Leaves out, each with a reason in `report.skipped`: secret files by name (`.env*`,
 *   keys, certificates, credential stores; never opened), binary files (a NUL byte, not
 *   UTF-8, or control characters), files over `maxFileBytes`, paths the API refuses.
 * - Takes files in order of what explains a system (manifests, README and docs, API
 *   schemas, database schemas and migrations, entry points, routes, build and run
 *   configuration, then other source spread across folders, tests last) until the budget
 *   of tokens, `maxTotalBytes` or `maxFiles` is reached, each category first up to its
 *   share of the budget ({@link CATEGORY_SHARES}); a file that does not fit is skipped and
 *   smaller ones after it still may.
 * - Replaces every secret in the kept files by `[redacted:<rule>]` and counts them, with
 *   the rules the server applies again (secretlint's recommended rules and a few more).
 * - Reads the commit from `.git` (HEAD, loose refs, packed-refs; a detached HEAD too).
 *
 * The result is deterministic: the same tree gives the same digest, files in the order
 * taken. Node only (`@pgs/repository`); the SDK, `@pgs/client`, does not import it.
 *
 * @example
 * import { Pgs } from '@pgs/client';
 * import { buildRepositoryDigest } from '@pgs/repository';
 *
 * const { repository, report } = await buildRepositoryDigest('.', { budgetTokens: 40_000 });
 * console.log(`${report.files.length} files, ${report.tokens} tokens, ${report.redactions} secrets redacted`);
 * for (const { path, reason } of report.skipped) console.log(`skipped ${path}: ${reason}`);
 * await new Pgs().projects.create({ idea: 'Add team billing', context: { repository } });
 */
export async function buildRepositoryDigest(
  root: string,
  options: RepositoryDigestOptions = {},
): Promise<BuiltDigest> {
  const budgetTokens = limit(
    'budgetTokens',
    options.budgetTokens ?? DEFAULT_BUDGET_TOKENS,
    Number.MAX_SAFE_INTEGER,
  );
  const maxFiles = limit('maxFiles', options.maxFiles, REPOSITORY_LIMITS.maxFiles);
  const maxTotalBytes = limit(
    'maxTotalBytes',
    options.maxTotalBytes,
    REPOSITORY_LIMITS.maxTotalBytes,
  );
  const maxFileBytes = limit('maxFileBytes', options.maxFileBytes, REPOSITORY_LIMITS.maxFileBytes);
  const countTokens = options.countTokens ?? estimateTokens;
  const { signal } = options;

  // The real path: a root reached through a link is still one root, and links inside it
  // are judged against where it really is.
  let real: string;
  try {
    real = await realpath(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${root}: no such directory`);
    throw error;
  }
  if (!(await stat(real)).isDirectory()) throw new Error(`${root}: not a directory`);

  const walked = await walkRepository(real, {
    maxFileBytes,
    exclude: options.exclude ?? [],
    signal,
  });
  const byPath = new Map(walked.candidates.map((c) => [c.path, c]));
  const ranked = rankPaths([...byPath.keys()]);

  const skipped: SkippedFile[] = [...walked.skipped];
  const taken: Taken[] = [];
  const deferred: Taken[] = [];
  const spentBy = new Map<FileCategory, number>();
  let tokens = 0;
  let totalBytes = 0;
  let deferredTokens = 0;
  let misses = 0;
  const overBudget = (file: Taken): SkippedFile | undefined => {
    if (tokens + file.tokens > budgetTokens) {
      return {
        path: file.path,
        kind: 'budget',
        reason: `over the budget of ${budgetTokens} tokens`,
      };
    }
    if (totalBytes + file.bytes > maxTotalBytes) {
      return {
        path: file.path,
        kind: 'size-limit',
        reason: `over the limit of ${maxTotalBytes} bytes in all`,
      };
    }
    return undefined;
  };
  const take = (file: Taken) => {
    taken.push(file);
    tokens += file.tokens;
    totalBytes += file.bytes;
    spentBy.set(file.category, (spentBy.get(file.category) ?? 0) + file.tokens);
  };

  // First pass, in rank order: each category up to its share of the budget, so a long
  // docs/ folder or API document cannot crowd out the code.
  for (const [rank, { path, category }] of ranked.entries()) {
    signal?.throwIfAborted();
    if (taken.length >= maxFiles) {
      skipped.push({ path, kind: 'file-limit', reason: `over the limit of ${maxFiles} files` });
      continue;
    }
    if (misses >= MAX_MISSES_IN_A_ROW) {
      skipped.push({ path, kind: 'budget', reason: 'not read: the budget was spent' });
      continue;
    }
    const read = await readText(byPath.get(path)!, maxFileBytes);
    if ('skip' in read) {
      skipped.push(read.skip);
      continue;
    }
    const redacted = await redactSecrets(path, read.content);
    const file: Taken = {
      rank,
      path,
      category,
      content: redacted.content,
      bytes: utf8Bytes(redacted.content),
      tokens: countTokens(redacted.content),
      redactions: redacted.redactions,
    };
    if (file.bytes > maxFileBytes) {
      skipped.push({ path, kind: 'too-large', reason: tooLarge(file.bytes, maxFileBytes) });
      continue;
    }
    const over = overBudget(file);
    if (over !== undefined) {
      misses++;
      skipped.push(over);
      continue;
    }
    const spent = spentBy.get(category) ?? 0;
    const share =
      spent === 0
        ? Math.max(FIRST_FILE_SHARE, CATEGORY_SHARES[category])
        : CATEGORY_SHARES[category];
    if (spent + file.tokens <= share * budgetTokens) {
      misses = 0;
      take(file);
    } else if (deferredTokens + file.tokens <= budgetTokens) {
      // Kept for the second pass; never more than a budget's worth, so memory stays bounded.
      deferred.push(file);
      deferredTokens += file.tokens;
    } else {
      misses++;
      skipped.push({ path, kind: 'budget', reason: `over the budget of ${budgetTokens} tokens` });
    }
  }
  // Second pass, in rank order: what is left of the budget goes to what the shares held back.
  for (const file of deferred) {
    if (taken.length >= maxFiles) {
      skipped.push({
        path: file.path,
        kind: 'file-limit',
        reason: `over the limit of ${maxFiles} files`,
      });
      continue;
    }
    const over = overBudget(file);
    if (over === undefined) take(file);
    else skipped.push(over);
  }
  taken.sort((a, b) => a.rank - b.rank);

  const name = options.name?.trim() || (await readName(real, (p) => walked.rootFiles.has(p)));
  const commit = await readCommit(real);
  const citations = options.citations
    ? await collectCitations(
        ranked.filter((r) => r.category === 'test').map((r) => r.path),
        async (path) => {
          const kept = taken.find((file) => file.path === path);
          if (kept !== undefined) return kept.content;
          const read = await readText(byPath.get(path)!, maxFileBytes);
          return 'skip' in read ? undefined : read.content;
        },
        async (path, text) => (await redactSecrets(path, text)).content,
        signal,
      )
    : undefined;
  const repository: RepositoryDigest = {
    name: name.slice(0, 200),
    ...(commit === undefined ? {} : { commit }),
    files: taken.map(({ path, content }) => ({ path, content })),
    ...(citations === undefined ? {} : { citations }),
  };
  return {
    repository,
    report: {
      files: taken.map(({ path, bytes, tokens, category, redactions }) => ({
        path,
        bytes,
        tokens,
        category,
        redactions,
      })),
      skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      totalBytes,
      tokens,
      budgetTokens,
      redactions: taken.reduce((n, file) => n + file.redactions, 0),
      ...(citations === undefined ? {} : { citations: citations.length }),
    },
  };
}
