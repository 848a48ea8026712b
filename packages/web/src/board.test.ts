import { describe, expect, it } from 'vitest';
import {
  allowedOf,
  BOARD_COLUMNS,
  columnsOf,
  focusTarget,
  keyAction,
  leaseEnd,
  movedText,
  neighbour,
  orList,
  refusedText,
  staleText,
  statusLabel,
} from './board.ts';

describe('the columns', () => {
  it('are the statuses in the order of the work, obsolete last', () => {
    expect(BOARD_COLUMNS.map(statusLabel)).toEqual([
      'To do',
      'In progress',
      'Blocked',
      'Done',
      'Obsolete',
    ]);
    expect(neighbour('todo', -1)).toBeUndefined();
    expect(neighbour('todo', 1)).toBe('in_progress');
    expect(neighbour('done', 1)).toBe('obsolete');
    expect(neighbour('obsolete', 1)).toBeUndefined();
  });

  it('hold the tasks in plan order', () => {
    const tasks = [
      { id: 'T-1', status: 'done' },
      { id: 'T-2', status: 'todo' },
      { id: 'T-3', status: 'done' },
      { id: 'T-4', status: 'obsolete' },
    ] as const;
    expect(columnsOf(tasks)).toEqual([['T-2'], [], [], ['T-1', 'T-3'], ['T-4']]);
  });
});

describe('keys on a card', () => {
  it('move it one column with Shift and an arrow, nowhere past the ends', () => {
    expect(keyAction({ key: 'ArrowRight', shiftKey: true }, 'todo')).toEqual({
      kind: 'move',
      to: 'in_progress',
    });
    expect(keyAction({ key: 'ArrowLeft', shiftKey: true }, 'done')).toEqual({
      kind: 'move',
      to: 'blocked',
    });
    expect(keyAction({ key: 'ArrowLeft', shiftKey: true }, 'todo')).toBeUndefined();
    expect(keyAction({ key: 'ArrowRight', shiftKey: true }, 'obsolete')).toBeUndefined();
  });

  it('move it to the column a digit names, except the one it is in', () => {
    expect(keyAction({ key: '1' }, 'done')).toEqual({ kind: 'move', to: 'todo' });
    expect(keyAction({ key: '5' }, 'todo')).toEqual({ kind: 'move', to: 'obsolete' });
    expect(keyAction({ key: '4' }, 'done')).toBeUndefined();
    expect(keyAction({ key: '6' }, 'done')).toBeUndefined();
  });

  it('move the focus with plain arrows, Home and End, and leave modified keys alone', () => {
    expect(keyAction({ key: 'ArrowDown' }, 'todo')).toEqual({ kind: 'focus', to: 'down' });
    expect(keyAction({ key: 'ArrowLeft' }, 'todo')).toEqual({ kind: 'focus', to: 'left' });
    expect(keyAction({ key: 'End' }, 'todo')).toEqual({ kind: 'focus', to: 'last' });
    expect(keyAction({ key: 'ArrowRight', ctrlKey: true }, 'todo')).toBeUndefined();
    expect(keyAction({ key: '2', altKey: true }, 'todo')).toBeUndefined();
    expect(keyAction({ key: 'Enter' }, 'todo')).toBeUndefined();
  });
});

describe('focusTarget', () => {
  const columns = [['T-1', 'T-2', 'T-3'], [], ['T-4'], ['T-5', 'T-6'], []];

  it('goes up and down a column and to its ends, stopping at its edges', () => {
    expect(focusTarget(columns, 'T-2', 'up')).toBe('T-1');
    expect(focusTarget(columns, 'T-2', 'down')).toBe('T-3');
    expect(focusTarget(columns, 'T-3', 'down')).toBeUndefined();
    expect(focusTarget(columns, 'T-2', 'first')).toBe('T-1');
    expect(focusTarget(columns, 'T-1', 'last')).toBe('T-3');
  });

  it('goes sideways past empty columns, to the same row or the last card', () => {
    expect(focusTarget(columns, 'T-3', 'right')).toBe('T-4');
    expect(focusTarget(columns, 'T-4', 'right')).toBe('T-5');
    expect(focusTarget(columns, 'T-6', 'left')).toBe('T-4');
    expect(focusTarget(columns, 'T-4', 'left')).toBe('T-1');
    expect(focusTarget(columns, 'T-6', 'right')).toBeUndefined();
    expect(focusTarget(columns, 'T-9', 'right')).toBeUndefined();
  });
});

describe('what a move says', () => {
  it('names the task and both columns', () => {
    expect(movedText('T-3', 'todo', 'in_progress')).toBe('Moved T-3 from To do to In progress.');
  });

  it('says which moves there are when one is refused', () => {
    expect(refusedText('T-3', 'done', 'blocked', ['todo', 'obsolete'])).toBe(
      'T-3 cannot move from Done to Blocked. From Done it can move to To do or Obsolete.',
    );
    expect(refusedText('T-3', 'obsolete', 'done', ['obsolete', 'todo'])).toBe(
      'T-3 cannot move from Obsolete to Done. From Obsolete it can move to To do.',
    );
    expect(refusedText('T-3', 'done', 'blocked', [])).toContain('it cannot move anywhere');
    expect(orList(['a', 'b', 'c'])).toBe('a, b or c');
  });

  it('reads the allowed moves of a 409 in the board order, ignoring what is not a status', () => {
    expect(allowedOf({ allowed: ['obsolete', 'todo', 'later', 3] })).toEqual(['todo', 'obsolete']);
    expect(allowedOf({ allowed: 'todo' })).toEqual([]);
    expect(allowedOf(undefined)).toEqual([]);
  });

  it('tells that a task changed since it was read', () => {
    expect(staleText('T-2')).toMatch(/^T-2 was changed by someone else since this page read it\./);
  });
});

describe('leaseEnd', () => {
  it('gives the time alone on the same day, the date too on another, and keeps what is no date', () => {
    const now = new Date(2026, 10, 28, 9, 0).getTime();
    const soon = new Date(2026, 10, 28, 9, 15).toISOString();
    const tomorrow = new Date(2026, 10, 29, 9, 15).toISOString();
    expect(leaseEnd(soon, now)).toBe(
      new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(soon)),
    );
    expect(leaseEnd(tomorrow, now)).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(tomorrow),
      ),
    );
    expect(leaseEnd(tomorrow, now).length).toBeGreaterThan(leaseEnd(soon, now).length);
    expect(leaseEnd('soon', now)).toBe('soon');
  });
});
