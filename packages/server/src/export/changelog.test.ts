import { parseDocument } from '@pgs/contract/document';
import { toString as plainTextOf } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { HISTORY } from '../../test/fixtures/revision-history.ts';
import { changelog, deltaLine, revisionDate } from './changelog.ts';

describe('deltaLine', () => {
  it('says what happened to which requirement', () => {
    expect(HISTORY.slice(1).flatMap((r) => r.deltas.map(deltaLine))).toEqual([
      'Added FR-4: Send reminders',
      'Removed FR-2: Export data (no longer needed)',
      'Renamed FR-3: View and search routines → Find routines',
      'Modified FR-1: Keep streaks',
    ]);
  });
});

describe('revisionDate', () => {
  it('is the UTC day of completion, else of the start', () => {
    expect(revisionDate(HISTORY[2]!)).toBe('2026-11-25');
    expect(revisionDate({ createdAt: '2026-11-24T23:30:00-02:00', completedAt: null })).toBe(
      '2026-11-25',
    );
  });
});

describe('changelog', () => {
  it('lists the revisions newest first, whatever order they come in', () => {
    const text = changelog('Team Pulse', [HISTORY[1]!, HISTORY[0]!, HISTORY[2]!]);
    expect(text.match(/^## .+$/gm)).toEqual([
      '## Revision 3 — 2026-11-25',
      '## Revision 2 — 2026-11-23',
      '## Revision 1 — 2026-11-22',
    ]);
    expect(text).toBe(changelog('Team Pulse', HISTORY));
  });

  it('quotes the change request, lists the deltas and the documents; revision 1 is the creation', () => {
    expect(changelog('Team Pulse', HISTORY)).toBe(
      [
        '# Changelog: Team Pulse\n',
        'Each revision of Team Pulse, newest first. Requirement IDs are never renumbered, and a removed ID is never given out again.\n',
        '## Revision 3 — 2026-11-25\n',
        '> Rename view and search to find routines\n> and make streaks weekly\n',
        '- Renamed FR-3: View and search routines → Find routines\n- Modified FR-1: Keep streaks\n',
        'Documents changed: `PRODUCT_REQUIREMENTS.md`.\n',
        '## Revision 2 — 2026-11-23\n',
        '> Add reminders before each check-in; drop the CSV export.\n',
        '- Added FR-4: Send reminders\n- Removed FR-2: Export data (no longer needed)\n',
        'Documents changed: `PRODUCT_REQUIREMENTS.md`, `USER_STORIES.md`.\n',
        '## Revision 1 — 2026-11-22\n',
        'Created.\n',
        'Documents: `PROJECT_BRIEF.md`, `PRODUCT_REQUIREMENTS.md`.\n',
      ].join('\n'),
    );
  });

  it('a project never revised has one entry', () => {
    const text = changelog('Team Pulse', HISTORY.slice(0, 1));
    expect(text.match(/^## .+$/gm)).toEqual(['## Revision 1 — 2026-11-22']);
  });

  it('a hostile change request and title are escaped and read back as the same text', () => {
    const request = 'Add *stars* | `ticks` <script>alert(1)</script>\n# not a heading';
    const title = 'Pipes | **bold** <b>US-1</b>';
    const [, revision2] = HISTORY;
    const text = changelog('Team Pulse', [
      {
        ...revision2!,
        changeRequest: request,
        deltas: [{ op: 'added', id: 'FR-4', title, text: 'Teams get reminders.' }],
      },
    ]);
    expect(text).not.toContain('<script>');
    const tree = parseDocument(text);
    const quoted = tree.children.find((node) => node.type === 'blockquote')!;
    expect(plainTextOf(quoted)).toBe(request);
    const deltas = tree.children.find((node) => node.type === 'list')!;
    expect(plainTextOf(deltas.children[0]!)).toBe(`Added FR-4: ${title}`);
  });
});
