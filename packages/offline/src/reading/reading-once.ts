/**
 * The idea's reading, once per idea. The server asks the engine for each document in a call of
 * its own (the model interface carries the contract's data, not the engine's reading), and
 * each call derives its facts from the idea afresh: wink-nlp's reading of the idea was a
 * quarter to a third of the CPU of writing a project's documents (docs/testing.md).
 */
import { frozenDeep, lastUsed } from '@pgs/contract/memo';
import { readIdeaNlp } from './reading.ts';
import type { IdeaCapabilities } from './reading-types.ts';

/** How many ideas are kept: a handful of projects are written at once. */
const KEPT = 16;

/**
 * {@link readIdeaNlp}, once per idea text among the last few read. The reading is a function of
 * the text alone, so the text is the whole key; it is frozen, as every document of the
 * project shares it.
 *
 * @example
 * readIdeaOnce('A habit tracker for remote teams') === readIdeaOnce('A habit tracker for remote teams'); // true
 */
export const readIdeaOnce: (idea: string) => IdeaCapabilities = lastUsed(KEPT, (idea: string) =>
  frozenDeep(readIdeaNlp(idea)),
);
