import { describe, expect, it } from 'vitest';
import { frozenDeep, lastUsed } from './memo.ts';

describe('lastUsed', () => {
  it('computes a key once while it is among the last used, and forgets the oldest', () => {
    const computed: string[] = [];
    const upper = lastUsed(2, (key: string) => {
      computed.push(key);
      return key.toUpperCase();
    });
    expect([upper('a'), upper('b'), upper('a'), upper('c'), upper('a'), upper('b')]).toEqual([
      'A',
      'B',
      'A',
      'C',
      'A',
      'B',
    ]);
    // "a" was used again before "c" came, so "b" went first.
    expect(computed).toEqual(['a', 'b', 'c', 'b']);
  });
});

describe('frozenDeep', () => {
  it('freezes every object and array a value holds', () => {
    const value = frozenDeep({ list: [{ text: 'a' }], nested: { more: ['b'] } });
    expect(() => value.list[0]!.text.concat('')).not.toThrow();
    expect(() => value.list.push({ text: 'c' })).toThrow(TypeError);
    expect(() => {
      value.nested.more[0] = 'c';
    }).toThrow(TypeError);
  });
});
