import type { RequirementDelta } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import {
  CHANGE_REQUEST_MAX,
  checkChangeRequest,
  countDeltas,
  DELTA_OPS,
  deltaCountsText,
  deltaLine,
  excerpt,
  fileStatusLabel,
  formatDateTime,
  lineCountsText,
  parsePatch,
  revisionCredits,
} from './revisions.ts';

describe('checkChangeRequest', () => {
  it('counts the trimmed request and says how many characters of the 4,000 it uses', () => {
    expect(checkChangeRequest('  Drop the medical records \n')).toEqual({
      count: 24,
      ok: true,
      text: '24 of 4,000 characters',
    });
  });

  it('refuses an empty or blank request', () => {
    expect(checkChangeRequest('')).toMatchObject({ count: 0, ok: false });
    expect(checkChangeRequest(' \n\t ')).toMatchObject({ count: 0, ok: false });
  });

  it('takes exactly 4,000 characters and says how many too many past it', () => {
    expect(checkChangeRequest('x'.repeat(CHANGE_REQUEST_MAX))).toMatchObject({
      ok: true,
      text: '4,000 of 4,000 characters',
    });
    expect(checkChangeRequest('x'.repeat(4_012))).toEqual({
      count: 4_012,
      ok: false,
      text: '4,012 of 4,000 characters: 12 too many',
    });
  });

  it('counts an emoji as one character, as the API does', () => {
    expect(checkChangeRequest('Add 🐶 profiles').count).toBe(14);
    expect(checkChangeRequest('🐶'.repeat(CHANGE_REQUEST_MAX)).ok).toBe(true);
  });
});

const DELTAS: RequirementDelta[] = [
  { op: 'added', id: 'FR-4', title: 'SMS reminders', text: 'The system sends…' },
  { op: 'modified', id: 'FR-1', title: 'Online booking', text: 'Clients book…' },
  { op: 'removed', id: 'FR-2', title: 'Medical records', reason: 'Dropped by the request' },
  { op: 'renamed', id: 'FR-3', from: 'Reminders', to: 'Notifications' },
];

describe('deltas', () => {
  it('come in OpenSpec order', () => {
    expect(DELTA_OPS).toEqual(['added', 'modified', 'removed', 'renamed']);
  });

  it('read as a kind, an ID, a title and (for a removal) a reason', () => {
    expect(DELTAS.map(deltaLine)).toEqual([
      { label: 'Added', id: 'FR-4', title: 'SMS reminders', note: undefined },
      { label: 'Modified', id: 'FR-1', title: 'Online booking', note: undefined },
      {
        label: 'Removed',
        id: 'FR-2',
        title: 'Medical records',
        note: 'Dropped by the request',
      },
      { label: 'Renamed', id: 'FR-3', title: 'Reminders → Notifications', note: undefined },
    ]);
  });

  it('are counted per kind and the counts put in words, leaving out the kinds with none', () => {
    expect(countDeltas(DELTAS)).toEqual({ added: 1, modified: 1, removed: 1, renamed: 1 });
    expect(deltaCountsText({ added: 2, modified: 0, removed: 1, renamed: 0 })).toBe(
      '2 added, 1 removed',
    );
    expect(deltaCountsText(countDeltas([]))).toBe('No requirement changes');
  });
});

describe('revisionCredits', () => {
  it.each([
    [{ status: 'in_progress', creditsReserved: 44, creditsConsumed: null }, '44 reserved'],
    [{ status: 'completed', creditsReserved: 44, creditsConsumed: 31 }, '31 of 44 reserved'],
    [{ status: 'completed', creditsReserved: 47, creditsConsumed: 47 }, '47'],
    [{ status: 'failed', creditsReserved: 44, creditsConsumed: 0 }, '0 (refunded)'],
    // Revision 1 cancelled: the documents already generated were charged.
    [{ status: 'failed', creditsReserved: 47, creditsConsumed: 13 }, '13 of 47 reserved'],
  ] as const)('%o reads %s', (summary, text) => {
    expect(revisionCredits(summary)).toBe(text);
  });
});

describe('the diff view', () => {
  it('names a file status and its line counts in words', () => {
    expect(['added', 'modified', 'removed'].map((s) => fileStatusLabel(s as 'added'))).toEqual([
      'New',
      'Changed',
      'Removed',
    ]);
    expect(lineCountsText(12, 1)).toBe('12 lines added, 1 line removed');
    expect(lineCountsText(1, 0)).toBe('1 line added, 0 lines removed');
  });

  it('reads a patch into lines numbered before and after, without the file headers', () => {
    const patch = [
      'diff --git a/PRD.md b/PRD.md',
      '--- a/PRD.md',
      '+++ b/PRD.md',
      '@@ -3,4 +3,4 @@ ## Requirements',
      ' ### FR-1 Online booking',
      '-### FR-2 Medical records',
      '+### FR-4 SMS reminders',
      ' ### FR-3 Reminders',
      '-last line',
      '\\ No newline at end of file',
      '@@ -20 +20,2 @@',
      ' kept',
      '+--- a horizontal rule, not a header',
      '',
    ].join('\n');
    expect(parsePatch(patch)).toEqual([
      {
        kind: 'hunk',
        text: '@@ -3,4 +3,4 @@ ## Requirements',
        oldLine: undefined,
        newLine: undefined,
      },
      { kind: 'context', text: '### FR-1 Online booking', oldLine: 3, newLine: 3 },
      { kind: 'del', text: '### FR-2 Medical records', oldLine: 4, newLine: undefined },
      { kind: 'add', text: '### FR-4 SMS reminders', oldLine: undefined, newLine: 4 },
      { kind: 'context', text: '### FR-3 Reminders', oldLine: 5, newLine: 5 },
      { kind: 'del', text: 'last line', oldLine: 6, newLine: undefined },
      { kind: 'hunk', text: '@@ -20 +20,2 @@', oldLine: undefined, newLine: undefined },
      { kind: 'context', text: 'kept', oldLine: 20, newLine: 20 },
      {
        kind: 'add',
        text: '--- a horizontal rule, not a header',
        oldLine: undefined,
        newLine: 21,
      },
    ]);
  });

  it('reads an added document from /dev/null as added lines only', () => {
    const patch =
      'diff --git a/README.md b/README.md\n--- /dev/null\n+++ b/README.md\n@@ -0,0 +1,2 @@\n+# README\n+\n';
    expect(parsePatch(patch).map((line) => [line.kind, line.text, line.newLine])).toEqual([
      ['hunk', '@@ -0,0 +1,2 @@', undefined],
      ['add', '# README', 1],
      ['add', '', 2],
    ]);
  });
});

describe('formatDateTime', () => {
  it('shows a dash for no date and the text itself for one it cannot read', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime('2026-03-01T10:00:00Z')).toMatch(/2026/);
  });
});

describe('excerpt', () => {
  it('keeps a short text, flattening its whitespace', () => {
    expect(excerpt('  Drop the\n medical records ')).toBe('Drop the medical records');
  });

  it('cuts a long text after a whole word, without trailing punctuation', () => {
    expect(excerpt('Add SMS reminders two days before each appointment', 20)).toBe(
      'Add SMS reminders…',
    );
    expect(excerpt('Add reminders; drop the records', 15)).toBe('Add reminders…');
    expect(excerpt('x'.repeat(30), 10)).toBe(`${'x'.repeat(10)}…`);
  });
});
