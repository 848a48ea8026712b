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
    expect(kiroTasks('Demo', tasks)).toBe(
      [
        '# Implementation Plan: Demo',
        '',
        '- [ ] 1. M1 Skeleton',
        '- [x] 1.1 T-1 Work of T-1',
        '- [ ] 1.2 T-2 Work of T-2',
        '  - Depends on T-1',
        '  - Files: `src/app.ts`',
        '  - _Requirements: FR-1.1_',
        '',
        '- [x] 2. M2 Release',
        '- [x] 2.1 T-4 Work of T-4',
        '  - _Requirements: NFR-1_',
        '',
      ].join('\n'),
    );
  });

  it('spec-kit: a phase heading and one line per task; obsolete work left out', () => {
    const lines = specKitTasks('Demo', tasks).split('\n');
    expect(lines.filter((l) => l.startsWith('- ['))).toEqual([
      '- [x] T-1 Work of T-1',
      '- [ ] T-2 [FR-1] Work of T-2 (Depends on T-1; Files: `src/app.ts`)',
      '- [x] T-4 [NFR-1] Work of T-4',
    ]);
    expect(lines).toContain('## Phase 2: M2 Release');
  });

  it("OpenSpec: a change's own work, numbered; nothing when it gave none", () => {
    expect(openspecTasks(tasks, ['T-4', 'T-2', 'T-3'])).toBe(
      '## 1. Implementation\n\n- [ ] 1.1 T-2 Work of T-2\n- [x] 1.2 T-4 Work of T-4\n',
    );
    expect(openspecTasks(tasks, ['T-3'])).toBeUndefined();
  });
});
