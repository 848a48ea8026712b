/**
 * A project's history as the archive tells it: `CHANGELOG.md`, one section per completed
 * revision, newest first, with the change request, the requirement deltas and the
 * documents each revision rewrote (docs/revisions.md).
 */
import {
  blockquote,
  cite,
  heading,
  type Inline,
  inlineCode,
  list,
  paragraph,
  renderDocument,
  root,
} from '@pgs/contract/document';
import type { Blockquote, RootContent } from 'mdast';
import { toString as plainTextOf } from 'mdast-util-to-string';
import type { RequirementDelta } from '../models/deltas.ts';

/** One completed revision, as the archive needs it. */
export interface RevisionRecord {
  revision: number;
  /** `null` for revision 1, the project's creation. */
  changeRequest: string | null;
  createdAt: string;
  completedAt: string | null;
  deltas: readonly RequirementDelta[];
  /** The filenames the revision wrote (every document for revision 1). */
  documentsChanged: readonly string[];
  /** What it did to the plan's tasks (revisions from 2 on, once known): docs/tasks.md. */
  tasks?: { added: readonly string[]; reopened: readonly string[] } | null;
}

/**
 * One delta as inline content: what happened to which requirement, its ID cited and its
 * titles as text.
 *
 * @example
 * deltaContent({ op: 'removed', id: 'FR-2', title: 'Export', reason: 'no longer needed' });
 * // ['Removed ', cite('FR-2'), ': Export (no longer needed)']
 */
export function deltaContent(delta: RequirementDelta): Inline[] {
  switch (delta.op) {
    case 'added':
      return ['Added ', cite(delta.id), `: ${delta.title}`];
    case 'modified':
      return ['Modified ', cite(delta.id), `: ${delta.title}`];
    case 'removed':
      return ['Removed ', cite(delta.id), `: ${delta.title} (${delta.reason})`];
    case 'renamed':
      return ['Renamed ', cite(delta.id), `: ${delta.from} → ${delta.to}`];
    default: {
      const never: never = delta;
      throw new Error(`unknown delta ${JSON.stringify(never)}`);
    }
  }
}

/**
 * One delta as a line of prose.
 *
 * @example
 * deltaLine({ op: 'removed', id: 'FR-2', title: 'Export', reason: 'no longer needed' });
 * // 'Removed FR-2: Export (no longer needed)'
 */
export const deltaLine = (delta: RequirementDelta): string =>
  deltaContent(delta)
    .map((part) => (typeof part === 'string' ? part : plainTextOf(part)))
    .join('');

/**
 * The day a revision took effect (its completion, else its start), as `YYYY-MM-DD` in UTC.
 *
 * @example
 * revisionDate({ completedAt: '2026-11-24T23:30:00-02:00', createdAt: '…' }); // '2026-11-25'
 */
export function revisionDate(record: Pick<RevisionRecord, 'createdAt' | 'completedAt'>): string {
  const stamp = record.completedAt ?? record.createdAt;
  const time = Date.parse(stamp);
  return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : stamp.slice(0, 10);
}

/**
 * A user's text (a change request) as a block quote, its paragraphs and lines kept; the
 * renderer writes it escaped, so its tags, links and markup read back as the text it is.
 */
export const quote = (text: string): Blockquote =>
  blockquote(
    text
      .trim()
      .split(/\r?\n[ \t]*\r?\n\s*/)
      .map((block) =>
        paragraph(
          block
            .split(/\r?\n/)
            .map((line) => line.trimEnd())
            .join('\n'),
        ),
      ),
  );

const filenames = (names: readonly string[]): Inline[] =>
  names.length === 0
    ? ['none']
    : names.flatMap((name, i) => (i === 0 ? [inlineCode(name)] : [', ', inlineCode(name)]));

function section(record: RevisionRecord): RootContent[] {
  const blocks: RootContent[] = [
    heading(2, `Revision ${record.revision} — ${revisionDate(record)}`),
  ];
  if (record.revision === 1) {
    blocks.push(
      paragraph('Created.'),
      paragraph('Documents: ', ...filenames(record.documentsChanged), '.'),
    );
    return blocks;
  }
  if (record.changeRequest !== null && record.changeRequest.trim() !== '') {
    blocks.push(quote(record.changeRequest));
  }
  if (record.deltas.length > 0) blocks.push(list(record.deltas.map(deltaContent)));
  blocks.push(paragraph('Documents changed: ', ...filenames(record.documentsChanged), '.'));
  return blocks;
}

/**
 * `CHANGELOG.md`: the revisions newest first, whatever order they come in.
 *
 * @example
 * changelog('Team Pulse', [created, revision2]);
 * // '# Changelog: Team Pulse\n\n…## Revision 2 — 2026-11-24\n\n> Add reminders\n\n- Added FR-4: Reminders\n…'
 */
export function changelog(name: string, history: readonly RevisionRecord[]): string {
  const newestFirst = [...history].sort((a, b) => b.revision - a.revision);
  return renderDocument(
    root([
      heading(1, `Changelog: ${name}`),
      paragraph(
        `Each revision of ${name}, newest first. Requirement IDs are never renumbered, and a removed ID is never given out again.`,
      ),
      ...newestFirst.flatMap(section),
    ]),
  );
}
