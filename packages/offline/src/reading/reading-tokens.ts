/**
 * The token layer of the NLP reading: wink-nlp's tokens, tags and lemmas, with the corrections
 * the rules in reading-parse.ts rely on (hyphenated compounds joined, possessives marked,
 * sentence-initial capitals not mistaken for proper nouns, "small" not an adverb).
 */
import { createRequire } from 'node:module';
import type WinkFn from 'wink-nlp';
import type { ItsFunction, PartOfSpeech, WinkMethods } from 'wink-nlp';

/** One token of an idea, as the rules see it. */
export interface Tok {
  /** As written in the idea. */
  text: string;
  lower: string;
  /** The tag after correction. */
  pos: PartOfSpeech;
  /** wink-nlp's lemma (for a compound, the compound with its last part lemmatised). */
  lemma: string;
  /** Character offsets in the idea, so spans can be quoted as written. */
  start: number;
  end: number;
  /** Joined from hyphenated parts: "read-only", "16-week", "festival-goers". */
  compound: boolean;
  /** Holds a digit or is a number word. */
  numeric: boolean;
  /** "'s" or a bare apostrophe after a plural: joins a noun phrase. */
  possessive: boolean;
}

let engine: WinkMethods | undefined;

/**
 * wink-nlp declares its.lemma and its.stem with the helper's own parameters, which its d.ts
 * does not accept back in out(); at run time out() takes them like any other.
 */
function asIts<T>(helper: unknown): ItsFunction<T> {
  return helper as ItsFunction<T>;
}

/**
 * The wink-nlp engine with the English model, loaded on first use: the model takes a couple of
 * hundred milliseconds to load, which a process that never reads an idea should not pay.
 *
 * @example
 * nlp().readDoc('Send reminders').tokens().out(nlp().its.pos); // ['VERB', 'NOUN']
 */
export function nlp(): WinkMethods {
  if (!engine) {
    const require = createRequire(import.meta.url);
    const wink = require('wink-nlp') as typeof WinkFn;
    const model = require('wink-eng-lite-web-model') as Parameters<typeof WinkFn>[0];
    engine = wink(model);
  }
  return engine;
}

/** A token of wink-nlp before the corrections, for the content terms. */
export interface RawTok {
  text: string;
  pos: PartOfSpeech;
  lemma: string;
  stem: string;
  stop: boolean;
  start: number;
  end: number;
}

/**
 * Whether the model's own lexicon holds a word. Not `isLexeme`: wink-nlp adds every word it
 * reads to the lexicon, so `isLexeme` answered by what the process had read before (an idea
 * read as PortalDesk, then as IntakeFormDesk); `isOOV` tells the model's words from those.
 *
 * @example
 * isKnownWord('schedule'); // true
 * isKnownWord('schedul'); // false, whatever was read before
 */
export function isKnownWord(word: string): boolean {
  return !nlp().readDoc('').isOOV(word);
}

/**
 * The verb an agent noun is made from, when the lexicon has it and it can be a verb: what a
 * "habit tracker" does. Not for nouns that only look like one (server, user, computer).
 *
 * @example
 * verbOfAgentNoun('tracker'); // 'track'
 * verbOfAgentNoun('server'); // undefined
 */
export function verbOfAgentNoun(noun: string): string | undefined {
  const match = /^(.+?)(?:er|or)$/.exec(noun);
  if (!match?.[1] || /^(serv|us|comput)/.test(noun)) return undefined;
  const stem = match[1];
  return [stem, `${stem}e`, stem.slice(0, -1)].find(
    (candidate) => candidate.length > 2 && isKnownWord(candidate) && canBeVerb(candidate),
  );
}

/**
 * wink-nlp tags a capitalised first word as a proper noun ("Track expenses", "Users can …"), so
 * a first word the lexicon knows in lower case is tagged in lower case.
 */
function lowerSentenceStarts(text: string): string {
  return text.replace(/(^|[.!?;:]\s+)([A-Z][a-z]+)\b/g, (whole, lead: string, word: string) =>
    isKnownWord(word.toLowerCase()) ? `${lead}${word.toLowerCase()}` : whole,
  );
}

/**
 * wink-nlp's tokens of a text as it tags them, with offsets into the text; the content terms
 * use these, since they need the stems of every word, compounds split.
 *
 * @example
 * rawTokens('Send reminders').map((tok) => tok.stem); // ['send', 'remind']
 */
