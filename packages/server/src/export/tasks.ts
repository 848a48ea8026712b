/**
 * The plan's tasks as the archive carries them (issue 30, item 5; docs/api.md, "The
 * archive"): `tasks.json` (the task list as listTasks answers it) and checkbox lists in the
 * forms the tools read and tick: Kiro's and spec-kit's `tasks.md`, and the `tasks.md` of each
 * OpenSpec change. A box is ticked (`- [x]`) when the task is done; an obsolete task is left
 * out of the lists (its requirement went) and stays in `tasks.json`.
 */
import type { components } from '@pgs/contract';

type Task = components['schemas']['Task'];

/** What a checkbox list reads of a task; the status of a task never read is `todo`. */
export type ArchiveTask = Pick<
  Task,
  'id' | 'title' | 'phase' | 'requirements' | 'criteria' | 'dependsOn' | 'files' | 'status'
>;

/** The plan's tasks for an archive: `live` when their statuses are the current work's. */
export interface ArchiveWork {
  tasks: readonly ArchiveTask[];
  /** The statuses are the work as it stands (tasks.json ships); else all unticked. */
  live: boolean;
  /** The full tasks for tasks.json (the live archive only). */
  json?: readonly Task[];
}

const box = (task: ArchiveTask) => (task.status === 'done' ? '[x]' : '[ ]');
const open = (tasks: readonly ArchiveTask[]) => tasks.filter((t) => t.status !== 'obsolete');
/** A title on one line, as a list item needs it. */
const line = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The tasks by phase, in plan order. */
function phases(tasks: readonly ArchiveTask[]): [string, ArchiveTask[]][] {
  const byPhase = new Map<string, ArchiveTask[]>();
  for (const task of tasks) byPhase.set(task.phase, [...(byPhase.get(task.phase) ?? []), task]);
  return [...byPhase];
}

function details(task: ArchiveTask): string[] {
  return [
    ...(task.dependsOn.length > 0 ? [`Depends on ${task.dependsOn.join(', ')}`] : []),
    ...(task.files.length > 0 ? [`Files: ${task.files.map((f) => `\`${f}\``).join(', ')}`] : []),
  ];
}

/**
 * Kiro's `tasks.md`: a numbered checkbox per phase, its tasks as numbered sub-tasks with
 * their details and the `_Requirements:_` line Kiro links to the requirements.
 *
 * @example
 * kiroTasks('TeamPulse', tasks).split('\n')[2]; // '- [ ] 1. M1 Walking skeleton'
 */
export function kiroTasks(name: string, tasks: readonly ArchiveTask[]): string {
  const parts = phases(open(tasks)).map(([phase, list], i) => {
    const all = list.every((task) => task.status === 'done') ? '[x]' : '[ ]';
    const items = list.map((task, j) => {
      // Its criteria, and each requirement none of whose criteria it lists (an NFR).
      const implemented = [
        ...task.criteria,
        ...task.requirements.filter((r) => !task.criteria.some((c) => c.startsWith(`${r}.`))),
      ];
      return [
        `- ${box(task)} ${i + 1}.${j + 1} ${task.id} ${line(task.title)}`,
        ...details(task).map((d) => `  - ${d}`),
        ...(implemented.length > 0 ? [`  - _Requirements: ${implemented.join(', ')}_`] : []),
      ].join('\n');
    });
    return [`- ${all} ${i + 1}. ${line(phase) || 'Tasks'}`, ...items].join('\n');
  });
  return `# Implementation Plan: ${name}\n\n${parts.join('\n\n')}\n`;
}

/**
 * spec-kit's `tasks.md`: a `## Phase n` per phase and one `- [ ] T-n …` line per task, its
 * requirements in brackets as spec-kit marks a task's story.
 *
 * @example
 * specKitTasks('TeamPulse', tasks).split('\n')[4]; // '- [ ] T-1 Set up the repository'
 */
export function specKitTasks(name: string, tasks: readonly ArchiveTask[]): string {
  const parts = phases(open(tasks)).map(([phase, list], i) =>
    [
      `## Phase ${i + 1}: ${line(phase) || 'Tasks'}\n`,
      ...list.map((task) => {
        const tags = task.requirements.map((id) => ` [${id}]`).join('');
        const more = details(task);
        return `- ${box(task)} ${task.id}${tags} ${line(task.title)}${more.length > 0 ? ` (${more.join('; ')})` : ''}`;
      }),
    ].join('\n'),
  );
  return `# Tasks: ${name}\n\n${parts.join('\n\n')}\n`;
}

/**
 * The `tasks.md` of an OpenSpec change: the tasks the revision added or reopened, in plan
 * order, numbered as OpenSpec numbers them (`openspec list` counts the boxes); undefined when
 * it gave no work.
 *
 * @example
 * openspecTasks(tasks, ['T-4', 'T-12']); // '## 1. Implementation\n\n- [ ] 1.1 T-4 …'
 */
export function openspecTasks(
  tasks: readonly ArchiveTask[],
  ids: readonly string[],
): string | undefined {
  const work = open(tasks).filter((task) => ids.includes(task.id));
  if (work.length === 0) return undefined;
  const items = work.map((task, i) => `- ${box(task)} 1.${i + 1} ${task.id} ${line(task.title)}`);
  return `## 1. Implementation\n\n${items.join('\n')}\n`;
}

/** `tasks.json`: the task list as listTasks answers its `data`, indented. */
export const tasksJson = (tasks: readonly Task[]) => `${JSON.stringify(tasks, null, 2)}\n`;
