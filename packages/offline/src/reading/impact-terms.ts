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
/**
 * Of the generic words, the nouns that may still be what a requirement is about: "drop the
 * applications" of "Route applications to reviewers" names the permit applications, not the
 * product. They count when a phrase has no other word, and always in a title.
 */
const THINGS = new Set(
  `application applications system systems tool tools platform platforms website site service
  services server product feature features option options section`
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
export function wordsOf(phrase: string, things = false): Word[] {
  const tokens = rawTokens(phrase);
  const generic = (word: string) => GENERIC.has(word) && !(things && THINGS.has(word));
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
          !generic(tok.lemma.toLowerCase()) &&
          !generic(tok.text.toLowerCase()),
      )
      .map((tok) => tok.stem.toLowerCase());
    words.push({ text, lower: text.toLowerCase(), pos: lettered?.pos ?? 'X', stems });
  }
  return words;
}

/**
 * The distinct stems of a phrase's content words; with `things`, the generic nouns that may
 * name what a requirement is about too ("applications", as a title and as a target).
 */
export function stemsOf(phrase: string, things = false): string[] {
  return [...new Set(wordsOf(phrase, things).flatMap((word) => word.stems))];
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
export function headOf(phrase: string, things = false): string[] {
  const words = wordsOf(phrase, things);
  const phraseWords: Word[] = [];
  for (const word of words) {
    if (BOUNDARY.has(word.lower) && phraseWords.length > 0) break;
    const afterHead = phraseWords.some((w) => w.stems.length > 0);
    // "book desks a week ahead": a number or an article after a noun starts a measure.
    if (afterHead && (isNumber(word.lower) || /^(?:a|an|the|each|every)$/.test(word.lower))) break;
    phraseWords.push(word);
  }
  // A word after the head that only says how ("appointments online", "harvests offline").
  const content = phraseWords.filter((word) => word.stems.length > 0);
  while (content.length > 1 && ['ADV', 'ADJ'].includes(content.at(-1)!.pos)) content.pop();
  const head = content.at(-1)?.stems;
  if (head === undefined && !things) return headOf(phrase, true);
  return head ?? [];
}

const hits = (stems: readonly string[], title: readonly string[]) =>
  stems.filter((stem) => title.some((other) => sameStem(stem, other))).length;

/** Verbs of a feature that only finds what others make: "View and search protocols". */
const FINDING = /^(?:view|search|list|browse|find|show|see|look|filter)$/i;

/** A title's verbs (one, or a pair: "View and search") and the rest. */
function verbsAndRest(title: string): [verbs: string[], rest: string] {
  const words = title.split(/\s+/);
  const pair = /^(?:and|or|&)$/i.test(words[1] ?? '') ? 3 : 1;
  return [
    words.slice(0, pair).filter((w) => !/^(?:and|or|&)$/i.test(w)),
    words.slice(pair).join(' '),
  ];
}

/**
 * Whether a head is what a title acts on: the object of its verb, one of the objects it
 * coordinates, or the object of a later verb it joins ("Log time against tasks and bill
 * clients" acts on clients, "Plan sprints per client" not).
 */
function actsOn(title: string, head: readonly string[]): boolean {
  if (head.length === 0) return false;
  const [, first] = verbsAndRest(title);
  const later = title
    .split(/,?\s+and\s+|,\s+/)
    .slice(1)
    .map((part) => part.split(/\s+/).slice(1).join(' '));
  // A coordination's objects are each what it acts on ("Manage members, invoices and emails").
  const objects = first.split(/,?\s+and\s+|,\s+/);
  return [first, ...later, ...objects].some((rest) => hits(head, headOf(rest, true)) > 0);
}

/** The words of a text as written, lower case and without a plural "s": "Applicants" → "applicant". */
const plainWords = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => word.replace(/s$/, ''));

/**
 * The requirement a phrase names: the one sharing most content stems with it, whose title
 * holds the phrase's head (or one of the anchors: a phrase the change quotes from the title).
 * Of two that share as many, the one holding more of its words as written ("applicants" is
 * not "applications"), the one whose own object the head is ("the desks" is "Book desks a week
 * ahead", not "Show floor plans with free desks"), then the one that does more than
 * find it ("drop the protocols" is "Store protocols with versions", not "View and search
 * protocols", which an idea's features only need to be reached), then the one most about it
 * (the shorter title). Undefined when none shares the head, or two are still alike (the reader
 * does not guess).
 */
export function targetOf(
  phrase: string,
  requirements: readonly RequirementRef[],
  anchors: readonly string[] = [],
  head: readonly string[] = headOf(phrase),
): RequirementRef | undefined {
  const named = namedById(phrase, requirements);
  if (named !== null) return named;
  const words = withoutRequirementWord(phrase);
  if (words !== phrase) return targetOf(words, requirements, anchors);
  const own = stemsOf([phrase, ...anchors].join(' '));
  const stems = own.length > 0 ? own : stemsOf([phrase, ...anchors].join(' '), true);
  const anchorStems = anchors.map((a) => stemsOf(a, true)).filter((list) => list.length > 0);
  const written = plainWords([phrase, ...anchors].join(' ')).filter((word) => word.length > 3);
  const scored = requirements
    .map((requirement) => {
      const title = stemsOf(requirement.title, true);
      const anchored =
        (head.length > 0 && hits(head, title) > 0) ||
        anchorStems.some((list) => hits(list, title) === list.length);
      const [verbs] = verbsAndRest(requirement.title);
      const object = actsOn(requirement.title, head) ? 1 : 0;
      const makes = verbs.every((verb) => FINDING.test(verb)) ? 0 : 1;
      const score = hits(stems, title);
      // Stems join "applicants" and "applications": the words as written tell them apart.
      const titleWords = new Set(plainWords(requirement.title));
      const exact = written.filter((word) => titleWords.has(word)).length;
      const share = score / Math.max(1, title.length);
      return { requirement, anchored, score, exact, object, makes, share };
    })
    .filter((entry) => entry.anchored && entry.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.exact - a.exact ||
        b.object - a.object ||
        b.makes - a.makes ||
        b.share - a.share,
    );
  const [best, next] = scored;
  if (!best) return undefined;
  const alike = (a: typeof best, b: typeof best) =>
    a.score === b.score &&
    a.exact === b.exact &&
    a.object === b.object &&
    a.makes === b.makes &&
    a.share === b.share;
  if (next && alike(best, next)) return undefined;
  return best.requirement;
}

/**
 * The requirement a phrase names by its ID ("FR-3", "the requirement FR-3"): null when the
 * phrase names none; undefined when it names one the project does not have, or several
 * (then no other reading guesses in its place).
 */
function namedById(
  phrase: string,
  requirements: readonly RequirementRef[],
): RequirementRef | undefined | null {
  const ids = [...new Set([...phrase.matchAll(/\bFR-(\d+)\b/gi)].map((m) => `FR-${m[1]}`))];
  if (ids.length === 0) return null;
  return ids.length === 1 ? requirements.find((r) => r.id === ids[0]) : undefined;
}

/** A phrase without the word that only says it is a requirement ("the sign-in requirement"). */
const withoutRequirementWord = (phrase: string) =>
  phrase
    .replace(/\s+(?:requirements?|features?|capability|capabilities|functionality)\s*$/i, '')
    .trim() || phrase;
