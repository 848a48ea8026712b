/**
 * User text (a title, a path, a note: words a person or a model wrote) written into markdown
 * with string rules only, for what the SDK bundles and so cannot parse markdown with mdast
 * (documents use `document/user-text.ts`, which does). What the text holds reaches a reader
 * as the same words: no emphasis, link, tag, heading or list of its own, and no ID (`FR-3`
 * is written `FR\-3`, as the documents write an ID of user text).
 */
import { ID_PATTERN } from './document/ids.ts';

/** Any line break, which a one-line place (a heading, a list item) cannot hold. */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/** Characters that open or close inline markup anywhere (`_` is handled on its own). */
const INLINE_SPECIAL = /[\\`*~[\]<]/;

/**
 * Inline code holding `text` as written: a fence of one more backtick than the longest run
 * in the text, padded with a space when the text starts or ends with a backtick or a space
 * (CommonMark strips one space each side); a line break becomes the space code shows anyway.
 *
 * @example
 * inlineCode('a`b'); // '``a`b``'
 * inlineCode('`x`'); // '`` `x` ``'
 */
export function inlineCode(text: string): string {
  const code = text.replace(LINE_BREAK, ' ');
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(code) && code.trim() !== '' ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** An `_` can only emphasise when a letter or digit is not on both sides of it. */
const isIntraword = (text: string, at: number) =>
  /[A-Za-z0-9]/.test(text[at - 1] ?? '') && /[A-Za-z0-9]/.test(text[at + 1] ?? '');

/**
 * One line of plain text as markdown that reads back as the same text, wherever a line of
 * inline content goes (a heading, a list item, a paragraph): line breaks become spaces and
 * the ends are trimmed (markdown drops them), markup characters are escaped, and so is what
 * would start a block (`#`, `>`, `-`, `+`, `1.`), close a heading (a final ` #`) or become a
 * link of its own (`https:`, `www.`, `a@b.c`). An ID in it is escaped (`FR\-3`), so it is
 * read as text, never followed. Text with none of these is written unchanged.
 *
 * @example
 * inlineText('Use *bold* [x](y) for FR-3'); // 'Use \\*bold\\* \\[x\\](y) for FR\\-3'
 */
export function inlineText(text: string): string {
  const line = text.replace(LINE_BREAK, ' ').trim();
  let out = '';
  for (let at = 0; at < line.length; at++) {
    const c = line[at] as string;
    out += (c === '_' && !isIntraword(line, at)) || INLINE_SPECIAL.test(c) ? `\\${c}` : c;
  }
  out = out
    // An entity would be decoded (`&amp;` read as `&`).
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    // A block a line could open, and the closing sequence of a heading.
    .replace(/^[#>+-]/, (c) => `\\${c}`)
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/(\s)(#+)$/, '$1\\$2')
    // A GFM literal autolink (`https://…`, `www.…`, an e-mail address) is a link.
    .replace(/\b(https?):/gi, '$1\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/(?<=[\w.+-])@(?=\w)/g, '\\@');
  return out.replace(ID_PATTERN, (id) => id.replace('-', '\\-'));
}
