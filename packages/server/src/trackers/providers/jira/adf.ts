/**
 * Markdown in, Atlassian Document Format (ADF) out, and back to plain text: Jira's v3 API takes
 * and returns rich text only as ADF documents. The body is read once, by the contract's
 * `parseDocument` (CommonMark + GFM), and its tree mapped to ADF node by node: headings,
 * paragraphs, bullet, ordered and task lists, block quotes, tables, rules, links and code.
 *
 * The item marker is an HTML comment in the markdown (`itemMarker`), which ADF has no node
 * for: it is carried as a last paragraph of plain text (`pgs:project=… item=…`), which
 * `readMarker` matches without the comment's delimiters. A paragraph's line endings become
 * hard breaks: PGS writes `**Phase:**` and `**Requirements:**` on lines of their own, as
 * GitHub shows them. Any other HTML (`<adf>` included) is text: nothing in a spec becomes raw
 * ADF.
 */
import { randomUUID } from 'node:crypto';
import { parseDocument } from '@pgs/contract/document';
import type { ListContent, Nodes, PhrasingContent, Table } from 'mdast';

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

/** PGS's item marker as the HTML block it is written as (`itemMarker`). */
const COMMENTED_MARKER = /^<!--\s*(pgs:project=[0-9a-f-]{36} item=(?:T|FR)-\d+)\s*-->$/;

/**
 * The ADF document for a markdown body, read once into its tree; a PGS item marker (an HTML
 * block of its own, never one quoted inside code or text) becomes a last plain-text paragraph.
 *
 * @example markdownToJiraDocument('Build it\n\n<!-- pgs:project=… item=T-3 -->')
 *   // paragraphs "Build it" and "pgs:project=… item=T-3"
 */
export function markdownToJiraDocument(markdown: string): AdfDocument {
  const tree = parseDocument(markdown, { defines: [], components: false });
  const markers: string[] = [];
  const content = tree.children.flatMap((node) => {
    const marker = node.type === 'html' ? COMMENTED_MARKER.exec(node.value.trim())?.[1] : undefined;
    if (marker === undefined) return block(node as Nodes);
    markers.push(marker);
    return [];
  });
  content.push(
    ...markers.map((marker) => ({ type: 'paragraph', content: [{ type: 'text', text: marker }] })),
  );
  // Jira refuses a document without a block; an empty body is one empty paragraph.
  return {
    type: 'doc',
    version: 1,
    content: content.length > 0 ? content : [{ type: 'paragraph', content: [] }],
  };
}

type Mark = NonNullable<AdfNode['marks']>[number];

const paragraphOf = (content: AdfNode[]): AdfNode => ({ type: 'paragraph', content });

function block(node: Nodes): AdfNode[] {
  switch (node.type) {
    case 'paragraph':
      return [paragraphOf(inline(node.children))];
    case 'heading':
      return [{ type: 'heading', attrs: { level: node.depth }, content: inline(node.children) }];
    case 'code':
      return [
        {
          type: 'codeBlock',
          ...(node.lang ? { attrs: { language: node.lang } } : {}),
          content: node.value === '' ? [] : [{ type: 'text', text: node.value }],
        },
      ];
    case 'blockquote':
      return [{ type: 'blockquote', content: node.children.flatMap((child) => block(child)) }];
    case 'list':
      if (node.children.some((item) => typeof itemOf(item).checked === 'boolean'))
        return [
          {
            type: 'taskList',
            attrs: { localId: randomUUID() },
            content: node.children.map(taskItem),
          },
        ];
      return [
        node.ordered
          ? {
              type: 'orderedList',
              attrs: { order: node.start ?? 1 },
              content: node.children.map(listItem),
            }
          : { type: 'bulletList', content: node.children.map(listItem) },
      ];
    case 'table':
      return [tableOf(node)];
    case 'thematicBreak':
      return [{ type: 'rule' }];
    case 'html':
      return node.value.trim() === '' ? [] : [paragraphOf([{ type: 'text', text: node.value }])];
    default:
      // Definitions and footnotes: their blocks, or their text as a paragraph.
      if ('children' in node) return (node.children as Nodes[]).flatMap(blockOrText);
      return [];
  }
}

