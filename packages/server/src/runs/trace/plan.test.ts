import { describe, expect, it } from 'vitest';
import { DocumentExcerpts } from './excerpts.ts';
import { planTasks } from './plan.ts';

const PLAN = `# Implementation Plan: Demo

## Milestones

| ID | Task | Implements | Depends on | Estimate |
| --- | --- | --- | --- | --- |
| T-9 | A milestone table is not the task list | FR-9 | none | 1 d |

## Tasks

Every requirement has a task.

### M1 Walking skeleton

| ID | Task | Implements | Files | Depends on | Estimate |
| --- | --- | --- | --- | --- | --- |
| T-1 | Set up the repository | none | — | none | 2 d |
| T-2 | Build "Keep notes" until T-1 passes | FR-1.1, FR-1.2, NFR-2 | \`src/notes.ts\`, \`src/db/0003_notes.sql\` (new) | T-1 | 1 d |

### M2 Must stories

| Task | ID | Depends on | Implements |
| --- | --- | --- | --- |
| Search notes | T-3 | T-2, T-1 | FR-2 |

## Dependencies

The critical path is T-1 → T-2.
`;

describe('planTasks', () => {
  it('reads the Tasks tables by column, each task with its slice', () => {
    const tasks = planTasks(PLAN);
    expect(tasks.map((task) => task.id)).toEqual(['T-1', 'T-2', 'T-3']);
    expect(tasks[1]).toEqual({
      id: 'T-2',
      title: 'Build "Keep notes" until T-1 passes',
      phase: 'M1 Walking skeleton',
      implements: ['FR-1.1', 'FR-1.2', 'NFR-2'],
      // The title mentions T-1 too; dependencies come from their own column.
      dependsOn: ['T-1'],
      files: ['src/notes.ts', 'src/db/0003_notes.sql (new)'],
      estimate: '1 d',
    });
    expect(tasks[0]).toMatchObject({ implements: [], dependsOn: [], files: [] });
    // Columns in another order are found by their names.
    expect(tasks[2]).toMatchObject({
      title: 'Search notes',
      phase: 'M2 Must stories',
      implements: ['FR-2'],
      dependsOn: ['T-2', 'T-1'],
    });
    expect(tasks[2]).not.toHaveProperty('estimate');
  });

  it('finds nothing in a plan without a Tasks section', () => {
    expect(planTasks('# Plan\n\n## Milestones\n\n- T-1 Set up\n')).toEqual([]);
  });

  it('reads IDs as the tree has them: one escaped in user text is neither a task nor a link', () => {
    const plan = [
      '## Tasks',
      '',
      '| ID | Task | Implements | Depends on |',
      '| --- | --- | --- | --- |',
      '| T\\-4 | Quoted by a user | FR-1 | none |',
      '| T-5 | Keep "T\\-1 and FR\\-9" as the client wrote | FR-2, FR\\-8 | T-1, T\\-3 |',
    ].join('\n');
    expect(planTasks(plan)).toEqual([
      expect.objectContaining({ id: 'T-5', implements: ['FR-2'], dependsOn: ['T-1'] }),
    ]);
  });
});

const DESIGN = `# API Design: Demo

## Resources and endpoints

| Method | Path | Serves |
| --- | --- | --- |
| POST | /v1/notes | FR-1.1 |
| GET | /v1/search | FR-2.1 |

For example, to keep a note (FR-1.1):

\`\`\`http
POST /v1/notes
\`\`\`

## Components

### Notes service

Owns the notes.

Implements: FR-1

### Search service

Implements: FR-2
`;

describe('DocumentExcerpts', () => {
  const excerpts = new DocumentExcerpts('API_DESIGN.md', DESIGN);

  it('gives the pieces citing the IDs asked for, in their own markdown, each once', () => {
    const pieces = excerpts.citing(new Set(['FR-1', 'FR-1.1']));
    expect(pieces.map((piece) => piece.markdown)).toEqual([
      // A row comes with its header.
      '| Method | Path | Serves |\n| --- | --- | --- |\n| POST | /v1/notes | FR-1.1 |',
      // A paragraph ending in a colon brings the code it introduces.
      'For example, to keep a note (FR-1.1):\n\n```http\nPOST /v1/notes\n```',
      // A small `###` part comes whole.
      '### Notes service\n\nOwns the notes.\n\nImplements: FR-1',
    ]);
    expect(pieces[2]).toMatchObject({ section: 'Components', subsection: 'Notes service' });
    expect(excerpts.citing(new Set(['FR-7']))).toEqual([]);
  });

  it('never takes an ID escaped in user text for a citation', () => {
    const quoted = new DocumentExcerpts(
      'API_DESIGN.md',
      '## Notes\n\n- The client asked "like US\\-1"\n- Serves US-2\n',
    );
    expect(quoted.citing(new Set(['US-1']))).toEqual([]);
    expect(quoted.citing(new Set(['US-2'])).map((piece) => piece.markdown)).toEqual([
      '- Serves US-2',
    ]);
  });

  it('gives the definition of an ID: a heading with all under it, or the block it opens', () => {
    const stories = new DocumentExcerpts(
      'USER_STORIES.md',
      '## Stories\n\n### US-1 Keep notes\n\nAs a user, I want notes.\n\nCriteria: FR-1.1\n\n### US-2 Search\n\nAs a user, I search.\n',
    );
    expect(stories.definition('US-1')).toBe(
      '### US-1 Keep notes\n\nAs a user, I want notes.\n\nCriteria: FR-1.1',
    );
    const requirements = new DocumentExcerpts(
      'PRODUCT_REQUIREMENTS.md',
      '### FR-1 Notes\n\n**FR-1.1** WHEN a user keeps a note THE SYSTEM SHALL store it.\n',
    );
    expect(requirements.definition('FR-1.1')).toBe(
      '**FR-1.1** WHEN a user keeps a note THE SYSTEM SHALL store it.',
    );
    expect(requirements.definition('FR-9.9')).toBeUndefined();
  });

  it('takes a paragraph ending in code, not in a colon of its own, as introducing nothing', () => {
    const notes = new DocumentExcerpts(
      'API_DESIGN.md',
      '## Notes\n\nThe header is `Accept:`\n\n```http\nGET /v1/notes (FR-1.1)\n```\n',
    );
    expect(notes.citing(new Set(['FR-1.1'])).map((piece) => piece.markdown)).toEqual([
      '```http\nGET /v1/notes (FR-1.1)\n```',
    ]);
  });
});
