/**
 * The way back from inert text (user-text.ts) to the words a reader sees, for fields that are
 * plain text in JSON, and a map over every string of a JSON-like value (a definition).
 */

/** A script scheme's colon as `defang` wrote it: `javascript&#58;`. */
const DEFANGED_SCHEME = /(javascript|vbscript|livescript|data)(\s*)&#58;/gi;

/** The hyphen of an ID escaped by {@link inertText}: `US\\-1`, `FR\\-2.1`. */
const ESCAPED_ID_HYPHEN = /(?<=\b(?:FR|NFR|US|G|A|Q|R|T))\\-(?=\d)/g;

/**
 * The words a reader sees of text {@link inertText} made safe for a document, for a field
 * that is plain text (a project's name or description in JSON, where the console and every
 * client show it as text): `&lt;` back to `<` and an escaped ID back to `US-1`. Making it
 * inert again gives the same inert text, so a document written from it does not change.
 *
 * @example
 * plainText(inertText('Visas for T-1 <holders>')); // 'Visas for T-1 <holders>'
 */
export function plainText(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replace(ESCAPED_ID_HYPHEN, '-')
    .replace(DEFANGED_SCHEME, '$1$2:');
}

/**
 * Every string of a JSON-like value passed through `map` (objects and arrays rebuilt, other
 * values kept): how a whole definition is made inert for a document, or plain for JSON.
 *
 * @example
 * mapStrings({ name: 'T-1', tags: ['<b>'] }, inertText); // { name: 'T\\-1', tags: ['&lt;b>'] }
 */
export function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]),
    ) as T;
  }
  return value;
}
