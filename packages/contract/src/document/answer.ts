/**
 * A model's answer read as the document it holds: a model that wraps the whole document in a
 * ```` ```markdown ```` fence answers with a root that is one code node, and the document is
 * that node's value. Read from a CommonMark + GFM parse, as every document is (`parse.ts`),
 * so a fence inside the document is told from the one around it.
 */
import type { Code, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

const blocksOf = (markdown: string): RootContent[] =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }).children;

/** A fenced code block that says it holds markdown (`markdown`, `md`, or no language at all). */
function wrapper(node: RootContent | undefined, bare: boolean): node is Code {
  if (node?.type !== 'code' || node.position?.start.offset !== 0) return false;
  const lang = node.lang?.toLowerCase();
  return lang === 'markdown' || lang === 'md' || (bare && lang === undefined);
}

/** The text without its first line (the wrapper's opening fence) and, if asked, its last. */
function inside(text: string, closed: boolean): string {
  const start = text.indexOf('\n') + 1;
  const end = closed ? text.lastIndexOf('\n') : text.length;
  return start === 0 || end < start ? '' : text.slice(start, end);
}

/** Whether a text opens with a code fence (the only start a wrapper has). */
const opensWithFence = (text: string) => /^(?:`{3,}|~{3,})/.test(text);

/** Whether a text's last line is a bare closing fence. */
const closesWithFence = (text: string) => /\n(?:`{3,}|~{3,})[ \t]*$/.test(text);

/**
 * The document a model's answer holds, trimmed: the answer itself, or, when the whole answer
 * is one fenced code block of markdown (or of no language), that block's content. A document
 * with fences of its own closes a wrapper of as many backticks early; a ```` ```markdown ````
 * wrapper whose answer still ends with a closing fence is then read between its two fences.
 *
 * @example
 * answerDocument('```markdown\n# Plan\n\nText\n```'); // '# Plan\n\nText'
 */
export function answerDocument(answer: string): string {
  const trimmed = answer.trim();
  // Only an answer that opens with a fence can be wrapped in one: the rest are not parsed,
  // which was a whole parse of every document a generation writes.
  if (!opensWithFence(trimmed)) return trimmed;
  const [first, ...rest] = blocksOf(trimmed);
  if (!wrapper(first, true)) return trimmed;
  if (rest.length === 0) return first.value.trim();
  if (wrapper(first, false) && closesWithFence(trimmed)) return inside(trimmed, true).trim();
  return trimmed;
}

/**
 * An answer cut by the output limit and its continuation as one document: the continuation
 * starts where the answer stopped (mid-line, possibly), so it is joined as written, a
 * wrapper's opening fence it repeats dropped, and the whole read by {@link answerDocument}.
 *
 * @example
 * continuedDocument('```markdown\n# Plan\n\nTe', 'xt\n```'); // '# Plan\n\nText'
 */
export function continuedDocument(answer: string, continuation: string): string {
  const opened = wrapper(blocksOf(answer.trimStart())[0], true);
  const repeats = wrapper(blocksOf(continuation)[0], opened);
  return answerDocument(`${answer}${repeats ? inside(continuation, false) : continuation}`);
}
