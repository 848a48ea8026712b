import { documentTitle, parseDocument, visit } from '@pgs/contract/document';
import type { Paragraph } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { type ArchiveTask, kiroTasks, openspecTasks, specKitTasks } from './tasks.ts';

const task = (id: string, status: ArchiveTask['status'], extra: Partial<ArchiveTask> = {}) => ({
  id,
  title: `Work of ${id}`,
  phase: 'M1 Skeleton',
  requirements: ['FR-1'],
  criteria: ['FR-1.1'],
  dependsOn: [],
  files: [],
  status,
  ...extra,
});

describe("the plan's tasks as the tools' checkbox lists", () => {
  const tasks = [
    task('T-1', 'done', { requirements: [], criteria: [] }),
    task('T-2', 'in_progress', { dependsOn: ['T-1'], files: ['src/app.ts'] }),
    task('T-3', 'obsolete'),
    task('T-4', 'done', { phase: 'M2 Release', requirements: ['NFR-1'], criteria: [] }),
  ];

  it('Kiro: a box per phase, ticked when all its tasks are done, and the requirements line', () => {
    // A title's ID is text (`T\-1`): only the ID after the number is the task's.
    expect(kiroTasks('Demo', tasks)).toBe(
      [
        '# Implementation Plan: Demo',
        '',
        '- [ ] 1. M1 Skeleton',
        '',
        '- [x] 1.1 T-1 Work of T\\-1',
        '',
        '- [ ] 1.2 T-2 Work of T\\-2',
        '  - Depends on T-1',
        '  - Files: `src/app.ts`',
        '  - _Requirements: FR-1.1_',
        '',
        '- [x] 2. M2 Release',
        '',
        '- [x] 2.1 T-4 Work of T\\-4',
        '  - _Requirements: NFR-1_',
        '',
      ].join('\n'),
    );
  });

  it('spec-kit: a phase heading and one line per task; obsolete work left out', () => {
    const lines = specKitTasks('Demo', tasks).split('\n');
    expect(lines.filter((l) => l.startsWith('- ['))).toEqual([
      '- [x] T-1 Work of T\\-1',
      '- [ ] T-2 [FR-1] Work of T\\-2 (Depends on T-1; Files: `src/app.ts`)',
      '- [x] T-4 [NFR-1] Work of T\\-4',
    ]);
    expect(lines).toContain('## Phase 2: M2 Release');
  });

  it("OpenSpec: a change's own work, numbered; nothing when it gave none", () => {
    expect(openspecTasks(tasks, ['T-4', 'T-2', 'T-3'])).toBe(
      '## 1. Implementation\n\n- [ ] 1.1 T-2 Work of T\\-2\n- [x] 1.2 T-4 Work of T\\-4\n',
    );
    expect(openspecTasks(tasks, ['T-3'])).toBeUndefined();
  });
});

/** Each box of a list as the one parser reads it: ticked, its line as text, the IDs it cites. */
function boxes(markdown: string) {
  const found: { ticked: boolean; line: string; ids: string[] }[] = [];
  visit(parseDocument(markdown, { defines: [] }), (node) => {
    if (node.type !== 'listItem' || typeof node.checked !== 'boolean') return;
    const line = node.children[0] as Paragraph;
    const ids: string[] = [];
    visit(line, (inner) => {
      if (inner.type === 'idRef') ids.push(inner.value);
    });
    found.push({ ticked: node.checked, line: plainText(line), ids });
  });
  return found;
}

describe('hostile titles', () => {
  const titles = [
    'Pipe | in a `code` span, *stars* and _underscores_',
    '<script>alert(1)</script> until T-9 passes',
    '[a link](javascript:alert(1)) and [FR-9] # not a heading',
    '1. not a list\n- nor this',
  ];
  const name = 'Demo | `x` <b>T-9</b>';
  const hostile = titles.map((title, i) =>
    task(`T-${i + 1}`, i % 2 === 0 ? 'done' : 'todo', {
      title,
      phase: i < 2 ? 'M1 | `one` T-9' : '# M2 <i>',
      dependsOn: i > 0 ? [`T-${i}`] : [],
    }),
  );
  const one = (text: string) => text.replace(/\s+/g, ' ').trim();

  it('Kiro: every box reads back as its phase or task, the title as text, no ID from it', () => {
    const markdown = kiroTasks(name, hostile);
    expect(documentTitle(parseDocument(markdown))).toBe(`Implementation Plan: ${name}`);
    expect(boxes(markdown)).toEqual([
      { ticked: false, line: `1. ${hostile[0]!.phase}`, ids: [] },
      ...hostile.slice(0, 2).map((t, j) => ({
        ticked: t.status === 'done',
        line: `1.${j + 1} ${t.id} ${one(t.title)}`,
        ids: [t.id],
      })),
      { ticked: false, line: `2. ${hostile[2]!.phase}`, ids: [] },
      ...hostile.slice(2).map((t, j) => ({
        ticked: t.status === 'done',
        line: `2.${j + 1} ${t.id} ${one(t.title)}`,
        ids: [t.id],
      })),
    ]);
  });

  it('spec-kit: each line reads back as the task, its requirement labels and dependencies', () => {
    const markdown = specKitTasks(name, hostile);
    expect(documentTitle(parseDocument(markdown))).toBe(`Tasks: ${name}`);
    expect(boxes(markdown)).toEqual(
      hostile.map((t) => ({
        ticked: t.status === 'done',
        line: `${t.id} [FR-1] ${one(t.title)}${t.dependsOn.length > 0 ? ` (Depends on ${t.dependsOn[0]})` : ''}`,
        ids: [t.id, 'FR-1', ...t.dependsOn],
      })),
    );
  });

  it("OpenSpec: a change's boxes read back as its tasks", () => {
    const markdown = openspecTasks(hostile, ['T-2', 'T-3']) ?? '';
    expect(boxes(markdown)).toEqual(
      hostile.slice(1, 3).map((t, i) => ({
        ticked: t.status === 'done',
        line: `1.${i + 1} ${t.id} ${one(t.title)}`,
        ids: [t.id],
      })),
    );
  });
});
