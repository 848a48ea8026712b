/**
 * Markdown in, Atlassian Document Format (ADF) out, and back to plain text: Jira's v3 API takes
 * and returns rich text only as ADF documents. The conversion is marklassian's (headings,
 * paragraphs, bullet and task lists, links, code); this file adds what PGS needs around it.
 *
 * The item marker is an HTML comment in the markdown (`itemMarker`), which ADF has no node
 * for and marklassian drops: it is carried as a last paragraph of plain text
 * (`pgs:project=… item=…`), which `readMarker` matches without the comment's delimiters.
 *
 * Two things are prepared before marklassian reads the markdown. Line breaks inside a
 * paragraph become hard breaks: PGS writes `**Phase:**` and `**Requirements:**` on lines of
 * their own, as GitHub shows them, and marklassian would run them together. And `<adf>` is
 * escaped: marklassian embeds the JSON inside an `<adf>` block as raw ADF, which text from a
 * spec must not be able to do (nor make the conversion throw on bad JSON).
 */
import { markdownToAdf } from 'marklassian';

/** An ADF node, as far as PGS reads one: a type, text on leaves, children on blocks. */
export interface AdfNode {
  type: string;
  text?: string;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

/** An ADF document (`{ type: 'doc', version: 1, content }`). */
export interface AdfDocument extends AdfNode {
  type: 'doc';
  version: 1;
  content: AdfNode[];
}

const COMMENTED_MARKER = /<!--\s*(pgs:project=[0-9a-f-]{36} item=(?:T|FR)-\d+)\s*-->/g;

/**
 * The ADF document for a markdown body; a PGS item marker becomes a plain-text paragraph.
 *
 * @example markdownToJiraDocument('Build it\n\n<!-- pgs:project=… item=T-3 -->')
 *   // paragraphs "Build it" and "pgs:project=… item=T-3"
 */
export function markdownToJiraDocument(markdown: string): AdfDocument {
  const markers = [...markdown.matchAll(COMMENTED_MARKER)].map((found) => found[1]!);
  const text = prepare(markdown.replace(COMMENTED_MARKER, ''));
  const content = [
    ...convert(text),
    ...markers.map((marker) => ({ type: 'paragraph', content: [{ type: 'text', text: marker }] })),
  ];
  // Jira refuses a document without a block; an empty body is one empty paragraph.
  return {
    type: 'doc',
    version: 1,
    content: content.length > 0 ? content : [{ type: 'paragraph', content: [] }],
  };
}

/** marklassian's blocks, or, should it ever throw, the text as plain paragraphs: a body that
 *  reads plainly beats an item that fails. */
function convert(markdown: string): AdfNode[] {
  try {
    return (markdownToAdf(markdown) as AdfDocument).content ?? [];
  } catch {
    return markdown
      .split(/\n{2,}/)
      .filter((block) => block.trim() !== '')
      .map((block) => ({ type: 'paragraph', content: [{ type: 'text', text: block.trim() }] }));
  }
}

const FENCE = /^\s{0,3}(?:```|~~~)/;
// Lines that start a block (or are blank): no hard break is added before or after them.
const BLOCK_LINE =
  /^\s*$|^\s{0,3}(?:[-*+]\s|\d+[.)]\s|#{1,6}(?:\s|$)|>|\||<!--|={2,}\s*$|-{2,}\s*$)/;

/** Hard breaks for a paragraph's line breaks, and `<adf>` escaped, outside fenced code. */
function prepare(markdown: string): string {
  const lines = markdown.split('\n');
  let fenced = false;
  return lines
    .map((line, index) => {
      if (FENCE.test(line)) {
        fenced = !fenced;
        return line;
      }
      if (fenced) return line;
      const safe = line.replace(/<(\/?adf)/gi, '\\<$1');
      const next = lines[index + 1];
      const inParagraph =
        next !== undefined && !BLOCK_LINE.test(line) && !BLOCK_LINE.test(next) && !FENCE.test(next);
      return inParagraph ? `${safe.trimEnd()}  ` : safe;
    })
    .join('\n');
}

// Blocks whose children are blocks: their text is joined line by line, so a heading never
// runs into the paragraph after it. Everything else joins its leaves.
const BLOCK_CONTAINERS = new Set([
  'doc',
  'bulletList',
  'orderedList',
  'listItem',
  'taskList',
  'blockquote',
  'panel',
  'table',
  'tableRow',
  'tableCell',
  'tableHeader',
  'expand',
  'nestedExpand',
  'layoutSection',
  'layoutColumn',
  'decisionList',
]);

/**
 * The plain text of an ADF document (or anything Jira put in a rich-text field): one line per
 * block. Unknown shapes give an empty string rather than an error.
 *
 * @example jiraDocumentText({ type: 'doc', version: 1, content: [heading, paragraph] }) // 'Title\nBody'
 */
export function jiraDocumentText(node: unknown): string {
  if (typeof node === 'string') return node;
  if (!node || typeof node !== 'object') return '';
  const { type, text, content } = node as AdfNode;
  if (typeof text === 'string') return text;
  if (type === 'hardBreak') return '\n';
  if (!Array.isArray(content)) return '';
  const parts = content.map(jiraDocumentText);
  return BLOCK_CONTAINERS.has(type) ? parts.join('\n') : parts.join('');
}
