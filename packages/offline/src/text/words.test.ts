import { describe, expect, it } from 'vitest';
import { plural, singular, uncountable } from './words.ts';

/** Singular and plural of the nouns ideas, change requests and codebases name. */
const NOUNS: readonly [one: string, many: string][] = [
  ['movie', 'movies'],
  ['category', 'categories'],
  ['analysis', 'analyses'],
  ['status', 'statuses'],
  ['bus', 'buses'],
  ['box', 'boxes'],
  ['person', 'people'],
  ['child', 'children'],
  ['leaf', 'leaves'],
  ['address', 'addresses'],
  ['match', 'matches'],
  ['wish', 'wishes'],
  ['quiz', 'quizzes'],
  ['day', 'days'],
  ['policy', 'policies'],
  ['menu', 'menus'],
  ['cookie', 'cookies'],
  ['payout', 'payouts'],
  ['diff', 'diffs'],
  ['criterion', 'criteria'],
  ['series', 'series'],
  ['species', 'species'],
  // Software English: a table's indexes, JSON schemas.
  ['index', 'indexes'],
  ['schema', 'schemas'],
  ['virus', 'viruses'],
  ['canvas', 'canvases'],
  ['API', 'APIs'],
  ['Category', 'Categories'],
];

describe('singular and plural', () => {
  it.each(NOUNS)('%s ⇄ %s', (one, many) => {
    expect(plural(one)).toBe(many);
    expect(singular(many)).toBe(one);
  });

  it('keep singulars singular, however they end', () => {
    for (const word of ['status', 'analysis', 'canvas', 'business', 'campus', 'menu', 'its', 'ID'])
      expect(singular(word), word).toBe(word);
  });

  it('inflect the head noun of a phrase', () => {
    expect(plural('vaccine reminder')).toBe('vaccine reminders');
    expect(plural('shift swap')).toBe('shift swaps');
    expect(plural('support person')).toBe('support people');
    expect(singular('guest lists')).toBe('guest list');
    expect(singular('small veterinary clinics')).toBe('small veterinary clinic');
    expect(singular('Saved movies')).toBe('Saved movie');
  });

  it('leave uncountable nouns, ours and the library’s, as they are', () => {
    for (const word of [
      'advice',
      'cloud spend',
      'data',
      'news',
      'analytics',
      'equipment',
      'sheep',
    ]) {
      expect(uncountable(word), word).toBe(true);
      expect(plural(word), word).toBe(word);
      expect(singular(word), word).toBe(word);
    }
    expect(uncountable('reminder')).toBe(false);
    expect(uncountable('budget alerts')).toBe(false);
  });
});
