/**
 * Deterministic text helpers for the offline engine: a stable hash for seeded choices, and the
 * English forms the documents need (plurals, participles, articles, identifiers). Nothing here
 * uses randomness or the clock, so one idea always reads the same way.
 */
import pluralize from 'pluralize';

/**
 * A 32-bit FNV-1a hash of a string; the only source of variation in the offline engine.
 *
 * @example
 * hashOf('A habit tracker'); // always the same unsigned integer
 */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * One item of a non-empty list, chosen by the hash of a seed.
 *
 * @example
 * pick(['a', 'b', 'c'], 'idea|name'); // the same letter for the same seed
 */
export function pick<T>(items: readonly T[], seed: string): T {
  const item = items[hashOf(seed) % items.length];
  if (item === undefined) throw new Error('pick() needs a non-empty list');
  return item;
}

/** "a", "a and b", "a, b and c". */
export function listing(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter unless the first word looks like a proper noun or acronym. */
export function decapitalize(text: string): string {
  const first = text.split(' ')[0] ?? '';
  if (/^[A-Z][A-Z0-9]/.test(first) || /[a-z][A-Z]/.test(first)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** At most `max` characters, cut at a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** `search Confluence wiki` → `search_confluence_wiki`. */
export function snake(text: string, maxWords = 3): string {
  return ascii(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, maxWords)
    .join('_');
}

/** `Shift swap` → `shift-swap`. */
export function kebab(text: string, maxWords = 3): string {
  return snake(text, maxWords).replace(/_/g, '-');
}

/** `shift request` → `ShiftRequest`. */
export function pascal(text: string): string {
  return ascii(text)
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => capitalize(word))
    .join('');
}

/** `für` → `fur`: identifiers stay ASCII. */
function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * Nouns with no plural, beyond those pluralize knows ("advice", "equipment"): the ones ideas
 * name as amounts ("cloud spend", "overtime") or fields ("analytics", "fitness").
 */
const UNCOUNTABLE = new Set(
  `overtime feedback information data metadata money time beta advice equipment furniture homework
  research knowledge traffic weather music food water software hardware evidence progress luggage mail
  news weight fitness health inventory content media staff spend revenue analytics shopping income
  expenditure`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Where software English or pluralize's rules go wrong: "indexes" of a table, not "indices";
 * "viruses", not "viri"; "canvas" and "lens" are singular already.
 */
const IRREGULAR: Readonly<Record<string, string>> = {
  index: 'indexes',
  schema: 'schemas',
  virus: 'viruses',
  focus: 'focuses',
  cookie: 'cookies',
  rookie: 'rookies',
  canvas: 'canvases',
  lens: 'lenses',
  bias: 'biases',
};
const IRREGULAR_SINGULAR: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(IRREGULAR).map(([one, many]) => [many, one]),
);

/** Acronyms take a lower-case ending: "APIs", "IDs", "OSes" (pluralize would write "APIS"). */
const ACRONYM = /^[A-Z][A-Z0-9]+$/;
const acronymPlural = (noun: string) => (/[SXZ]$/.test(noun) ? `${noun}es` : `${noun}s`);

/** Applies a form to the head (last word) of a noun phrase: "vaccine reminders" → "vaccine reminder". */
function head(phrase: string, form: (noun: string) => string): string {
  const at = phrase.lastIndexOf(' ') + 1;
  return phrase.slice(0, at) + form(phrase.slice(at));
}

/** Keeps the case of the word it replaces: "Indexes" for "Index". */
const sameCase = (word: string, form: string) =>
  /^[A-Z]/.test(word) ? form.charAt(0).toUpperCase() + form.slice(1) : form;

/**
 * Whether a noun (phrase) has no plural: "advice", "cloud spend".
 *
 * @example
 * uncountable('cloud spend'); // true
 */
export function uncountable(word: string): boolean {
  const last = (word.split(' ').pop() ?? word).toLowerCase();
  return UNCOUNTABLE.has(last) || (pluralize.isSingular(last) && pluralize.isPlural(last));
}

/**
 * English singular of a plural noun or noun phrase, its head noun inflected; short words,
 * uncountable nouns and singulars stay as they are.
 *
 * @example
 * singular('movies'); // 'movie'
 * singular('vaccine reminders'); // 'vaccine reminder'
 */
export function singular(word: string): string {
  return head(word, (noun) => {
    const lower = noun.toLowerCase();
    if (lower.length <= 3 || uncountable(lower) || lower in IRREGULAR) return noun;
    const irregular = IRREGULAR_SINGULAR[lower];
    if (irregular) return sameCase(noun, irregular);
    if (/^[A-Z][A-Z0-9]+s$/.test(noun)) return noun.slice(0, -1);
    return pluralize.singular(noun);
  });
}

/**
 * English plural of a singular noun or noun phrase, its head noun inflected (uncountable
 * nouns stay as they are).
 *
 * @example
 * plural('category'); // 'categories'
 * plural('cloud spend'); // 'cloud spend'
 */
export function plural(word: string): string {
  return head(word, (noun) => {
    const lower = noun.toLowerCase();
    if (uncountable(lower)) return noun;
    const irregular = IRREGULAR[lower];
    if (irregular) return sameCase(noun, irregular);
    if (ACRONYM.test(noun)) return acronymPlural(noun);
    return pluralize.plural(noun);
  });
}

/** Irregular verbs: third person singular is regular for all of them; the participle is not. */
const PARTICIPLES: Record<string, string> = {
  send: 'sent',
  keep: 'kept',
  set: 'set',
  sell: 'sold',
  find: 'found',
  build: 'built',
  run: 'run',
  read: 'read',
  write: 'written',
  make: 'made',
  pay: 'paid',
  split: 'split',
  put: 'put',
  take: 'taken',
  give: 'given',
  hold: 'held',
  bring: 'brought',
  buy: 'bought',
  lend: 'lent',
  spend: 'spent',
  teach: 'taught',
  choose: 'chosen',
  draw: 'drawn',
  feed: 'fed',
  hide: 'hidden',
  know: 'known',
  leave: 'left',
  lose: 'lost',
  meet: 'met',
  say: 'said',
  see: 'seen',
  show: 'shown',
  tell: 'told',
  win: 'won',
  get: 'received',
  do: 'done',
  go: 'gone',
};

/** A short verb that doubles its last consonant: "log" → "logged", "plan" → "planning". */
const doubles = (verb: string) => /^[^aeiou]+[aeiou][bdgklmnprt]$/.test(verb);

/** Applies a form to the first word of a verb phrase: "check in" → "checks in". */
function firstWord(phrase: string, form: (verb: string) => string): string {
  const [first = '', ...rest] = phrase.split(' ');
  return [form(first.toLowerCase()), ...rest].join(' ');
}

/**
 * The third person singular of a verb phrase.
 *
 * @example
 * thirdPerson('search'); // 'searches'
 */
export function thirdPerson(verb: string): string {
  return firstWord(verb, (v) => {
    if (v === 'have') return 'has';
    if (/(?:s|x|z|ch|sh|o)$/.test(v)) return `${v}es`;
    if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ies`;
    return `${v}s`;
  });
}

/**
 * The past participle of a verb phrase.
 *
 * @example
 * participle('log'); // 'logged'
 */
export function participle(verb: string): string {
  return firstWord(verb, (v) => {
    if (PARTICIPLES[v]) return PARTICIPLES[v];
    if (v.endsWith('e')) return `${v}d`;
    if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`;
    if (doubles(v)) return `${v}${v.slice(-1)}ed`;
    return `${v}ed`;
  });
}

/**
 * The -ing form of a verb phrase: "swap shifts" → "swapping shifts".
 *
 * @example
 * gerund('schedule appointments'); // 'scheduling appointments'
 */
export function gerund(phrase: string): string {
  const capital = /^[A-Z]/.test(phrase);
  const ing = (v: string) => {
    if (v.endsWith('ie')) return `${v.slice(0, -2)}ying`;
    if (/[^e]e$/.test(v) && v !== 'be') return `${v.slice(0, -1)}ing`;
    if (doubles(v)) return `${v}${v.slice(-1)}ing`;
    return `${v}ing`;
  };
  let done = firstWord(phrase, ing);
  // "view and search reports": both verbs of a pair.
  const words = done.split(' ');
  if (words[1] === 'and' && words[2] && words.length > 3) {
    words[2] = ing(words[2].toLowerCase());
    done = words.join(' ');
  }
  return capital ? capitalize(done) : done;
}

/** "a" or "an" before a phrase ("an MCP server", "a web application"). */
export function article(phrase: string): string {
  const vowel = /^[aeio]/i.test(phrase) || /^u(?!s|ni|b|r|t)/i.test(phrase);
  const acronym = /^(?:MCP|API|SQL|SDK|HTML|FAQ|[FHLMNRSX](?:[A-Z]|\b))/.test(phrase);
  return vowel || acronym ? 'an' : 'a';
}
