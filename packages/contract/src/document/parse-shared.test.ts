import { describe, expect, it } from 'vitest';
import { parseDocument } from './parse.ts';
import { parseShared } from './parse-shared.ts';
import { definitionsOf } from './walk.ts';

const REQUIREMENTS =
  '### FR-1 Reminders (Must)\n\n**FR-1.1** WHEN a visit is due THE SYSTEM SHALL send a reminder.\n';

describe('parseShared', () => {
  it('hands every reader of the same text and options one frozen tree', () => {
    const tree = parseShared(REQUIREMENTS, { defines: ['FR'] });
    expect(parseShared(REQUIREMENTS, { defines: ['FR'] })).toBe(tree);
    expect(Object.isFrozen(tree.children[0])).toBe(true);
    expect(() => tree.children.pop()).toThrow(TypeError);
  });

  it('reads the text again under other options, which decide what it defines', () => {
    expect(definitionsOf(parseShared(REQUIREMENTS, { defines: ['FR'] })).map((d) => d.id)).toEqual([
      'FR-1',
      'FR-1.1',
    ]);
    expect(definitionsOf(parseShared(REQUIREMENTS, { defines: [] }))).toEqual([]);
  });

  it('reads a text that holds a NUL as parseDocument does', () => {
    const text = '# A\u0000B\n\nFR-2 \u0000 T-1\n';
    expect(parseShared(text, { defines: [] })).toEqual(parseDocument(text, { defines: [] }));
  });
});
