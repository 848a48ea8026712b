/**
 * The offline engine's rewrite of a document for a revision: the document regenerated from
 * the definition with the deltas applied, each requirement keeping its register slot (ID and
 * priority) and each story and task keeping its number (matched on the requirement groups it
 * cites, `stableIdsOf` of `@pgs/contract/document`). Every document of a revision derives the
 * same facts and so the same story and task IDs: the plan cites the IDs the stories define.
 */
import { applyIds, idsIn, type KeyedItems, renumber, storyTaskKeys } from '@pgs/contract/document';
import type { DocumentContext, RequirementSlot, StableIds } from '@pgs/contract/generation';
import { slicesOf, storiesOf } from '../facts/delivery-model.ts';
import type { Facts } from '../facts/facts.ts';
import { settledFacts } from '../facts/settled.ts';
import { renderDocument } from './write.ts';

/**
 * The keys of the stories and tasks the offline engine writes for these facts, with their
 * fresh (sequential) IDs: what a story's body and a task's row cite, as the readers of
 * `stableIdsOf` see them in the markdown.
 *
 * @example
 * freshKeys(facts).stories[0]; // { id: 'US-1', key: 'FR-1#0' }
 */
export function freshKeys(f: Facts): KeyedItems {
  const stories = storiesOf(f);
  const tasks = slicesOf(f, stories).flatMap((slice) => slice.tasks);
  return storyTaskKeys(
    stories.map((s) => ({ id: s.id, cites: [...s.criteria.map((c) => c.id), s.req.id] })),
    tasks.map((t) => ({ id: t.id, cites: [...idsIn(t.task), ...t.implements] })),
  );
}

/**
 * What a revision's rewrite of one document takes: the document call with the revised
 * definition, its requirement register (parallel to the core features) and the story and task
 * IDs the revision being changed holds.
 */
export type RevisionRequest = Omit<DocumentContext, 'task'> & {
  register: readonly RequirementSlot[];
  ids: StableIds;
};

/**
 * A document rewritten for a revision: written as `writeDocument` would from the revised
 * definition and its register, then each story and task ID mapped to the one it had before
 * (or to a number never used, for a new one).
 *
 * @example
 * reviseDocument({ idea, definition, register, document, related, ids });
 */
export function reviseDocument(request: RevisionRequest): string {
  const f = settledFacts(request);
  return applyIds(renderDocument(f, request), renumber(freshKeys(f), request.ids));
}
