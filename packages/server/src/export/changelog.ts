/**
 * A project's history as the archive tells it: `CHANGELOG.md`, one section per completed
 * revision, newest first, with the change request, the requirement deltas and the
 * documents each revision rewrote (docs/revisions.md).
 */

import { inertText } from '@pgs/contract/document';
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
 * One delta as a line of prose: what happened to which requirement.
 *
 * @example
 * deltaLine({ op: 'removed', id: 'FR-2', title: 'Export', reason: 'no longer needed' });
 * // 'Removed FR-2: Export (no longer needed)'
 */
export function deltaLine(delta: RequirementDelta): string {
  switch (delta.op) {
    case 'added':
      return `Added ${delta.id}: ${delta.title}`;
    case 'modified':
      return `Modified ${delta.id}: ${delta.title}`;
    case 'removed':
      return `Removed ${delta.id}: ${delta.title} (${delta.reason})`;
    case 'renamed':
      return `Renamed ${delta.id}: ${delta.from} → ${delta.to}`;
    default: {
      const never: never = delta;
      throw new Error(`unknown delta ${JSON.stringify(never)}`);
    }
  }
}

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
 * A user's text (a change request) as a markdown block quote, line by line, made inert first:
 * even in a fence its tags and links are written escaped (user-text.ts).
 */
export const quote = (text: string) =>
  inertText(text)
    .trim()
    .split(/\r?\n/)
    .map((line) => (line.trim() === '' ? '>' : `> ${line.trimEnd()}`))
    .join('\n');

const filenames = (names: readonly string[]) =>
  names.length === 0 ? 'none' : names.map((name) => `\`${name}\``).join(', ');

function section(record: RevisionRecord): string {
  const parts = [`## Revision ${record.revision} — ${revisionDate(record)}\n`];
  if (record.revision === 1) {
    parts.push('Created.\n', `Documents: ${filenames(record.documentsChanged)}.\n`);
    return parts.join('\n');
  }
  if (record.changeRequest !== null && record.changeRequest.trim() !== '') {
    parts.push(`${quote(record.changeRequest)}\n`);
  }
  if (record.deltas.length > 0) {
    parts.push(`${record.deltas.map((delta) => `- ${deltaLine(delta)}`).join('\n')}\n`);
  }
  parts.push(`Documents changed: ${filenames(record.documentsChanged)}.\n`);
  return parts.join('\n');
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
  return [
    `# Changelog: ${name}\n`,
    `Each revision of ${name}, newest first. Requirement IDs are never renumbered, and a removed ID is never given out again.\n`,
    ...newestFirst.map(section),
  ].join('\n');
}
