/**
 * Reads an idea the way the offline engine needs it: its product, audience, purpose,
 * actions and nouns. Deterministic: the same words always read the same way.
 */
import { clean, clip, listing, plural, singular, VERBS } from './words.ts';

const STOPWORDS = new Set(
  `a an the and or but nor for to of in on at by with from that which who whom whose this these those
  it its their our my your his her we you they i me us them is are was were be been being can could will
  would should shall may might must do does did lets let helps help allows allow enables enable so as into
  over about all any each every more most some such very just also using use used via where when while what
  how without up down out than then there here own one new like want wants need needs easy easily simple
  simply quickly better across between through together both other others only even much many few get gets
  make makes way ways thing things lot lots kind stuff per around within whether if not no yes else`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that name the kind of product rather than its subject. */
const GENERIC = new Set(
  `app apps application applications tool tools platform platforms website websites site sites web webapp
  service services system systems software server servers mcp dashboard portal saas solution solutions
  product products mobile iphone ipad android ios phone phones smartphone model context protocol claude
  chatgpt cursor copilot assistant assistants agent agents llm ai api apis interface database data
  people person users user everyone someone anyone marketplace directory network community hub exchange
  catalogue catalog library`
    .split(/\s+/)
    .filter(Boolean),
);

/** Adjectives ideas use often; they describe nouns but are not entities. */
const ADJECTIVES = new Set(
  `local remote weekly daily monthly yearly annual small big large personal shared public private online
  social smart free best real good different several favourite favorite busy independent early whole quick
  fast open global internal external short long first last next simple modern healthy green nearby`
    .split(/\s+/)
    .filter(Boolean),
);

const CONNECTOR = new Set(['to', 'and', 'or', 'that', 'which', 'who', 'can', 'then', '']);
const ENABLERS = new Set(['lets', 'let', 'helps', 'help', 'allows', 'enables', 'enable', 'makes']);
const PHRASE_END = new Set([
  'and',
  'or',
  'to',
  'for',
  'with',
  'that',
  'which',
  'who',
  'so',
  'while',
  'when',
  'where',
  'by',
  'from',
  'without',
  'using',
  'via',
  'in',
  'on',
  'at',
  'across',
  'into',
  'then',
  'but',
]);
const DETERMINERS = new Set(['a', 'an', 'the', 'our', 'their', 'my', 'your', 'his', 'her', 'its']);
const ASSISTANTS = /\b(Claude|ChatGPT|Cursor|Copilot|Gemini|Windsurf)\b/;

interface Token {
  word: string;
  lower: string;
  /** Punctuation ends a phrase before this token. */
  boundary: boolean;
  /** That punctuation was a comma (a list may continue). */
  comma: boolean;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let boundary = true;
  let comma = false;
  for (const match of text.matchAll(/\p{L}[\p{L}\p{N}'+#@/-]*|[.,;:!?()]/gu)) {
    const word = match[0];
    if (/^[.,;:!?()]$/.test(word)) {
      comma = !boundary && word === ',';
      boundary = true;
      continue;
    }
    const trimmed = word.replace(/['/-]+$/, '').replace(/'s$/, '');
    tokens.push({
      word: trimmed,
      lower: trimmed.toLowerCase(),
      boundary,
      comma: boundary && comma,
    });
    boundary = false;
    comma = false;
  }
  return tokens;
}

/** What the offline engine reads out of an idea. */
export interface IdeaReading {
  /** The idea on one line, softened for markdown. */
  text: string;
  /** The product the idea names: "habit tracker", "iPhone app". */
  product: string;
  /** "for remote teams" → "remote teams"; undefined when the idea names no one. */
  audience: string | undefined;
  /** What the product lets its users do: "swap shifts and track overtime". */
  purpose: string | undefined;
  /** Verb phrases from the idea: "swap shifts", "search Confluence wiki". */
  actions: string[];
  /** Content nouns, in order of appearance, singular and lower-case unless proper. */
  nouns: string[];
  /** Content words of the idea as written (for mentioning the idea's own words). */
  keywords: string[];
  /** The AI assistant the idea names, if any. */
  assistant: string | undefined;
}

function firstSentence(text: string): string {
  const match = /^(.{20,}?[.!?])(\s|$)/.exec(text);
  return (match?.[1] ?? text).replace(/[.!?]+$/, '');
}

/** "tracks" → "track", "searches" → "search"; base forms stay. */
function baseVerb(word: string): string {
  if (VERBS.has(word)) return word;
  if (word.endsWith('es') && VERBS.has(word.slice(0, -2))) return word.slice(0, -2);
  if (word.endsWith('s') && VERBS.has(word.slice(0, -1))) return word.slice(0, -1);
  return word;
}

function isVerbAt(tokens: Token[], i: number): boolean {
  const token = tokens[i];
  if (!token) return false;
  const prev = tokens[i - 1];
  const prevPrev = tokens[i - 2];
  const next = tokens[i + 1];
  const base = baseVerb(token.lower);
  if (!VERBS.has(base)) return false;
  if (base !== token.lower)
    return prev !== undefined && ['that', 'which', 'who', 'it', 'and'].includes(prev.lower);
  // After a comma, a verb continues a list of actions ("share inventory, coordinate events").
  if (token.boundary && i > 0)
    return (
      token.comma && tokens.slice(0, i).some((_, j) => !tokens[j]!.boundary && isVerbAt(tokens, j))
    );
  if (!prev) return true;
  if (CONNECTOR.has(prev.lower) || ENABLERS.has(prev.lower)) return true;
  if (prevPrev !== undefined && ENABLERS.has(prevPrev.lower)) return true;
  // "farmers sell vegetables": a plural subject right before the verb and an object after it.
  const pluralSubject =
    /[^s]s$/.test(prev.lower) && !STOPWORDS.has(prev.lower) && !VERBS.has(baseVerb(prev.lower));
  return pluralSubject && next !== undefined && !STOPWORDS.has(next.lower) && !next.boundary;
}

function readActions(tokens: Token[]): string[] {
  const actions: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!isVerbAt(tokens, i)) continue;
    const verbWord = baseVerb(tokens[i]!.lower);
    const object: string[] = [];
    for (let j = i + 1; j < tokens.length && object.length < 3; j++) {
      const next = tokens[j]!;
      if (next.boundary || PHRASE_END.has(next.lower)) break;
      if (DETERMINERS.has(next.lower)) continue;
      if (STOPWORDS.has(next.lower)) break;
      object.push(next.word);
    }
    if (object.length === 0) continue;
    actions.push(`${verbWord} ${object.join(' ')}`);
  }
  return [...new Set(actions)];
}

/** "for AI assistants", "for Claude": the client of an MCP server, not its audience. */
const AI_CLIENT =
  /\b(ai|assistants?|llms?|claude|chatgpt|cursor|copilot|gemini)\b|^(agents?|models?)$/i;

const NOT_AUDIENCE =
  /^(free|fun|example|instance|now|later|good|ever|sale|rent|hire|life|everyone|anyone|all)$/i;

/** Plural nouns for people and groups of people that no suffix rule catches. */
const PEOPLE = new Set(
  `people folks teams team staff crew crews families family friends parents children kids couples users
  customers clients members students nurses doctors patients owners adults seniors elderly athletes chefs
  cooks fans moms dads mums households communities groups clubs organisations organizations businesses
  companies startups agencies shops stores schools clinics hospitals charities nonprofits colleagues
  neighbours neighbors roommates flatmates residents tenants guests hosts beginners experts professionals
  creatives pros artists nomads retirees veterans caregivers carers homeowners landlords learners
  graduates candidates advocates delegates associates`
    .split(/\s+/)
    .filter(Boolean),
);

/** Plural nouns whose suffix looks like a person's ("-ers", "-ents") but that name things. */
const THINGS = new Set(
  `events payments documents components containers servers orders folders papers letters computers
  browsers markers printers filters clusters numbers parameters chapters posters stickers calls meetings
  vegetables records headers layers trackers reminders timers counters sensors monitors
  elements moments comments assignments appointments departments environments investments apartments
  statements segments shipments settlements plants variants grants`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Whether a phrase names people ("elderly parents", "small clinics") rather than a thing
 * ("video calls", "Kubernetes"), judged by its last word.
 *
 * @example
 * namesPeople('remote teams'); // true
 */
export function namesPeople(phrase: string): boolean {
  const last = (phrase.trim().split(/\s+/).pop() ?? '').toLowerCase();
  if (PEOPLE.has(last)) return true;
  if (THINGS.has(last)) return false;
  return /(ers|ors|ists|ians|ants|ents|eers|ees|esses|ives|men)$/.test(last);
}

function readAudience(sentence: string): string | undefined {
  for (const match of sentence.matchAll(
    /\bfor\s+([A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,5}?)(?=\s+(?:to|that|which|with|so|by|in|on|at|across|while|where|and|who)\b|\s*[,.;:!?()]|\s*$)/gi,
  )) {
    let phrase = (match[1] ?? '').trim().replace(/^(the|a|an|our|their|my|your)\s+/i, '');
    const first = phrase.split(/\s+/)[0] ?? '';
    if (
      !phrase ||
      /ing$/i.test(first) ||
      /ing$/i.test(phrase) ||
      NOT_AUDIENCE.test(first) ||
      AI_CLIENT.test(phrase) ||
      !namesPeople(phrase)
    )
      continue;
    const rest = sentence.slice((match.index ?? 0) + match[0].length);
    const who = /^\s+(who\s+[^,.;:!?]{3,60})/.exec(rest);
    if (who?.[1]) phrase = `${phrase} ${who[1].trim()}`;
    return phrase;
  }
  // "where local farmers sell …", "helps small clinics plan …": the subject of the idea's action.
  const subject =
    /\b(?:where|lets|helps|so)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*[^s\s]s)\s+([a-z]+)/.exec(
      sentence,
    );
  if (subject?.[1] && subject[2] && VERBS.has(baseVerb(subject[2])) && namesPeople(subject[1]))
    return subject[1];
  return undefined;
}

/** From the first action verb to the end of its clause, in the infinitive: "swap shifts and track overtime". */
function readPurpose(tokens: Token[], actions: readonly string[]): string | undefined {
  const start = tokens.findIndex((_, i) => isVerbAt(tokens, i));
  if (start !== -1) {
    const words: string[] = [];
    for (let i = start; i < tokens.length && words.length < 18; i++) {
      const token = tokens[i]!;
      if (i > start && token.boundary) break;
      words.push(i === start ? baseVerb(token.lower) : token.word);
    }
    const purpose = words
      .join(' ')
      .replace(/\bour\b/gi, 'their')
      .replace(/\bmy\b/gi, 'their')
      .replace(/\bwe\b/gi, 'they')
      .replace(/\bus\b/g, 'them');
    if (words.length >= 2) return purpose;
  }
  return actions.length > 0 ? listing(actions.slice(0, 3)) : undefined;
}

/** "tracker" → "track", "planner" → "plan", "scheduler" → "schedule". */
function agentVerb(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (!/(er|or)$/.test(lower)) return undefined;
  const stem = lower.slice(0, -2);
  for (const candidate of [stem, `${stem}e`, stem.slice(0, -1), lower.slice(0, -1)]) {
    if (VERBS.has(candidate)) return candidate;
  }
  return undefined;
}

function readProduct(tokens: Token[]): string {
  const words: string[] = [];
  let start = 0;
  while (
    tokens[start] &&
    (DETERMINERS.has(tokens[start]!.lower) || tokens[start]!.lower === 'build')
  )
    start++;
  for (let i = start; i < tokens.length && words.length < 4; i++) {
    const token = tokens[i]!;
    if (i > start && token.boundary) break;
    if (PHRASE_END.has(token.lower) || (STOPWORDS.has(token.lower) && words.length > 0)) break;
    if (STOPWORDS.has(token.lower)) continue;
    words.push(token.word);
  }
  return words.join(' ') || 'product';
}

/**
 * Reads an idea: product, audience, purpose, actions and nouns.
 *
 * @example
 * readIdea('An iPhone app for nurses to swap shifts').audience; // 'nurses'
 */
export function readIdea(idea: string): IdeaReading {
  const text = clean(idea);
  const sentence = clip(firstSentence(text), 400);
  const tokens = tokenize(text.slice(0, 1500));
  const headTokens = tokenize(sentence);
  const product = readProduct(headTokens);
  const productWords = product.split(' ');
  const head = productWords[productWords.length - 1] ?? '';
  const actions = readActions(tokens);
  const verbFromProduct = productWords.length > 1 ? agentVerb(head) : undefined;
  if (verbFromProduct)
    actions.unshift(
      `${verbFromProduct} ${plural(productWords.slice(0, -1).join(' ').toLowerCase())}`,
    );
  const audience = readAudience(sentence);
  const assistant = ASSISTANTS.exec(text)?.[1];
  const audienceWords = new Set((audience ?? '').toLowerCase().split(/\s+/));
  const nouns: string[] = [];
  const keywords: string[] = [];
  for (const [i, token] of tokens.entries()) {
    if (STOPWORDS.has(token.lower) || token.lower.length < 3) continue;
    if (!keywords.includes(token.word)) keywords.push(token.word);
    if (GENERIC.has(token.lower) || ADJECTIVES.has(token.lower) || audienceWords.has(token.lower))
      continue;
    if (isVerbAt(tokens, i) || (token.lower === head.toLowerCase() && productWords.length > 1))
      continue;
    if (/(ly|ing|ed|ful|ous|ive|able)$/.test(token.lower)) continue;
    const proper = /^[A-Z]/.test(token.word) && !token.boundary && i > 0;
    const noun = proper ? token.word : singular(token.lower);
    if (!nouns.includes(noun)) nouns.push(noun);
  }
  return {
    text,
    product,
    audience,
    purpose: readPurpose(headTokens, actions),
    actions: [...new Set(actions)].slice(0, 6),
    nouns: nouns.slice(0, 12),
    keywords: keywords.slice(0, 24),
    assistant,
  };
}
