/**
 * `@pgs/repository`: the digest of an existing codebase that grounds a project
 * (`context.repository` of `@pgs/client`'s `projects.create` and `projects.revisions.create`).
 * Node only: it reads the file system. A package of its own, not an entry of the SDK, so
 * that `@pgs/client` keeps zero dependencies for browsers, Deno and Bun: this one depends on
 * `ignore` (gitignore rules as git applies them) and secretlint (the secret rules it
 * redacts with).
 *
 * @example
 * import { buildRepositoryDigest } from '@pgs/repository';
 * const { repository, report } = await buildRepositoryDigest('.');
 * console.log(`${report.files.length} files, ${report.tokens} tokens`);
 */

/** The API's limits of a digest (files, bytes in all, bytes in one file, path length). */
export { REPOSITORY_LIMITS } from '@pgs/contract/repository';
export { CITATION_LIMITS, collectCitations, findCitations } from './citations.ts';
export {
  type BuiltDigest,
  buildRepositoryDigest,
  CATEGORY_SHARES,
  DEFAULT_BUDGET_TOKENS,
  type DigestFileReport,
  type DigestReport,
  estimateTokens,
  FIRST_FILE_SHARE,
  MAX_MISSES_IN_A_ROW,
  type RepositoryDigestOptions,
} from './digest.ts';
export { readCommit } from './git.ts';
export { CATEGORY_ORDER, classify, type FileCategory, rankPaths } from './rank.ts';
export { DEFAULT_EXCLUDES, type SkipKind, type SkippedFile } from './walk.ts';
