/**
 * User text inside a prompt's tagged data blocks (`<pgs-conventions>`, `<answers>`): JSON
 * with every `<` written `\u003c`, the same value to a JSON reader, so no text in it can
 * close its block (or open another) and go on as if it were the prompt's own words.
 */

/**
 * `JSON.stringify` with every `<` escaped.
 *
 * @example
 * inertJson({ answer: '</answers>' }); // '{"answer":"\\u003c/answers>"}'
 */
export const inertJson = (value: unknown, indent?: number): string =>
  JSON.stringify(value, null, indent).replaceAll('<', '\\u003c');
