/**
 * The tasks of an implementation plan as records: each row of the tables under its `## Tasks`
 * section, read by column name from a CommonMark + GFM parse (the trace parser's reading),
 * so a task's dependencies are the IDs of its "Depends on" cell and never an ID its title
 * happens to mention ("Build … until T-3 passes").
 */

import { citedIds, leadingId, parseDocument } from '@pgs/contract/document';
import type { Root, RootContent, Table, TableCell } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { normalHeading } from './build.ts';
import { prefixOf } from './parse.ts';

/** One task as the plan states it. */
export interface PlanTask {
  /** `T-3` */
  id: string;
  /** The Task column. */
  title: string;
  /** The slice: the `###` heading above its table (`''` when there is none). */
  phase: string;
  /** The IDs of its Implements column, as written (`FR-2`, `FR-2.1`, `NFR-1`). */
  implements: string[];
  /** The task IDs of its Depends on column. */
  dependsOn: string[];
  /** The Files column of a grounded project's plan: the paths it touches or creates. */
  files: string[];
  estimate?: string;
}

type Column = 'id' | 'task' | 'implements' | 'files' | 'depends' | 'estimate';

const COLUMNS: Record<string, Column> = {
  id: 'id',
  task: 'task',
  implements: 'implements',
  files: 'files',
  'depends on': 'depends',
  dependencies: 'depends',
  estimate: 'estimate',
};

/**
 * The tasks of a plan in document order; the first row of an ID wins.
 *
 * @example
 * planTasks('## Tasks\n\n### M1\n\n| ID | Task | Implements | Depends on |\n| - | - | - | - |\n| T-1 | Set up | none | none |')[0]?.title; // 'Set up'
 */
export function planTasks(markdown: string): PlanTask[] {
  // The blocks as written: IDs read, nothing grouped into definitions or components.
  const root: Root = parseDocument(markdown, { defines: [], components: false });
  const tasks = new Map<string, PlanTask>();
  let inTasks = false;
  let phase = '';
  for (const node of root.children) {
    if (node.type === 'heading' && node.depth <= 2) {
      inTasks = node.depth === 2 && /^tasks\b/.test(normalHeading(plainText(node)));
      phase = '';
    } else if (node.type === 'heading' && node.depth === 3) {
      phase = plainText(node).trim();
    } else if (inTasks && node.type === 'table') {
      for (const task of tableTasks(node, phase)) if (!tasks.has(task.id)) tasks.set(task.id, task);
    }
  }
  return [...tasks.values()];
}

function tableTasks(table: Table, phase: string): PlanTask[] {
  const [header, ...rows] = table.children.filter((row) => row.type === 'tableRow');
  if (header === undefined) return [];
  const columns = header.children.map(
    (cell) => COLUMNS[plainText(cell).trim().toLowerCase()] ?? undefined,
  );
  const at = (name: Column, fallback?: number) => {
    const index = columns.indexOf(name);
    return index === -1 ? fallback : index;
  };
  const id = at('id', 0)!;
  const title = at('task', 1);
  const tasks: PlanTask[] = [];
  for (const row of rows) {
    const cell = (index: number | undefined): TableCell | undefined =>
      index === undefined ? undefined : row.children[index];
    const text = (index: number | undefined) =>
      plainText(cell(index) ?? { type: 'text', value: '' }).trim();
    // IDs as the tree has them: an ID escaped in user text (`T\-3`) is text, not a reference.
    const cited = (index: number | undefined) => {
      const found = cell(index);
      return found === undefined ? [] : citedIds(found);
    };
    const idCell = cell(id);
    const taskId = idCell === undefined ? undefined : leadingId(idCell);
    if (taskId === undefined || prefixOf(taskId) !== 'T') continue;
    const estimate = text(at('estimate'));
    tasks.push({
      id: taskId,
      title: text(title),
      phase,
      implements: cited(at('implements')).filter((ref) => prefixOf(ref) !== 'T'),
      dependsOn: cited(at('depends')).filter((ref) => prefixOf(ref) === 'T'),
      files: filesOf(cell(at('files'))),
      ...(estimate === '' ? {} : { estimate }),
    });
  }
  return tasks;
}

/**
 * The paths of a Files cell: its code spans (`` `src/a.ts` ``, `` `src/b.ts` `` (new)), each
 * with what follows it up to the next one ("(new)"); a cell without code spans names none
 * (a dash, "none").
 */
function filesOf(cell: TableCell | undefined): string[] {
  if (cell === undefined) return [];
  const files: string[] = [];
  for (const child of cell.children as RootContent[]) {
    if (child.type === 'inlineCode') files.push(child.value.trim());
    else if (
      child.type === 'text' &&
      files.length > 0 &&
      child.value.toLowerCase().includes('(new)')
    ) {
      files[files.length - 1] = `${files.at(-1)} (new)`;
    }
  }
  return unique(files.filter((file) => file !== ''));
}

const unique = (items: readonly string[]) => [...new Set(items)];
