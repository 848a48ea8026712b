/**
 * Token counts (o200k, the encoding of OpenAI's current models) that stay linear in the
 * length of any text. gpt-tokenizer's byte-pair merge is quadratic in the length of one run
 * without a break (16,384 × "é" took 3 s, a 256 KB file of it over a minute), and a
 * repository digest is text a user sends: counted whole, one such file would stall the
 * process. Long texts are counted in pieces cut before a space that ends a word (where the encoder's own
 * pre-split cuts anyway, so ordinary text counts the same); a piece with no whitespace in
 * its last quarter is cut at its length, which may add a token at the cut.
 */
import { countTokens as countWhole } from 'gpt-tokenizer/encoding/o200k_base';

/** Characters counted at once. */
const PIECE = 2_048;

/**
 * The o200k token count of a text, in linear time.
 *
 * @example
 * countTokens('Hello, world'); // 3
 */
export function countTokens(text: string): number {
  if (text.length <= PIECE) return countWhole(text);
  let total = 0;
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + PIECE, text.length);
    if (end < text.length) {
      const space = lastWhitespace(text, at + (PIECE * 3) / 4, end);
      if (space > at) end = space;
    }
    total += countWhole(text.slice(at, end));
    at = end;
  }
  return total;
}

const isWhitespace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;
const isWordEnd = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;

/**
 * Where to cut in [from, to): before a space that follows a letter or digit (the encoder
 * ends a word there and starts the next token with the space), else at the start of the
 * last run of whitespace, else -1.
 */
function lastWhitespace(text: string, from: number, to: number): number {
  for (let i = to - 1; i > from; i--) {
    if (text.charCodeAt(i) === 32 && isWordEnd(text.charCodeAt(i - 1))) return i;
  }
  for (let i = to - 1; i >= from; i--) {
    if (!isWhitespace(text.charCodeAt(i))) continue;
    while (i > from && isWhitespace(text.charCodeAt(i - 1))) i--;
    return i;
  }
  return -1;
}
