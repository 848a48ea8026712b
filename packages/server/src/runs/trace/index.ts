/**
 * The trace graph of a project's documents: `buildTrace` reads them (goals, requirements
 * and their criteria, stories, tasks, and who cites whom), `checkTrace` says what to repair.
 */
export { buildTrace, isTaskCitation, normalHeading, type TraceDocument } from './build.ts';
export { type CheckOptions, checkTrace, needsRepair, SEVERITIES } from './check.ts';
export { type CodeCheckOptions, checkCodeBlocks } from './code-blocks.ts';
export {
  type DocumentRole,
  documentRole,
  idsIn,
  isId,
  ownedPrefixes,
  type ParseOptions,
  parseDocument,
  requirementOf,
} from './parse.ts';
export type * from './types.ts';
