/**
 * A project's history for tests of the archive: its creation, then two revisions with a
 * delta of every kind (docs/revisions.md).
 */
import type { RevisionRecord } from './changelog.ts';

/** Revisions 1 to 3, oldest first, as the archive is given them. */
export const HISTORY: RevisionRecord[] = [
  {
    revision: 1,
    changeRequest: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    completedAt: '2026-11-22T10:01:00.000Z',
    deltas: [],
    documentsChanged: ['PROJECT_BRIEF.md', 'PRODUCT_REQUIREMENTS.md'],
  },
  {
    revision: 2,
    changeRequest: 'Add reminders before each check-in; drop the CSV export.',
    createdAt: '2026-11-23T09:00:00.000Z',
    completedAt: '2026-11-23T09:02:00.000Z',
    deltas: [
      {
        op: 'added',
        id: 'FR-4',
        title: 'Send reminders',
        text: 'Teams get reminders.\n\n**FR-4.1** WHEN a check-in is due THE SYSTEM SHALL send a reminder.',
      },
      { op: 'removed', id: 'FR-2', title: 'Export data', reason: 'no longer needed' },
    ],
    documentsChanged: ['PRODUCT_REQUIREMENTS.md', 'USER_STORIES.md'],
  },
  {
    revision: 3,
    changeRequest: 'Rename view and search to find routines\nand make streaks weekly',
    createdAt: '2026-11-24T23:50:00.000Z',
    // Completed after midnight UTC: dated by its completion.
    completedAt: '2026-11-25T00:10:00.000Z',
    deltas: [
      { op: 'renamed', id: 'FR-3', from: 'View and search routines', to: 'Find routines' },
      { op: 'modified', id: 'FR-1', title: 'Keep streaks', text: 'Streaks are weekly.' },
    ],
    documentsChanged: ['PRODUCT_REQUIREMENTS.md'],
  },
];