export function rawTokens(text: string): RawTok[] {
  const { readDoc, its } = nlp();
  const tagged = lowerSentenceStarts(text);
  const tokens = readDoc(tagged).tokens();
  const pos = tokens.out(its.pos) as PartOfSpeech[];
  const lemma = tokens.out(asIts<string>(its.lemma)) as string[];
  const stem = tokens.out(asIts<string>(its.stem)) as string[];
  const stop = tokens.out(its.stopWordFlag) as boolean[];
  const values = tokens.out(its.value) as string[];
  let cursor = 0;
  return values.map((value, i) => {
    const at = tagged.indexOf(value, cursor);
    const start = at === -1 ? cursor : at;
    cursor = start + value.length;
    return {
      // The tagger saw a lower-cased first word; the reading quotes the idea as written.
      text: text.slice(start, start + value.length) || value,
      pos: pos[i] ?? 'X',
      lemma: lemma[i] ?? value.toLowerCase(),
      stem: stem[i] ?? value.toLowerCase(),
      stop: stop[i] ?? false,
      start,
      end: start + value.length,
    };
  });
}

/** Scope words: "read-only", "self-hosted", "offline" (also used for the idea's qualifiers). */
export const SCOPE =
  /^(?:read-only|write-only|offline|offline-first|local-first|private|self-hosted|open-source|real-time|realtime|multi-tenant|single-tenant|on-prem(?:ise|ises)?|end-to-end|encrypted|anonymous|serverless|multilingual|ad-free|privacy-first|[\w-]+-(?:only|first|hosted|compliant|free|tenant|encrypted))$/i;

const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty hundred thousand million'.split(
    ' ',
  ),
);
const NOUN_TAGS = new Set<PartOfSpeech>(['NOUN', 'PROPN']);

/**
 * Whether a token names a thing: a noun or a proper noun (compounds carry their corrected tag).
 *
 * @example
 * isNoun(tokensOf('pet records')[1]); // true
 */
export function isNoun(tok: Tok | undefined): boolean {
  return tok !== undefined && NOUN_TAGS.has(tok.pos);
}

/**
 * Tokens of an idea with the tagger's systematic errors corrected. Compounds are joined first:
 * the tagger reads "read-only" as a noun, a dash and an adverb.
 *
 * @example
 * tokensOf('A read-only server').map((tok) => tok.text); // ['A', 'read-only', 'server']
 */
