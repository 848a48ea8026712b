/**
 * The codebase digest of a grounded project as its prompts carry it: fitted once per run to
 * a token budget, then placed at the start of every prompt (grounded.ts), where a provider's
 * prompt cache serves it to every document after the first (docs/cost.md).
 */

import type { RepositorySource } from '@pgs/contract/generation';
import { countTokens } from '../../models/tokens.ts';

/**
 * Tokens of the digest one prompt carries at most (o200k, as counted here). With the earlier
 * documents' 48,000 and a document's answer it keeps a prompt within a 128K-token window.
 */
export const REPOSITORY_TOKEN_BUDGET = 40_000;

/** What `trimmedContext` lists for a file of the digest left out of the prompts. */
export const TRIMMED_FILE_PREFIX = 'repository:';

/** The digest as a run's prompts carry it. */
export interface PromptRepository {
  /** The files that fit the budget, in the digest's order. */
  source: RepositorySource;
  /** The files left out, as provenance's `trimmedContext` names them (`repository:<path>`). */
  trimmed: string[];
}

/** What the `<file path>` element around a file's text costs, roughly, in tokens. */
const FILE_FRAME_TOKENS = 12;

/**
 * Fits a digest to the budget: its files in their order (the digest builder puts what
 * explains the system first), whole, until the next one does not fit; that one and every
 * file after it are left out.
 *
 * @example
 * const { source, trimmed } = fitRepository(digest, 40_000);
 * trimmed; // ['repository:src/legacy/report.ts', …]
 */
export function fitRepository(
  digest: RepositorySource,
  budget: number = REPOSITORY_TOKEN_BUDGET,
): PromptRepository {
  let left = budget;
  let kept = 0;
  for (const file of digest.files) {
    const tokens = countTokens(file.path) + countTokens(file.content) + FILE_FRAME_TOKENS;
    if (tokens > left) break;
    left -= tokens;
    kept++;
  }
  return {
    source: { name: digest.name, commit: digest.commit, files: digest.files.slice(0, kept) },
    trimmed: digest.files.slice(kept).map((file) => `${TRIMMED_FILE_PREFIX}${file.path}`),
  };
}
