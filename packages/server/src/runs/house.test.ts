import { describe, expect, it } from 'vitest';
import { runHouse } from './house.ts';

describe('runHouse', () => {
  const versions = new Map([
    [1, { compliance: ['GDPR'] }],
    [2, { compliance: ['HIPAA'] }],
  ]);
  const store = {
    conventions: async (accountId: string, mode: 'live' | 'test', version: number) =>
      accountId === 'acct' && mode === 'test' ? versions.get(version) : undefined,
  };

  it('reads the version the project recorded, not the latest, with its language', async () => {
    const house = await runHouse(store, {
      accountId: 'acct',
      mode: 'test',
      conventionsVersion: 1,
      language: 'de',
    });
    expect(house).toEqual({ conventions: { compliance: ['GDPR'] }, language: 'de' });
  });

  it('is empty for a project created without conventions, in English', async () => {
    const house = await runHouse(store, {
      accountId: 'acct',
      mode: 'test',
      conventionsVersion: null,
      language: null,
    });
    expect(house).toEqual({});
  });
});