/** A node where a block is expected: a block as `block` maps it, inline content in a paragraph. */
const blockOrText = (node: Nodes): AdfNode[] =>
  node.type === 'paragraph' || !isPhrasing(node)
    ? block(node)
    : [paragraphOf(inline([node as PhrasingContent]))];

const PHRASING = new Set([
  'text',
  'strong',
  'emphasis',
  'delete',
  'inlineCode',
  'link',
  'break',
  'idRef',
  'html',
  'image',
]);
const isPhrasing = (node: Nodes) => PHRASING.has(node.type);

/** A list's item as it reads: an mdast item, or a PGS definition written as one. */
const itemOf = (item: ListContent) =>
  item as unknown as { checked?: boolean | null; children: Nodes[] };

const listItem = (item: ListContent): AdfNode => ({
  type: 'listItem',
  content: itemOf(item).children.flatMap((child) => block(child)),
});

/** A task item holds inline content only: its first paragraph's (ADF has no blocks there). */
function taskItem(item: ListContent): AdfNode {
  const { checked, children } = itemOf(item);
  const [first] = children;
  return {
    type: 'taskItem',
    attrs: { localId: randomUUID(), state: checked ? 'DONE' : 'TODO' },
    content: first?.type === 'paragraph' ? inline(first.children) : [],
  };
}

function tableOf(node: Table): AdfNode {
  return {
    type: 'table',
    content: node.children.map((row, index) => ({
      type: 'tableRow',
      content: (row.children as Nodes[]).map((cell) => ({
        type: index === 0 ? 'tableHeader' : 'tableCell',
        content: [
          paragraphOf(inline('children' in cell ? (cell.children as PhrasingContent[]) : [])),
        ],
      })),
    })),
  };
}

/** Text with its marks; a line ending in it is a hard break. */
function textOf(value: string, marks: readonly Mark[]): AdfNode[] {
  return value.split('\n').flatMap((line, index) => {
    const pieces: AdfNode[] = index > 0 ? [{ type: 'hardBreak' }] : [];
    if (line !== '')
      pieces.push({ type: 'text', text: line, ...(marks.length > 0 ? { marks: [...marks] } : {}) });
    return pieces;
  });
}

/** Inline content as ADF leaves, neighbours with the same marks joined (an ID cited in text
 *  is a node of its own in the tree, not in ADF). */
function inline(nodes: readonly PhrasingContent[]): AdfNode[] {
  const out: AdfNode[] = [];
  for (const leaf of leaves(nodes)) {
    const last = out.at(-1);
    if (
      last?.type === 'text' &&
      leaf.type === 'text' &&
      JSON.stringify(last.marks) === JSON.stringify(leaf.marks)
    )
      out[out.length - 1] = { ...last, text: `${last.text}${leaf.text}` };
    else out.push(leaf);
  }
  return out;
}

/** Inline content as ADF leaves: text nodes carrying the marks of the spans around them. */
function leaves(nodes: readonly PhrasingContent[], marks: readonly Mark[] = []): AdfNode[] {
  return nodes.flatMap((node): AdfNode[] => {
    switch (node.type) {
      case 'text':
      case 'idRef':
      case 'html':
        return textOf(node.value, marks);
      case 'inlineCode':
        return textOf(node.value.replaceAll('\n', ' '), [...marks, { type: 'code' }]);
      case 'strong':
        return leaves(node.children, [...marks, { type: 'strong' }]);
      case 'emphasis':
        return leaves(node.children, [...marks, { type: 'em' }]);
      case 'delete':
        return leaves(node.children, [...marks, { type: 'strike' }]);
      case 'link':
        return leaves(node.children, [...marks, { type: 'link', attrs: { href: node.url } }]);
      case 'break':
        return [{ type: 'hardBreak' }];
      case 'image':
        return textOf(node.alt ?? node.url, marks);
      default:
        return 'children' in node ? leaves(node.children as PhrasingContent[], marks) : [];
    }
  });
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
