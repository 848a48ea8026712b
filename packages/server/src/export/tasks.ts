/**
 * The plan's tasks as the archive carries them (issue 30, item 5; docs/api.md, "The
 * archive"): `tasks.json` (the task list as listTasks answers it) and checkbox lists in the
 * forms the tools read and tick: Kiro's and spec-kit's `tasks.md`, and the `tasks.md` of each
 * OpenSpec change. A box is ticked (`- [x]`) when the task is done; an obsolete task is left
 * out of the lists (its requirement went) and stays in `tasks.json`. The lists are document
 * trees rendered once (`@pgs/contract/document`): a title or a phase is text, so a pipe, a
 * backtick, a tag or an ID it quotes (`T\-9`) reads back as the same text, never as markup
 * or as another task.
 */
import type { components } from '@pgs/contract';
import {
  cite,
  emphasis,
  heading,
  type Inline,
  inlineCode,
  list,
  listItem,
  paragraph,
  renderDocument,
  root,
} from '@pgs/contract/document';
import type { LinkReference, ListItem, RootContent } from 'mdast';

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

const done = (task: ArchiveTask) => task.status === 'done';
const open = (tasks: readonly ArchiveTask[]) => tasks.filter((t) => t.status !== 'obsolete');
/** A title on one line, as the tools' line readers need it. */
const line = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The tasks by phase, in plan order. */
function phases(tasks: readonly ArchiveTask[]): [string, ArchiveTask[]][] {
  const byPhase = new Map<string, ArchiveTask[]>();
  for (const task of tasks) byPhase.set(task.phase, [...(byPhase.get(task.phase) ?? []), task]);
  return [...byPhase];
}

/** Inline nodes joined by `, `. */
const joined = (parts: readonly Inline[]): Inline[] =>
  parts.flatMap((part, i) => (i === 0 ? [part] : [', ', part]));

/** What a task needs first, as inline content: its dependencies, then its files. */
function details(task: ArchiveTask): Inline[][] {
  return [
    ...(task.dependsOn.length > 0 ? [['Depends on ', ...joined(task.dependsOn.map(cite))]] : []),
    ...(task.files.length > 0 ? [['Files: ', ...joined(task.files.map(inlineCode))]] : []),
  ];
}

/** A task-list item: its box, ticked when `ticked`, then the line, then any blocks under it. */
const boxed = (ticked: boolean, content: readonly Inline[], under: RootContent[] = []): ListItem =>
  listItem([paragraph(...content), ...(under as ListItem['children'])], ticked);

/**
 * Kiro's `tasks.md`: a numbered checkbox per phase, its tasks as numbered sub-tasks with
 * their details and the `_Requirements:_` line Kiro links to the requirements. One loose
 * list, a blank line between its items, as Kiro writes its own.
 *
 * @example
 * kiroTasks('TeamPulse', tasks).split('\n')[2]; // '- [ ] 1. M1 Walking skeleton'
 */
export function kiroTasks(name: string, tasks: readonly ArchiveTask[]): string {
  const items = phases(open(tasks)).flatMap(([phase, work], i) => [
    boxed(work.every(done), [`${i + 1}. ${line(phase) || 'Tasks'}`]),
    ...work.map((task, j) => {
      // Its criteria, and each requirement none of whose criteria it lists (an NFR).
      const implemented = [
        ...task.criteria,
        ...task.requirements.filter((r) => !task.criteria.some((c) => c.startsWith(`${r}.`))),
      ];
      const lines = [
        ...details(task),
        ...(implemented.length > 0
          ? [[emphasis('Requirements: ', ...joined(implemented.map(cite)))]]
          : []),
      ];
      return boxed(
        done(task),
        [`${i + 1}.${j + 1} `, cite(task.id), ` ${line(task.title)}`],
        lines.length > 0 ? [list(lines)] : [],
      );
    }),
  ]);
  const plan = list(items);
  plan.spread = true;
  return renderDocument(root([heading(1, `Implementation Plan: ${name}`), plan]), {
    emphasis: '_',
  });
}

/**
 * A requirement as spec-kit marks a task's story (`[US1]`): a bracketed label, which
 * CommonMark reads as a shortcut reference with no definition, that is as the text it is.
 * Written as one, so its brackets stay bare where text would have them escaped (`\[`).
 */
const label = (id: string): LinkReference => ({
  type: 'linkReference',
  identifier: id.toLowerCase(),
  label: id,
  referenceType: 'shortcut',
  children: [cite(id)],
});

/**
 * spec-kit's `tasks.md`: a `## Phase n` per phase and one `- [ ] T-n …` line per task, its
 * requirements in brackets as spec-kit marks a task's story.
 *
 * @example
 * specKitTasks('TeamPulse', tasks).split('\n')[4]; // '- [ ] T-1 Set up the repository'
 */
export function specKitTasks(name: string, tasks: readonly ArchiveTask[]): string {
  const parts = phases(open(tasks)).flatMap(([phase, work], i) => [
    heading(2, `Phase ${i + 1}: ${line(phase) || 'Tasks'}`),
    list(
      work.map((task) => {
        const more = details(task).flatMap((d, k) => (k === 0 ? d : ['; ', ...d]));
        return boxed(done(task), [
          cite(task.id),
          ...task.requirements.flatMap((id) => [' ', label(id)]),
          ` ${line(task.title)}`,
          ...(more.length > 0 ? [' (', ...more, ')'] : []),
        ]);
      }),
    ),
  ]);
  return renderDocument(root([heading(1, `Tasks: ${name}`), ...parts]));
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
  const items = work.map((task, i) =>
    boxed(done(task), [`1.${i + 1} `, cite(task.id), ` ${line(task.title)}`]),
  );
  return renderDocument(root([heading(2, '1. Implementation'), list(items)]));
}

/** `tasks.json`: the task list as listTasks answers its `data`, indented. */
export const tasksJson = (tasks: readonly Task[]) => `${JSON.stringify(tasks, null, 2)}\n`;