export function tokensOf(text: string): Tok[] {
  const raw = rawTokens(text);
  const toks: Tok[] = [];
  for (let i = 0; i < raw.length; i++) {
    const first = raw[i]!;
    let last = i;
    // word-word(-word): no space on either side of the dash or slash.
    while (
      raw[last + 2] &&
      /^[-/]$/.test(raw[last + 1]!.text) &&
      raw[last + 1]!.start === raw[last]!.end &&
      raw[last + 2]!.start === raw[last + 1]!.end &&
      /[\p{L}\p{N}]/u.test(raw[last + 2]!.text)
    )
      last += 2;
    const start = first.start;
    const end = raw[last]!.end;
    const written = text.slice(start, end);
    const lower = written.toLowerCase();
    const apostrophe = first.text === "'" && toks.at(-1)?.lower.endsWith('s') === true;
    const possessive = apostrophe || (first.pos === 'PART' && /^['’]s$/i.test(first.text));
    const parts = raw.slice(i, last + 1);
    toks.push({
      text: written,
      lower,
      pos: possessive ? 'PART' : first.pos,
      lemma:
        last > i
          ? `${lower.slice(0, lower.length - raw[last]!.text.length)}${raw[last]!.lemma}`
          : first.lemma,
      start,
      end,
      compound: last > i,
      numeric: parts.some((part) => /\d/.test(part.text) || NUMBER_WORDS.has(part.lemma)),
      possessive,
    });
    i = last;
  }
  correct(toks);
  return toks;
}

function correct(toks: Tok[]): void {
  for (const [i, tok] of toks.entries()) {
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (tok.compound) {
      // A compound before another word of a phrase modifies it ("read-only server", "set-time
      // alerts", "open-source, self-hosted help desk"); a plural one is a noun ("festival-goers").
      const plural = /s$/.test(tok.lower) && tok.lemma !== tok.lower;
      const listed = next?.text === ',' && toks[i + 2]?.compound === true;
      const modifier =
        SCOPE.test(tok.lower) ||
        listed ||
        (next !== undefined &&
          !['PUNCT', 'CCONJ', 'ADP', 'PART', 'SCONJ', 'DET', 'PRON', 'AUX'].includes(next.pos));
      tok.pos = modifier && !plural ? 'ADJ' : tok.numeric ? 'NUM' : 'NOUN';
    } else if (
      tok.pos === 'ADV' &&
      !tok.lower.endsWith('ly') &&
      next !== undefined &&
      (isNoun(next) || next.pos === 'ADJ') &&
      (!prev || ['DET', 'ADP', 'PUNCT', 'CCONJ'].includes(prev.pos))
    ) {
      // "small/ADV veterinary clinics": an adverb opening a noun phrase is its adjective.
      tok.pos = 'ADJ';
    } else if (tok.pos === 'PRON' && /^[A-Z]{2,}$/.test(tok.text) && isNoun(next)) {
      // "IT teams": an acronym the tagger took for "it".
      tok.pos = 'PROPN';
    }
  }
}

const verbProbe = new Map<string, boolean>();

/**
 * Whether the tagger accepts a word as a verb in a frame that only a verb fits ("to X it"): the
 * tagger's lexicon knows which words can be verbs even where it mistags them in a list.
 *
 * @example
 * canBeVerb('export'); // true; canBeVerb('hotel') is false
 */
export function canBeVerb(word: string): boolean {
  const key = word.toLowerCase();
  let known = verbProbe.get(key);
  if (known === undefined) {
    const { readDoc, its } = nlp();
    known = readDoc(`to ${key} it`).tokens().out(its.pos)[1] === 'VERB';
    // Bounded: a long-running server reads many ideas.
    if (verbProbe.size > 5000) verbProbe.clear();
    verbProbe.set(key, known);
  }
  return known;
}

const nounLemmas = new Map<string, string>();

/**
 * The singular of a word read as a noun, where the tagger took it for a verb.
 *
 * @example
 * nounLemma('leaves'); // 'leaf'
 */
export function nounLemma(word: string): string {
  const key = word.toLowerCase();
  let lemma = nounLemmas.get(key);
  if (lemma === undefined) {
    const { readDoc, its } = nlp();
    lemma = String(readDoc(`the ${key}`).tokens().out(asIts<string>(its.lemma))[1] ?? key);
    if (nounLemmas.size > 5000) nounLemmas.clear();
    nounLemmas.set(key, lemma);
  }
  return lemma;
}

/**
 * The base verb of a gerund, for "for tracking expenses" and "mood tracking"; a gerund the
 * lemmatiser does not know loses its "-ing" by spelling rules.
 *
 * @example
 * gerundBase('journaling'); // 'journal'
 */
export function gerundBase(word: string): string {
  const lower = word.toLowerCase();
  const { readDoc, its } = nlp();
  const lemma = String(
    readDoc(`they are ${lower} it`).tokens().out(asIts<string>(its.lemma))[2] ?? lower,
  );
  if (!lemma.endsWith('ing')) return lemma;
  const stem = lower.slice(0, -3);
  const candidates = [`${stem}e`, stem, stem.slice(0, -1)];
  if (/(.)\1$/.test(stem)) candidates.unshift(stem.slice(0, -1));
  return candidates.find(isKnownWord) ?? stem;
}

/**
 * The base verb of a token, lower case; the idea's own spelling wins over the lemmatiser's
 * American one.
 *
 * @example
 * verbBase(tokensOf('summarises')[0]!); // 'summarise'
 */
export function verbBase(tok: Tok): string {
  let base = tok.lower;
  if (tok.pos === 'VERB' && tok.lemma !== tok.lower && !spellingVariant(tok.lower, tok.lemma))
    base = tok.lemma;
  else if (tok.lower.endsWith('ing') && tok.lower.length > 5) return gerundBase(tok.lower);
  else if (tok.lower.endsWith('s')) base = tok.lemma;
  if (base.endsWith('ize') && tok.lower.startsWith(`${base.slice(0, -3)}is`))
    base = `${base.slice(0, -3)}ise`;
  return (inflectionLeft(tok.lower, base) ?? base).toLowerCase();
}

/**
 * The base form of a third-person verb the lemmatiser left inflected ("analyzes" stays
 * "analyzes", "analyses" becomes "analyzes"): the idea's own word without its "-s" or "-es",
 * when that is a known verb; undefined when the lemmatiser did its work.
 */
function inflectionLeft(written: string, base: string): string | undefined {
  if (!/[^su]s$/.test(written) || (base !== written && !spellingVariant(written, base)))
    return undefined;
  return [written.slice(0, -1), written.slice(0, -2)].find((w) => isKnownWord(w) && canBeVerb(w));
}

/**
 * "practise" / "practice", "summarise" / "summarize", "analyse" / "analyze": the lemmatiser
 * answers in American spelling, and the idea's own spelling is the base form already.
 */
function spellingVariant(written: string, lemma: string): boolean {
  if (written.length !== lemma.length || written.slice(0, -3) !== lemma.slice(0, -3)) return false;
  for (let i = written.length - 3; i < written.length; i++)
    if (written[i] !== lemma[i] && !(/[szc]/.test(written[i]!) && /[szc]/.test(lemma[i]!)))
      return false;
  return true;
}
