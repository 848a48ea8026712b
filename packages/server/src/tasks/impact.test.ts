import { describe, expect, it } from 'vitest';
import { droppedNote, impactOf, verdictOf } from './impact.ts';

const modify = (id: string) => ({ op: 'modified' as const, id, title: id, text: `${id} anew` });
const remove = (id: string) => ({ op: 'removed' as const, id, title: id, reason: 'Not needed' });

describe('what revisions do to the work on a plan', () => {
  const impact = impactOf([
    { revision: 3, deltas: [remove('FR-2'), modify('FR-5')] },
    {
      revision: 2,
      deltas: [modify('FR-2'), modify('FR-3'), { op: 'renamed', id: 'FR-4', from: 'a', to: 'b' }],
    },
  ]);

  it('keeps the last revision that touched each requirement; a removal overrides a modification', () => {
    expect([...impact.modified]).toEqual([
      ['FR-3', 2],
      ['FR-5', 3],
    ]);
    expect([...impact.removed]).toEqual([['FR-2', 3]]);
  });

  it('reopens done work on a modified requirement, naming the revision and the requirements', () => {
    expect(verdictOf('done', ['FR-3', 'FR-5'], ['FR-3', 'FR-5'], impact)).toEqual({
      kind: 'reopen',
      revision: 3,
      requirements: ['FR-3', 'FR-5'],
      note: 'Reopened by revision 3, which modified FR-3 and FR-5: check the work against the new text.',
    });
    expect(verdictOf('in_progress', ['FR-3'], ['FR-3'], impact)).toMatchObject({
      kind: 'notify',
      note: expect.stringContaining('while this task was in progress'),
    });
    // Not started: nothing to reopen. A rename keeps the meaning.
    expect(verdictOf('todo', ['FR-3'], ['FR-3'], impact)).toEqual({ kind: 'keep' });
    expect(verdictOf('done', ['FR-4'], ['FR-4'], impact)).toEqual({ kind: 'keep' });
  });

  it('retires a task only when every requirement it served was removed', () => {
    expect(verdictOf('done', ['FR-2'], ['FR-2'], impact)).toMatchObject({
      kind: 'obsolete',
      revision: 3,
      note: 'Obsolete: revision 3 removed FR-2, which this task implemented.',
    });
    // Still serving FR-1 (or, in the new plan, FR-6): the work stays.
    expect(verdictOf('done', ['FR-1', 'FR-2'], ['FR-1'], impact)).toEqual({ kind: 'keep' });
    expect(verdictOf('done', ['FR-2'], ['FR-6'], impact)).toEqual({ kind: 'keep' });
    // Work serving no requirement (set-up, spikes) is never retired by a delta.
    expect(verdictOf('done', [], [], impact)).toEqual({ kind: 'keep' });
    expect(verdictOf('obsolete', ['FR-3'], ['FR-3'], impact)).toEqual({ kind: 'keep' });
  });

  it('says why a task the plan no longer has is obsolete', () => {
    expect(droppedNote(['FR-2'], impact, 4)).toEqual({
      revision: 3,
      note: 'Obsolete: revision 3 removed FR-2, which this task implemented.',
    });
    expect(droppedNote(['FR-1'], impact, 4)).toEqual({
      revision: 4,
      note: 'Not in the plan of revision 4.',
    });
  });
});
