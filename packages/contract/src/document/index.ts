/**
 * `@pgs/contract/document`: the one document model. A PGS document is a tree: mdast with GFM
 * plus PGS nodes for its definitions (requirement groups, criteria, NFRs, stories, tasks,
 * register entries) and the architecture's components, declared into mdast's content maps.
 * `parseDocument` is the only reader of a document's markdown and `renderDocument` the only
 * writer; everything else reads the tree. Not for the SDK (it carries mdast): the server and
 * the offline engine import it.
 *
 * @example
 * import { parseDocument, definitionsOf } from '@pgs/contract/document';
 * definitionsOf(parseDocument(markdown, { filename: 'IMPLEMENTATION_PLAN.md' }), 'task');
 */
import './types.ts';

export { answerDocument, continuedDocument } from './answer.ts';
export * from './build.ts';
export { componentNode, definitionNode, titleOf } from './fields.ts';
export * from './ids.ts';
export { escapeIds, type ParseOptions, parseDocument } from './parse.ts';
export { parseShared } from './parse-shared.ts';
export { mapStrings, plainText } from './plain-text.ts';
export { type RegisterItem, registerItems } from './register.ts';
export { RENDER_OPTIONS, type RenderChoices, renderDocument } from './render.ts';
export { sectionsOf } from './sections.ts';
export {
  applyIds,
  type Cited,
  citedGroups,
  droppedIds,
  type Keyed,
  type KeyedItems,
  renumber,
  stableIdsOf,
  storyTaskKeys,
} from './stable-ids.ts';
export { leadingId } from './structure.ts';
export * from './types.ts';
export {
  clauseKey,
  inertJson,
  inertText,
  neutraliseMarkdown,
  proseOf,
  stripControls,
} from './user-text.ts';
export * from './walk.ts';
