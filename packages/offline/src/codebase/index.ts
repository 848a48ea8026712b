/**
 * The reader of a repository digest: the facts, the files a change touches, and the blocks
 * the offline engine writes from them.
 */

export { readCodebase } from './read.ts';
export {
  CODEBASE_OVERVIEW_SECTIONS,
  type CodebaseOverviewSection,
  codebaseOverview,
  currentSystem,
  EXISTING_STACK_HEADERS,
  existingStack,
} from './render.ts';
export { filesForTerms, type RankedFile, rankFiles, termWords } from './terms.ts';
export type * from './types.ts';
