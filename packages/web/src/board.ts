import type { Task, TaskStatus } from '@pgs/client';

// What the Plan board shows and how its keys act, as plain data: the columns, the moves a
// key asks for, and the sentences a move, a refusal or a stale card reads.

// Keyed by the contract's statuses so that a new status breaks the build here until handled.
const STATUS_LABELS = {
  todo: 'To do',
  in_progress: 'In progress',
  blocked: 'Blocked',
  done: 'Done',
  obsolete: 'Obsolete',
} as const satisfies Record<TaskStatus, string>;

/**
 * The board's columns, left to right: the work's order, `obsolete` last (retired work, out
 * of the way). Digit keys 1–5 name them in this order. @example BOARD_COLUMNS[0]; // 'todo'
 */
export const BOARD_COLUMNS = Object.keys(STATUS_LABELS) as readonly TaskStatus[];

/**
 * A status as a word. @example statusLabel('in_progress'); // 'In progress'
 */
export function statusLabel(status: TaskStatus): string {
  return STATUS_LABELS[status];
}

/**
 * The column before (`-1`) or after (`1`) a status, undefined at the board's ends.
 *
 * @example
 * neighbour('todo', 1); // 'in_progress'
 */
export function neighbour(status: TaskStatus, step: -1 | 1): TaskStatus | undefined {
  return BOARD_COLUMNS[BOARD_COLUMNS.indexOf(status) + step];
}

/** What a key pressed on a card asks for: focus another card, or move this one. */
export type KeyAction =
  | { kind: 'focus'; to: 'up' | 'down' | 'left' | 'right' | 'first' | 'last' }
  | { kind: 'move'; to: TaskStatus };

/**
 * The board's keys (docs/console.md): arrows move between cards, Home and End to the ends of
 * a column, Shift+←/→ move the card one column, 1–5 move it to that column. Undefined for
 * any other key, and for one held with Ctrl, Alt or Meta (the browser's and the reader's).
 *
 * @example
 * keyAction({ key: 'ArrowRight', shiftKey: true }, 'todo'); // { kind: 'move', to: 'in_progress' }
 */
export function keyAction(
  event: {
    key: string;
    shiftKey?: boolean;
    ctrlKey?: boolean;
    altKey?: boolean;
    metaKey?: boolean;
  },
  status: TaskStatus,
): KeyAction | undefined {
  if (event.ctrlKey || event.altKey || event.metaKey) return undefined;
  const digit = /^[1-5]$/.test(event.key) ? BOARD_COLUMNS[Number(event.key) - 1] : undefined;
  if (digit !== undefined) return digit === status ? undefined : { kind: 'move', to: digit };
  if (event.shiftKey) {
    const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : undefined;
    const to = step === undefined ? undefined : neighbour(status, step);
    return to === undefined ? undefined : { kind: 'move', to };
  }
  const focus = {
    ArrowUp: 'up',
    ArrowDown: 'down',
    ArrowLeft: 'left',
    ArrowRight: 'right',
    Home: 'first',
    End: 'last',
  } as const;
  const to = focus[event.key as keyof typeof focus];
  return to === undefined ? undefined : { kind: 'focus', to };
}

/**
 * The card that a focus key lands on, from the cards by column (empty columns are skipped
 * sideways; the same position, or the last card, in the column reached). Undefined at an edge.
 *
 * @example
 * focusTarget(columns, 'T-1', 'right'); // 'T-4', the first card of the next column with cards
 */
export function focusTarget(
  columns: readonly (readonly string[])[],
  from: string,
  to: Extract<KeyAction, { kind: 'focus' }>['to'],
): string | undefined {
  const column = columns.findIndex((ids) => ids.includes(from));
  const ids = columns[column];
  if (ids === undefined) return undefined;
  const row = ids.indexOf(from);
  if (to === 'up') return ids[row - 1];
  if (to === 'down') return ids[row + 1];
  if (to === 'first') return ids[0];
  if (to === 'last') return ids.at(-1);
  const step = to === 'left' ? -1 : 1;
  for (let at = column + step; at >= 0 && at < columns.length; at += step) {
    const other = columns[at]!;
    if (other.length > 0) return other[Math.min(row, other.length - 1)];
  }
  return undefined;
}

/**
 * The project's tasks in the board's columns, each in plan order.
 *
 * @example
 * columnsOf(tasks).map((ids) => ids.length); // [12, 1, 0, 3, 0]
 */
export function columnsOf(tasks: readonly Pick<Task, 'id' | 'status'>[]): string[][] {
  return BOARD_COLUMNS.map((status) =>
    tasks.filter((task) => task.status === status).map((task) => task.id),
  );
}

/**
 * `a`, `a or b`, `a, b or c`. @example orList(['To do', 'Obsolete']); // 'To do or Obsolete'
 */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/**
 * What the live region says after a move.
 *
 * @example
 * movedText('T-3', 'todo', 'in_progress'); // 'Moved T-3 from To do to In progress.'
 */
export function movedText(taskId: string, from: TaskStatus, to: TaskStatus): string {
  return `Moved ${taskId} from ${statusLabel(from)} to ${statusLabel(to)}.`;
}

/**
 * A move the status machine refused (409 TASK_TRANSITION_NOT_ALLOWED), with the moves there
 * are, which the card offers as buttons.
 *
 * @example
 * refusedText('T-3', 'done', 'blocked', ['todo', 'obsolete']);
 * // 'T-3 cannot move from Done to Blocked. From Done it can move to To do or Obsolete.'
 */
export function refusedText(
  taskId: string,
  from: TaskStatus,
  to: TaskStatus,
  allowed: readonly TaskStatus[],
): string {
  const others = allowed.filter((status) => status !== from).map(statusLabel);
  const can =
    others.length === 0
      ? `From ${statusLabel(from)} it cannot move anywhere.`
      : `From ${statusLabel(from)} it can move to ${orList(others)}.`;
  return `${taskId} cannot move from ${statusLabel(from)} to ${statusLabel(to)}. ${can}`;
}

/**
 * A card that changed since the board read it (412, or a read before the first move that
 * found another version): the card now shows the task as it is.
 *
 * @example
 * staleText('T-3'); // 'T-3 was changed by someone else since this page read it. …'
 */
export function staleText(taskId: string): string {
  return `${taskId} was changed by someone else since this page read it. The card now shows it as it is: check it, then move it again if you still want to.`;
}

/**
 * The statuses of a 409's `details.allowed`, ignoring anything else.
 *
 * @example
 * allowedOf({ allowed: ['todo', 'obsolete'] }); // ['todo', 'obsolete']
 */
export function allowedOf(details: Record<string, unknown> | undefined): TaskStatus[] {
  const allowed = details?.allowed;
  if (!Array.isArray(allowed)) return [];
  return BOARD_COLUMNS.filter((status) => allowed.includes(status));
}

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * When a lease ends, in the reader's locale: the time alone when it is on the same day as
 * `now` (a lease is 15 minutes by default), else the date too.
 *
 * @example
 * leaseEnd('2026-11-28T13:29:00Z', Date.parse('2026-11-28T13:14:00Z')); // '1:29 PM' (en-US, UTC)
 */
export function leaseEnd(iso: string, now: number): string {
  const end = new Date(iso);
  if (Number.isNaN(end.getTime())) return iso;
  return end.toDateString() === new Date(now).toDateString()
    ? timeOfDay.format(end)
    : dayAndTime.format(end);
}
