import { describe, expect, it } from 'vitest';
import { eventLine } from './commands/live.ts';
import { analysisLines, deltaCounts, deltaLine } from './deltas.ts';

describe('deltas', () => {
  it('words each kind of delta', () => {
    expect(deltaLine({ op: 'added', id: 'FR-7', title: 'SMS reminders', text: 'Send them.' })).toBe(
      '+ FR-7 SMS reminders',
    );
    expect(deltaLine({ op: 'modified', id: 'FR-2', title: 'Booking', text: 'Book online.' })).toBe(
      '~ FR-2 Booking',
    );
    expect(
      deltaLine({ op: 'removed', id: 'FR-5', title: 'Medical records', reason: 'not kept' }),
    ).toBe('- FR-5 Medical records (not kept)');
    expect(deltaLine({ op: 'renamed', id: 'FR-3', from: 'SMS', to: 'Texts' })).toBe(
      'FR-3 renamed: SMS → Texts',
    );
    expect(deltaCounts({ added: 1, modified: 0, removed: 1, renamed: 2 })).toBe('+1 ~0 −1 →2');
  });

  it('says what the analysis found, and the revision events as lines', () => {
    const deltas = [{ op: 'added' as const, id: 'FR-4', title: 'SMS reminders', text: '…' }];
    expect(analysisLines({ deltas, documents: ['PRD.md', 'README.md'] })).toEqual([
      'Changes:',
      '  + FR-4 SMS reminders',
      'Rewriting 2 documents: PRD.md, README.md',
    ]);
    expect(
      eventLine({
        id: '7',
        type: 'revision.analysed',
        data: { revision: 2, deltas, documents: ['PRD.md'] },
      }),
    ).toBe('Changes:\n  + FR-4 SMS reminders\nRewriting 1 document: PRD.md');
    expect(
      eventLine({
        id: '6',
        type: 'revision.started',
        data: { revision: 2, changeRequest: 'Add SMS' },
      }),
    ).toBe('revision 2 started: "Add SMS"');
    expect(
      eventLine({
        id: '9',
        type: 'revision.completed',
        data: {
          revision: 2,
          status: 'completed',
          documentsChanged: ['PRD.md'],
          creditsConsumed: 7,
        },
      }),
    ).toBe('revision 2 completed: 1 document changed, 7 credits consumed');
    expect(
      eventLine({
        id: '9',
        type: 'revision.failed',
        data: { revision: 2, status: 'failed', error: { code: 'generation_failed', message: 'x' } },
      }),
    ).toBeUndefined();
  });
});
