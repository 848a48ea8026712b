/**
 * Writes the corpus's JSON files: the written products (products.ts) rendered in seven shapes
 * of idea and their change requests, the sourced ideas (sourced.json) as annotated, each split
 * 70/30 into development and held-out parts by a seeded shuffle (seed and order in split.json).
 * Run: `node packages/offline/test/corpus/build.ts`, then `npx biome check --write` on the files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PRODUCTS } from './products.ts';
import { changesOf, ideasOf } from './render.ts';
import type { CorpusIdea } from './types.ts';

/** The sourced ideas as annotated (README.md names their source and licence). */
const SOURCED = JSON.parse(
  readFileSync(new URL('./sourced.json', import.meta.url), 'utf8'),
) as CorpusIdea[];

/** The seed of the split; changing it changes which ideas are held out, so it never changes. */
export const SEED = 29;

/** mulberry32: a small seeded generator, so the split is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A Fisher–Yates shuffle of a copy, driven by `next`. */
function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * The corpus's files by name, as build.ts writes them (before Biome formats them): the ideas
 * and change requests of each part and the split's record. A test checks the committed files
 * against it, so the split cannot drift from its seed.
 *
 * @example
 * corpusFiles()['split.json']; // { seed: 29, … }
 */
export function corpusFiles(): Record<string, unknown> {
  const next = random(SEED);
  // Products are split whole (every shape of a product and its change requests on one side),
  // so no held-out idea is a rewording of a development one.
  const products = shuffled(
    PRODUCTS.map((product) => product.name),
    next,
  );
  const sourced = shuffled(
    SOURCED.map((entry) => entry.id),
    next,
  );
  const cut = (names: string[]) => new Set(names.slice(0, Math.round(names.length * 0.7)));
  const devProducts = cut(products);
  const devSourced = cut(sourced);
  const ideas = [...PRODUCTS.flatMap(ideasOf), ...SOURCED];
  const changes = PRODUCTS.flatMap(changesOf);
  const isDev = (id: string) =>
    devSourced.has(id) || devProducts.has(id.replace(/^written:/, '').split('/')[0]!);
  return {
    'ideas.dev.json': ideas.filter((idea) => isDev(idea.id)),
    'ideas.held-out.json': ideas.filter((idea) => !isDev(idea.id)),
    'changes.dev.json': changes.filter((change) => isDev(change.id)),
    'changes.held-out.json': changes.filter((change) => !isDev(change.id)),
    'split.json': {
      seed: SEED,
      generator: 'mulberry32, Fisher-Yates; products first, then sourced ideas',
      share: 0.7,
      products: { order: products, dev: [...devProducts] },
      sourced: { order: sourced, dev: [...devSourced] },
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, value] of Object.entries(corpusFiles()))
    writeFileSync(new URL(file, import.meta.url), `${JSON.stringify(value, null, 2)}\n`);
}
