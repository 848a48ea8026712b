import type {
  DeltaSummary,
  RequirementDelta,
  RequirementDeltaOp,
  RevisionDiffFile,
  RevisionSummary,
} from '@pgs/client';

// What the Revise form, the History and the Diff view of a completed project show, as plain
// data: the change request's counter, the deltas in words, the credits, and a patch as lines.

/** The longest change request the API takes, in characters. @example CHANGE_REQUEST_MAX; // 4000 */
export const CHANGE_REQUEST_MAX = 4000;

const numbers = new Intl.NumberFormat('en');

/** What the counter under the change request says, and whether the request can be sent. */
export interface ChangeRequestCheck {
  /** Characters of the request as it will be sent (trimmed), counted as the API counts them. */
  count: number;
  /** 1 to {@link CHANGE_REQUEST_MAX} characters once trimmed. */
  ok: boolean;
  /** "42 of 4,000 characters", or how many too many. */
  text: string;
}

/**
 * Counts a change request as the API does (code points of the trimmed text, so an emoji is
 * one character) and says whether it may be sent.
 *
 * @example
 * checkChangeRequest('Drop the medical records').text; // '24 of 4,000 characters'
 */
export function checkChangeRequest(text: string): ChangeRequestCheck {
  const count = [...text.trim()].length;
  const of = `${numbers.format(count)} of ${numbers.format(CHANGE_REQUEST_MAX)} characters`;
  if (count > CHANGE_REQUEST_MAX) {
    const over = count - CHANGE_REQUEST_MAX;
    return { count, ok: false, text: `${of}: ${numbers.format(over)} too many` };
  }
  return { count, ok: count > 0, text: of };
}

// Keyed by the contract's enum so that a new kind of delta breaks the build here until handled.
const DELTA_LABELS = {
  added: 'Added',
  modified: 'Modified',
  removed: 'Removed',
  renamed: 'Renamed',
} as const satisfies Record<RequirementDeltaOp, string>;

/** The kinds of requirement delta, in OpenSpec's order. @example DELTA_OPS[0]; // 'added' */
export const DELTA_OPS = Object.keys(DELTA_LABELS) as readonly RequirementDeltaOp[];

/** A kind of delta as a word. @example deltaLabel('renamed'); // 'Renamed' */
export function deltaLabel(op: RequirementDeltaOp): string {
  return DELTA_LABELS[op];
}

/**
 * The deltas of a revision counted per kind, as the listing counts them.
 *
 * @example
 * countDeltas([{ op: 'removed', id: 'FR-2', title: 'Records', reason: '…' }]).removed; // 1
 */
export function countDeltas(deltas: readonly RequirementDelta[]): DeltaSummary {
  const counts: DeltaSummary = { added: 0, modified: 0, removed: 0, renamed: 0 };
  for (const delta of deltas) counts[delta.op]++;
  return counts;
}

/**
 * The delta counts in words, leaving out the kinds with none.
 *
 * @example
 * deltaCountsText({ added: 1, modified: 0, removed: 1, renamed: 0 }); // '1 added, 1 removed'
 * deltaCountsText({ added: 0, modified: 0, removed: 0, renamed: 0 }); // 'No requirement changes'
 */
export function deltaCountsText(counts: DeltaSummary): string {
  const parts = DELTA_OPS.filter((op) => counts[op] > 0).map(
    (op) => `${counts[op]} ${op.toLowerCase()}`,
  );
  return parts.length === 0 ? 'No requirement changes' : parts.join(', ');
}

/** One delta as a line of the list: its kind, its ID, its title and what else it says. */
export interface DeltaLine {
  label: string;
  id: string;
  /** The title; a rename reads "old → new". */
  title: string;
  /** A removal's reason; nothing else has a note. */
  note: string | undefined;
}

/**
 * A delta as the console lists it.
 *
 * @example
 * deltaLine({ op: 'renamed', id: 'FR-3', from: 'Reminders', to: 'Notifications' });
 * // { label: 'Renamed', id: 'FR-3', title: 'Reminders → Notifications', note: undefined }
 */
