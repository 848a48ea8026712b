import { describe, expect, it } from 'vitest';
import { changedTitle } from './impact-phrases.ts';
import { clausesOf, intentOf } from './impact-read.ts';

describe('the clauses of a change request as people write them', () => {
  it('applies a substitution said last in a list of clauses', () => {
    expect(
      clausesOf(
        'Add a way to chase late payments, drop the expenses, and use monthly instead of quarterly.',
      ),
    ).toEqual([
      'Add a way to chase late payments',
      'drop the expenses',
      'use monthly instead of quarterly',
    ]);
  });

  it('reads two additions joined by ", and"', () => {
    expect(clausesOf('Also let hikers send an SOS message, and sync hikes to Strava.')).toEqual([
      'Also let hikers send an SOS message',
      'sync hikes to Strava',
    ]);
  });

  it('replaces with all that is chosen, never the verb that chooses', () => {
    const sms = intentOf('Use SMS instead of push notifications for the call-outs');
    expect(sms).toMatchObject({
      op: 'modified',
      substitutions: [{ from: 'push notifications', to: 'SMS' }],
    });
    const groups = intentOf('Use local groups instead of neighbours');
    expect(groups).toMatchObject({ substitutions: [{ from: 'neighbours', to: 'local groups' }] });
  });

  it('replaces a measure as a measure', () => {
    const days = intentOf('Use five days instead of a week for the meeting papers');
    expect(days).toMatchObject({ substitutions: [{ from: 'a week', to: 'five days' }] });
    expect(
      changedTitle(
        'Circulate meeting papers a week ahead',
        [{ from: 'a week', to: 'five days' }],
        [],
      ),
    ).toBe('Circulate meeting papers five days ahead');
    expect(
      changedTitle('Join a room with a 6-letter code', [{ from: '6 letters', to: '4 digits' }], []),
    ).toBe('Join a room with a 4-digit code');
  });
});
