/**
 * The rule of the contract's single-line text fields (a project's name, a repository's name,
 * an account's or a key's name): no control characters, line breaks or bidirectional
 * formatting characters. Such a field is written into document headings, file names and
 * listings; a line break in it injected markdown into every document (issue 27), and a
 * right-to-left override (U+202E) makes a name read differently from what it is.
 * Multi-line text (an idea, a change request, a file's content) is not held to it.
 */

/**
 * The JSON Schema `pattern` each single-line field carries in `openapi/pgs.openapi.yaml`
 * (a test holds the two equal). It refuses C0 controls (TAB, LF and CR included), DEL and
 * C1 controls (NEL included), the Unicode line and paragraph separators (U+2028, U+2029),
 * the bidirectional embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069),
 * and the invisible direction marks (U+200E, U+200F, U+061C).
 *
 * @example
 * new RegExp(SINGLE_LINE_PATTERN, 'u').test('Acme\n## Injected'); // false
 */
export const SINGLE_LINE_PATTERN =
  '^[^\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028-\\u202E\\u2066-\\u2069]*$';

/** What a field that breaks {@link SINGLE_LINE_PATTERN} is told, in `details.invalid_fields`. */
export const SINGLE_LINE_RULE =
  'must be one line of text: no control characters (line breaks, tabs) and no bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)';

/**
 * The rule a value that fails a schema `pattern` broke, in words: the single-line rule by
 * name, any other pattern quoted as Ajv says it.
 *
 * @example
 * patternRule(SINGLE_LINE_PATTERN); // 'must be one line of text: …'
 * patternRule('^[0-9a-f]{7,64}$'); // 'must match pattern "^[0-9a-f]{7,64}$"'
 */
export function patternRule(pattern: string): string {
  return pattern === SINGLE_LINE_PATTERN ? SINGLE_LINE_RULE : `must match pattern "${pattern}"`;
}

/**
 * The `format` of a single-line text field (a name, an agent's name): the contract's
 * {@link SINGLE_LINE_PATTERN}, said in two words instead of its 56 tokens, which every
 * agent's context would carry once per field. JSON Schema leaves formats open; both MCP
 * servers check it with `checkArguments` (mcp/arguments.ts), word for word as the API refuses it.
 *
 * @example
 * const agent = { type: 'string', maxLength: 100, format: SINGLE_LINE_FORMAT };
 */
export const SINGLE_LINE_FORMAT = 'single-line';
