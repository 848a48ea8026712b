import { describe, expect, it } from 'vitest';
import { ideaExcerpt } from './listing.ts';

describe('ideaExcerpt', () => {
  it('keeps a short idea whole, its runs of white space made one space', () => {
    expect(ideaExcerpt('  A booking app\nfor a   dental clinic ')).toBe(
      'A booking app for a dental clinic',
    );
  });

  it('cuts a long idea back to a word and marks the cut', () => {
    const idea = `${'word '.repeat(30)}end`;
    const excerpt = ideaExcerpt(idea);
    expect(excerpt.endsWith('word…')).toBe(true);
    expect([...excerpt].length).toBeLessThanOrEqual(121);
    expect(idea.startsWith(excerpt.slice(0, -1))).toBe(true);
  });

  it('cuts a long word-less idea at 120 code points, never inside an emoji', () => {
    const excerpt = ideaExcerpt('🦷'.repeat(200));
    expect([...excerpt]).toHaveLength(121);
    expect(excerpt).toBe(`${'🦷'.repeat(120)}…`);
  });
});