export function deltaLine(delta: RequirementDelta): DeltaLine {
  const label = deltaLabel(delta.op);
  switch (delta.op) {
    case 'added':
    case 'modified':
      return { label, id: delta.id, title: delta.title, note: undefined };
    case 'removed':
      return { label, id: delta.id, title: delta.title, note: delta.reason };
    case 'renamed':
      return { label, id: delta.id, title: `${delta.from} → ${delta.to}`, note: undefined };
  }
}

/**
 * The credits of a revision as the History shows them: what is held while it runs, what
 * it was charged once it ended (a failed or cancelled revision is refunded whole).
 *
 * @example
 * revisionCredits({ status: 'in_progress', creditsReserved: 44, creditsConsumed: null }); // '44 reserved'
 * revisionCredits({ status: 'completed', creditsReserved: 44, creditsConsumed: 31 }); // '31 of 44 reserved'
 */
export function revisionCredits(
  summary: Pick<RevisionSummary, 'status' | 'creditsReserved' | 'creditsConsumed'>,
): string {
  const { status, creditsReserved: reserved, creditsConsumed: consumed } = summary;
  if (status === 'in_progress' || consumed === null) return `${reserved} reserved`;
  if (status === 'failed' && consumed === 0 && reserved > 0) return '0 (refunded)';
  return consumed === reserved ? String(consumed) : `${consumed} of ${reserved} reserved`;
}

/** What a document became in a revision, as a word. */
const FILE_STATUS_LABELS = {
  added: 'New',
  modified: 'Changed',
  removed: 'Removed',
} as const satisfies Record<RevisionDiffFile['status'], string>;

/** A diffed document's status as a word. @example fileStatusLabel('added'); // 'New' */
export function fileStatusLabel(status: RevisionDiffFile['status']): string {
  return FILE_STATUS_LABELS[status];
}

/**
 * A file's line counts in words, for screen readers (the page shows "+12 −3").
 *
 * @example
 * lineCountsText(12, 1); // '12 lines added, 1 line removed'
 */
export function lineCountsText(additions: number, deletions: number): string {
  const lines = (n: number) => `${numbers.format(n)} ${n === 1 ? 'line' : 'lines'}`;
  return `${lines(additions)} added, ${lines(deletions)} removed`;
}

/** One line of a patch as the Diff view shows it. */
export interface DiffLine {
  /** `hunk` is a `@@ … @@` header between runs of lines. */
  kind: 'add' | 'del' | 'context' | 'hunk';
  /** The line without its `+`, `-` or space; a hunk header as it is. */
  text: string;
  /** The line's number before the revision (removed and context lines). */
  oldLine: number | undefined;
  /** The line's number after the revision (added and context lines). */
  newLine: number | undefined;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Reads a git-style unified diff of one document (`diff --git`, `---`, `+++`, hunks) into
 * lines: the file headers are left out (the view names the file), hunk headers stay as
 * separators, and every other line keeps its numbers before and after.
 *
 * @example
 * parsePatch('--- a/X.md\n+++ b/X.md\n@@ -1 +1 @@\n-old\n+new\n').map((l) => l.kind);
 * // ['hunk', 'del', 'add']
 */
export function parsePatch(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let inHunk = false;
  let oldLine = 0;
  let newLine = 0;
  const raw = patch.split('\n');
  if (raw.at(-1) === '') raw.pop();
  for (const line of raw) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      inHunk = true;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      lines.push({ kind: 'hunk', text: line, oldLine: undefined, newLine: undefined });
      continue;
    }
    // Before the first hunk: diff --git, ---, +++, mode lines. "\ No newline…" is a remark.
    if (!inHunk || line.startsWith('\\')) continue;
    const body = line.slice(1);
    if (line.startsWith('+')) {
      lines.push({ kind: 'add', text: body, oldLine: undefined, newLine: newLine++ });
    } else if (line.startsWith('-')) {
      lines.push({ kind: 'del', text: body, oldLine: oldLine++, newLine: undefined });
    } else {
      lines.push({ kind: 'context', text: body, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return lines;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A timestamp of the API in the reader's locale, or a dash for none.
 *
 * @example
 * formatDateTime(null); // '—'
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/**
 * The start of a long text for a table cell: whole words up to about `max` characters, then
 * "…"; a short text as it is (whitespace runs read as one space).
 *
 * @example
 * excerpt('Add SMS reminders two days before each appointment', 20); // 'Add SMS reminders…'
 */
export function excerpt(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}
