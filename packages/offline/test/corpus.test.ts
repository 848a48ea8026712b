/**
 * The reading corpus of issue 29 (test/corpus/): the committed files are what build.ts makes
 * from its sources and seed, and each entry is annotated as the README's guide says.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusFiles } from './corpus/build.ts';
import type { CorpusChange, CorpusIdea } from './corpus/types.ts';

const read = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`./corpus/${file}`, import.meta.url), 'utf8'));
const files = corpusFiles();
const ideas = (part: string) => read(`ideas.${part}.json`) as CorpusIdea[];
const changes = (part: string) => read(`changes.${part}.json`) as CorpusChange[];

describe('the reading corpus', () => {
  it('is what build.ts makes from its sources and seed (the split never drifts)', () => {
    for (const [file, value] of Object.entries(files)) expect(read(file), file).toEqual(value);
  });

  it('holds at least 300 ideas and 100 change requests, about 70 % of each in development', () => {
    const dev = ideas('dev').length;
    const all = dev + ideas('held-out').length;
    const devChanges = changes('dev').length;
    const allChanges = devChanges + changes('held-out').length;
    expect(all).toBeGreaterThanOrEqual(300);
    expect(allChanges).toBeGreaterThanOrEqual(100);
    expect(dev / all).toBeGreaterThan(0.6);
    expect(dev / all).toBeLessThan(0.8);
    expect(devChanges / allChanges).toBeGreaterThan(0.6);
    expect(devChanges / allChanges).toBeLessThan(0.8);
  });

  it('annotates every idea: a source and licence, a capability, a name the idea holds', () => {
    for (const idea of [...ideas('dev'), ...ideas('held-out')]) {
      expect(idea.licence, idea.id).toMatch(/^(MIT|CC BY-SA 3\.0)/);
      expect(idea.capabilities.length, idea.id).toBeGreaterThan(0);
      if (idea.name !== null) expect(idea.idea, idea.id).toContain(idea.name);
    }
  });

  it('revises only ideas of its own part, targeting capabilities they have', () => {
    for (const part of ['dev', 'held-out']) {
      const byId = new Map(ideas(part).map((idea) => [idea.id, idea]));
      for (const change of changes(part)) {
        const idea = byId.get(change.idea);
        expect(idea, change.id).toBeDefined();
        for (const delta of change.expected) {
          if (delta.op === 'added') expect(delta.capability, change.id).toBeDefined();
          else expect(idea?.capabilities[delta.target ?? -1], change.id).toBeDefined();
        }
      }
    }
  });
});
