/**
 * Deterministic text helpers for the offline engine: a stable hash, seeded choices and a
 * small reading of an idea (its product, audience, purpose, actions and nouns). Nothing
 * here uses randomness or the clock, so one idea always reads the same way.
 */

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

/** The list in an order decided by the seed (a deterministic shuffle). */
export function shuffled<T>(items: readonly T[], seed: string): T[] {
  return items
    .map((item, index) => ({ item, key: hashOf(`${seed}#${index}`) }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.item);
}

/** A number in [min, max] chosen by the seed. */
export function between(min: number, max: number, seed: string): number {
  return min + (hashOf(seed) % (max - min + 1));
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

/** Whitespace collapsed and characters that would break markdown tables or templates softened. */
export function clean(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[|{}<>`]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
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

/** English singular of a plural noun, good enough for the nouns ideas use. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 3 || /(ss|us|is)$/.test(lower)) return word;
  if (/ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zes)$/.test(lower)) return word.slice(0, -2);
  if (/s$/.test(lower)) return word.slice(0, -1);
  return word;
}

const UNCOUNTABLE = new Set(
  `overtime feedback information data money time beta advice equipment furniture homework research knowledge
  traffic weather music food water software hardware evidence progress luggage mail news weight fitness health
  inventory content media staff`
    .split(/\s+/)
    .filter(Boolean),
);

/** English plural of a singular noun (uncountable nouns stay as they are). */
export function plural(word: string): string {
  const lower = word.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return word;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${word}es`;
  if (/[^aeiou]y$/.test(lower)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** Verbs an idea's actions usually start with (base forms). */
export const VERBS = new Set(
  `track log share swap schedule book plan remind sync manage find search compare rate review split pay
  invite export import record monitor analyse analyze visualise visualize notify chat discuss vote collect
  organize organise build create edit publish post learn practice practise teach sell buy order deliver
  match recommend discover celebrate coordinate assign approve request report query summarize summarise
  generate translate scan upload download store browse list read write update delete claim reserve rent lend
  borrow donate meet connect message map measure estimate forecast budget save check verify audit test deploy
  run fetch answer ask draft triage label tag file bookmark follow subscribe stream watch listen play cook
  train exercise journal reflect prepare study hire onboard invoice bill sign capture photograph detect
  identify alert compute calculate convert reconcile automate annotate curate improve reduce manage host
  publish edit design sketch arrange rank score grade mark cancel renew refill remember note time count
  inspect recycle exchange trade swap donate volunteer mentor coach explain inspect open close get`
    .split(/\s+/)
    .filter(Boolean),
);

/** "swap shifts" → "swapping shifts"; phrases that do not start with a verb stay. */
export function gerund(phrase: string): string {
  const [first = '', ...rest] = phrase.split(' ');
  const lower = first.toLowerCase();
  if (!VERBS.has(lower)) return phrase;
  let ing: string;
  if (/[^e]e$/.test(lower)) ing = `${lower.slice(0, -1)}ing`;
  else if (
    lower.length <= 4 &&
    /^[^aeiou]/.test(lower) &&
    /[^aeiou][aeiou][^aeiouwxy]$/.test(lower)
  )
    ing = `${lower}${lower.slice(-1)}ing`;
  else ing = `${lower}ing`;
  const word = first === lower ? ing : capitalize(ing);
  return [word, ...rest].join(' ');
}

/** "a" or "an" before a phrase ("an MCP server", "a web application"). */
export function article(phrase: string): string {
  const vowel = /^[aeio]/i.test(phrase) || /^u(?!s|ni|b|r|t)/i.test(phrase);
  const acronym = /^(?:MCP|API|SQL|SDK|HTML|FAQ|[FHLMNRSX](?:[A-Z]|\b))/.test(phrase);
  return vowel || acronym ? 'an' : 'a';
}
