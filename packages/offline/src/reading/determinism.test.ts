import { describe, expect, it } from 'vitest';
import ideas from '../../test/corpus/ideas.dev.json' with { type: 'json' };
import type { CorpusIdea } from '../../test/corpus/types.ts';
import { defineProject } from './define.ts';

/**
 * A server reads ideas for as long as it runs: what it makes of one must not depend on what it
 * read before. wink-nlp adds every word it reads to its lexicon, and the reading once asked
 * that lexicon whether a word was known (a corpus idea was named PortalDesk when read first,
 * IntakeFormDesk after others). Development ideas only (the held-out part is never read here).
 */
describe('the reading of an idea', () => {
  const sample = (ideas as CorpusIdea[]).slice(0, 36).map((entry) => entry.idea);

  it('is the same whatever the process read before', () => {
    const read = (idea: string) => JSON.stringify(defineProject({ idea }));
    const first = sample.map(read);
    // The same ideas again, last first, after every one of them has been read once.
    const again = [...sample].reverse().map(read).reverse();
    expect(again).toEqual(first);
  });
});
