import { DETAIL_LEVELS } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { DETAILS } from './detail.ts';

describe('detail levels', () => {
  it('list brief, standard and deep, each with a line saying what it asks for', () => {
    expect(DETAILS.map((level) => level.value)).toEqual([...DETAIL_LEVELS]);
    expect(DETAILS.map((level) => level.label)).toEqual(['Brief', 'Standard', 'Deep']);
    for (const level of DETAILS) expect(level.hint).toMatch(/^[A-Z].+\.$/);
  });
});
