/**
 * The offline engine's rewrite of a document for a revision: the document regenerated from
 * the definition with the deltas applied, each requirement keeping its register slot (ID and
 * priority) and each story and task keeping its number (matched on the requirement groups it
 * cites, `stable-ids.ts`). Every document of a revision derives the same facts and so the same
 * story and task IDs: the plan cites the IDs the stories define.
 */
import { applyIds, idsIn, type KeyedItems, renumber, storyTaskKeys } from '@pgs/contract/document';
import type { RevisionContext } from '@pgs/contract/generation';
import { renderDocument } from '../offline-content.ts';
import { slicesOf, storiesOf } from './delivery-model.ts';
import { type Facts, factsFor } from './facts.ts';

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
 * A document rewritten for a revision: written as `writeDocument` would from the revised
 * definition and its register, then each story and task ID mapped to the one it had before
 * (or to a number never used, for a new one).
 *
 * @example
 * reviseDocument({ task: 'revision', idea, definition, register, document, related, deltas, previous, ids });
 */
export function reviseDocument(context: RevisionContext): string {
  const f = factsFor(context);
  return applyIds(renderDocument(f, context), renumber(freshKeys(f), context.ids));
}
