/**
 * The word layer of the impact reading: a phrase of a change request as words with their Porter
 * stems (wink-nlp's, as contentTerms() uses them), the head of a noun phrase, and the
 * requirement a phrase names. Matching is by stems, so "medical record keeping" finds "Keep
 * medical records for each pet" and "the CI run summaries" finds "Summarise failing CI runs".
 */

import type { RequirementRef } from '@pgs/contract/generation';
import type { PartOfSpeech } from 'wink-nlp';
import { rawTokens } from './reading-tokens.ts';

/** One word of a phrase as written between spaces ("sign-in" is one word with one stem). */
export interface Word {
  /** As written, without the punctuation around it. */
  text: string;
  lower: string;
  /** The tag of its first part with a letter. */
  pos: PartOfSpeech;
  /** Stems of its content parts; empty for a stop word or a generic one. */
  stems: string[];
}

/** Words that say nothing of which requirement is meant ("the app", "the option to …"). */
const GENERIC = new Set(
  `app apps application applications system systems tool tools platform platforms website site
  service services server product feature features functionality ability option options thing
  things way part section user users someone everyone anyone people it need needs want able
  possible anymore longer instead also really please ai mcp web mobile`
    .split(/\s+/)
    .filter(Boolean),
);

const CONTENT = new Set<PartOfSpeech>(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'ADV']);
/** wink-nlp's stop list holds content verbs ("keep", "show", "call"); of its words only these are empty. */
const EMPTY = new Set(
  'be have do get make let go come say seem become can will would should may might must also very just then too so'.split(
    ' ',
  ),
);

/** Words that end a noun phrase: prepositions, conjunctions, subordinators. */
export const BOUNDARY = new Set(
  `by via with in on at before after within every for from to during until without over under per
  when while once whenever if across into of as and or but so that which who because instead than
  anymore altogether entirely completely too please rather should must will can is are be`
    .split(/\s+/)
    .filter(Boolean),
);

const NUMBER =
  /^(?:\d[\w.-]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty)$/i;

/** Whether a word is a number ("16", "two", "16-week"). */
export const isNumber = (word: string): boolean => NUMBER.test(word.split('-')[0] ?? word);

/**
 * The words of a phrase with their stems.
 *
 * @example
 * wordsOf('the sign-in').map((w) => w.stems); // [[], ['sign']]
 */
export function wordsOf(phrase: string): Word[] {
  const tokens = rawTokens(phrase);
  const words: Word[] = [];
  for (const match of phrase.matchAll(/\S+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    const parts = tokens.filter((tok) => tok.start >= start && tok.end <= end);
    const text = match[0].replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (text === '') continue;
    const lettered = parts.find((tok) => /[\p{L}\p{N}]/u.test(tok.text));
    const stems = parts
      .filter(
        (tok) =>
          CONTENT.has(tok.pos) &&
          /[\p{L}\p{N}]/u.test(tok.text) &&
          (!tok.stop || (tok.pos !== 'ADV' && !EMPTY.has(tok.lemma.toLowerCase()))) &&
          !GENERIC.has(tok.lemma.toLowerCase()) &&
          !GENERIC.has(tok.text.toLowerCase()),
      )
      .map((tok) => tok.stem.toLowerCase());
    words.push({ text, lower: text.toLowerCase(), pos: lettered?.pos ?? 'X', stems });
  }
  return words;
}

/** The distinct stems of a phrase's content words. */
export function stemsOf(phrase: string): string[] {
  return [...new Set(wordsOf(phrase).flatMap((word) => word.stems))];
}

/**
 * Whether two stems name the same word: equal, or one the start of the other past four letters
 * (Porter leaves "summari" of "summaries" and "summaris" of "summarise").
 */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short);
}

/**
 * The head of the noun phrase a phrase opens with: its last content word before the first
 * preposition, conjunction or number after a noun ("the marathon plan 20 weeks" → "plan"),
 * skipping generic words ("the booking page" → "booking"). Its stems; empty when it has none.
 *
 * @example
 * headOf('medical record keeping'); // ['keep']
 */
export function headOf(phrase: string): string[] {
  const words = wordsOf(phrase);
  const phraseWords: Word[] = [];
  for (const word of words) {
    if (BOUNDARY.has(word.lower) && phraseWords.length > 0) break;
    if (isNumber(word.lower) && phraseWords.some((w) => w.stems.length > 0)) break;
    phraseWords.push(word);
  }
  return phraseWords.findLast((word) => word.stems.length > 0)?.stems ?? [];
}

const hits = (stems: readonly string[], title: readonly string[]) =>
  stems.filter((stem) => title.some((other) => sameStem(stem, other))).length;

/**
 * The requirement a phrase names: the one sharing most content stems with it, whose title
 * holds the phrase's head (or one of the anchors: a phrase the change quotes from the title).
 * Undefined when none shares the head, or when two score the same (the reader does not guess).
 *
 * @example
 * targetOf('the medical records', [{ id: 'FR-2', title: 'Keep medical records for each pet' }]); // FR-2
 */
export function targetOf(
  phrase: string,
  requirements: readonly RequirementRef[],
  anchors: readonly string[] = [],
  head: readonly string[] = headOf(phrase),
): RequirementRef | undefined {
  const stems = stemsOf([phrase, ...anchors].join(' '));
  const anchorStems = anchors.map(stemsOf).filter((list) => list.length > 0);
  const scored = requirements
    .map((requirement) => {
      const title = stemsOf(requirement.title);
      const anchored =
        (head.length > 0 && hits(head, title) > 0) ||
        anchorStems.some((list) => hits(list, title) === list.length);
      const score = hits(stems, title);
      return { requirement, anchored, score, share: score / Math.max(1, title.length) };
    })
    .filter((entry) => entry.anchored && entry.score > 0)
    .sort((a, b) => b.score - a.score || b.share - a.share);
  const [best, next] = scored;
  if (!best) return undefined;
  if (next && next.score === best.score && next.share === best.share) return undefined;
  return best.requirement;
}
