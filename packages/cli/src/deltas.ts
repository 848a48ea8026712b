/** How the CLI words a revision's requirement deltas (docs/revisions.md). */
import type { DeltaSummary, RequirementDelta } from '@pgs/client';

/**
 * One delta as a line: `+ FR-7 SMS reminders` (added), `~ FR-2 Booking` (modified),
 * `- FR-5 Medical records (reason)` (removed), `FR-3 renamed: old → new`.
 *
 * @example
 * deltaLine({ op: 'removed', id: 'FR-5', title: 'Medical records', reason: 'no longer kept' });
 * // '- FR-5 Medical records (no longer kept)'
 */
export function deltaLine(delta: RequirementDelta): string {
  switch (delta.op) {
    case 'added':
      return `+ ${delta.id} ${delta.title}`;
    case 'modified':
      return `~ ${delta.id} ${delta.title}`;
    case 'removed':
      return `- ${delta.id} ${delta.title} (${delta.reason})`;
    case 'renamed':
      return `${delta.id} renamed: ${delta.from} → ${delta.to}`;
  }
}

/**
 * A revision's deltas under a heading, one a line.
 *
 * @example
 * changeLines([{ op: 'added', id: 'FR-4', title: 'SMS reminders', text: '…' }]);
 * // ['Changes:', '  + FR-4 SMS reminders']
 */
export function changeLines(deltas: readonly RequirementDelta[]): string[] {
  return ['Changes:', ...deltas.map((delta) => `  ${deltaLine(delta)}`)];
}

/**
 * What a revision's analysis found: its deltas, one a line, then the documents it rewrites.
 *
 * @example
 * analysisLines({ deltas, documents: ['PRODUCT_REQUIREMENTS.md'] });
 * // ['Changes:', '  + FR-4 SMS reminders', 'Rewriting 1 document: PRODUCT_REQUIREMENTS.md']
 */
export function analysisLines({
  deltas,
  documents,
}: {
  deltas: readonly RequirementDelta[];
  documents: readonly string[];
}): string[] {
  const n = documents.length;
  return [
    ...changeLines(deltas),
    n === 0
      ? 'Rewriting no document'
      : `Rewriting ${n} document${n === 1 ? '' : 's'}: ${documents.join(', ')}`,
  ];
}

/**
 * The deltas counted per kind, as `history` shows them: `+1 ~0 −1 →0` (added, modified,
 * removed, renamed).
 *
 * @example
 * deltaCounts({ added: 1, modified: 0, removed: 1, renamed: 0 }); // '+1 ~0 −1 →0'
 */
export function deltaCounts({ added, modified, removed, renamed }: DeltaSummary): string {
  return `+${added} ~${modified} −${removed} →${renamed}`;
}
