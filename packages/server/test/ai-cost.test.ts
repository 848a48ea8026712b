import { describe, expect, it } from 'vitest';
import { costUsd, DEFAULT_PRICES, priceOf } from '../src/models/prices.ts';
import {
  competent,
  generate,
  isDefinition,
  kindOf,
  respondWith,
  setupFor,
} from './helpers/ai-harness.ts';
import type { FakeAiCall } from './helpers/fake-ai.ts';

// What a project costs, and prompts laid out for provider caches (issue 21): the requests
// as the real provider packages send them to the wire-protocol fake, and the provenance.

/** The text blocks of an Anthropic request's first user message, with their cache marks. */
function anthropicBlocks(call: FakeAiCall): { text: string; cached: boolean }[] {
  const first = call.body.messages[0];
  const content = typeof first.content === 'string' ? [{ text: first.content }] : first.content;
  return content.map((block: { text: string; cache_control?: unknown }) => ({
    text: block.text,
    cached: block.cache_control !== undefined,
  }));
}

describe('prompts laid out for caches, and cost, with Anthropic', () => {
  const s = setupFor([{ provider: 'anthropic', model: 'claude-sonnet-4-5' }]);

  it('marks the shared prefix for the cache: the same leading blocks on every document request of a project', async () => {
    respondWith(s, competent);
    const { provenance } = await generate(s, { type: 'web' });
    const documents = s.fake.calls.filter((call) => !isDefinition(call));
    expect(documents.length).toBeGreaterThanOrEqual(8);
    const shared = anthropicBlocks(documents[0]!)[0]!;
    for (const call of documents) {
      const blocks = anthropicBlocks(call);
      // One breakpoint after the project's definition; one after the last earlier document.
      expect(blocks[0], kindOf(call)).toEqual(shared);
      expect(blocks[0]!.cached).toBe(true);
      expect(blocks.at(-1)!.cached).toBe(false);
      expect(blocks.filter((b) => b.cached).length).toBeLessThanOrEqual(2);
      if (blocks.length > 2) expect(blocks.at(-2)!.cached).toBe(true);
      // The document being written is named only in the last block.
      for (const block of blocks.slice(0, -1)) {
        expect(block.text).not.toContain(`"kind": "${kindOf(call)}"`);
      }
    }
    // A later document's earlier documents start with an earlier one's, in the same words.
    const readme = documents.find((call) => kindOf(call) === 'readme')!;
    const stories = documents.find((call) => kindOf(call) === 'user-stories')!;
    const storiesPrefix = anthropicBlocks(stories).slice(0, -1);
    expect(
      anthropicBlocks(readme)
        .slice(0, storiesPrefix.length)
        .map((b) => b.text),
    ).toEqual(storiesPrefix.map((b) => b.text));

    // Cost per part at the default price of claude-sonnet-4-5, from the usage reported.
    const price = priceOf(DEFAULT_PRICES, 'anthropic:claude-sonnet-4-5')!;
    const parts = [provenance.definition, ...provenance.documents];
    for (const part of parts) {
      expect(part.costUsd, part.kind).toBe(
        costUsd(price, {
          inputTokens: part.inputTokens,
          cachedInputTokens: part.cachedInputTokens,
          cacheWriteTokens: part.cacheWriteTokens,
          outputTokens: part.outputTokens,
        }),
      );
      expect(part.costUsd).toBeGreaterThan(0);
    }
    const micro = parts.reduce((sum: number, part) => sum + Math.round(part.costUsd * 1e6), 0);
    expect(provenance.totals).toEqual({
      inputTokens: parts.reduce((sum: number, part) => sum + part.inputTokens, 0),
      cachedInputTokens: parts.reduce((sum: number, part) => sum + part.cachedInputTokens, 0),
      cacheWriteTokens: parts.reduce((sum: number, part) => sum + part.cacheWriteTokens, 0),
      outputTokens: parts.reduce((sum: number, part) => sum + part.outputTokens, 0),
      costUsd: micro / 1e6,
    });
  });
});

describe('prompt cache key and unknown prices, with OpenAI', () => {
  const s = setupFor([{ provider: 'openai', model: 'gpt-fake-1' }]);

  it('sends the project as the prompt cache key; a model without a price costs null, never a guess', async () => {
    respondWith(s, competent);
    const { id, provenance } = await generate(s, { type: 'mcp' });
    const documents = s.fake.calls.filter((call) => !isDefinition(call));
    expect(documents.length).toBeGreaterThan(3);
    for (const call of documents) expect(call.body.prompt_cache_key).toBe(id);
    for (const part of [provenance.definition, ...provenance.documents]) {
      expect(part.engine).toBe('openai:gpt-fake-1');
      expect(part.inputTokens).toBeGreaterThan(0);
      expect(part.costUsd).toBeNull();
    }
    expect(provenance.totals.costUsd).toBeNull();
    expect(provenance.totals.inputTokens).toBeGreaterThan(0);
  });
});
