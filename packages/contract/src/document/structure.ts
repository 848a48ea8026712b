/**
 * Where definitions are written, found in a parsed tree: an ID defines where it is the first
 * thing of a heading, of a list item, of a table body row's first cell or of a bold run
 * opening a paragraph, in a document that owns its prefix. Each is wrapped in its PGS node
 * (`types.ts`) with its mdast as children; every other mention stays an `idRef`, a citation.
 */
import type { Heading, List, Nodes, Paragraph, Root, Table, TableRow } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { componentNode, definitionNode } from './fields.ts';
import { type IdPrefix, prefixOf } from './ids.ts';
import type { FlowContent, Position } from './types.ts';

export interface StructureOptions {
  /** The prefixes the document may define. */
  owns: ReadonlySet<IdPrefix>;
  /** Whether `###` sections under `## Components` are components (the architecture). */
  components: boolean;
}

interface Scope extends StructureOptions {
  /** The innermost enclosing definition's ID: a bold paragraph repeating it defines nothing new. */
  enclosing: string | undefined;
  /** The text of the last `##` heading of the document's own flow. */
  section: string | undefined;
}

/**
 * The ID a node starts with: its first leaf must be one.
 *
 * @example
 * leadingId(heading(3, cite('FR-2'), ' Reminders')); // 'FR-2'
 */
export function leadingId(node: Nodes): string | undefined {
  let leaf: Nodes = node;
  while ('children' in leaf) {
    const first: Nodes | undefined = leaf.children[0];
    if (!first) return undefined;
    leaf = first;
  }
  return leaf.type === 'idRef' ? leaf.value : undefined;
}

/** From the start of one node to the end of another. */
function span(first: Nodes, last: Nodes | undefined): Position | undefined {
  const start = first.position?.start;
  const end = (last ?? first).position?.end;
  return start && end ? { start, end } : undefined;
}

const defines = (scope: Scope, id: string | undefined): id is string =>
  id !== undefined && scope.owns.has(prefixOf(id));

/** The blocks after a heading that it heads: up to the next heading as high. */
function sectionEnd(children: readonly FlowContent[], start: number, depth: number): number {
  let end = start + 1;
  while (end < children.length) {
    const next = children[end];
    if (next?.type === 'heading' && next.depth <= depth) break;
    end++;
  }
  return end;
}

function headingSection(
  children: readonly FlowContent[],
  index: number,
  heading: Heading,
  scope: Scope,
): { node: FlowContent; end: number } | undefined {
  const id = leadingId(heading);
  const isComponent =
    !defines(scope, id) &&
    scope.components &&
    heading.depth === 3 &&
    /^components$/i.test(scope.section ?? '');
  if (!defines(scope, id) && !isComponent) return undefined;
  const end = sectionEnd(children, index, heading.depth);
  const inner = { ...scope, enclosing: defines(scope, id) ? id : scope.enclosing };
  const body = flow(children.slice(index + 1, end), inner);
  const position = span(heading, children[end - 1]);
  const node = defines(scope, id)
    ? (definitionNode(id, {
        form: 'section',
        children: [heading, ...body],
        position,
      }) as FlowContent)
    : componentNode([heading, ...body], position);
  return { node, end };
}

function paragraph(node: Paragraph, scope: Scope): FlowContent {
  const first = node.children[0];
  const id = first?.type === 'strong' ? leadingId(first) : undefined;
  // `- **T-4** Write …`: the list item already defined T-4; its paragraph is the same definition.
  if (!defines(scope, id) || id === scope.enclosing) return node;
  return definitionNode(id, {
    form: 'paragraph',
    children: node.children,
    position: node.position,
  }) as FlowContent;
}

function list(node: List, scope: Scope): List {
  const children = node.children.map((item) => {
    const first = item.children[0];
    const id = first?.type === 'paragraph' ? leadingId(first) : undefined;
    const inner = defines(scope, id) ? { ...scope, enclosing: id } : scope;
    const body = flow(item.children, inner);
    if (!defines(scope, id)) return { ...item, children: body };
    const { type: _, children: __, ...rest } = item;
    return definitionNode(id, { ...rest, form: 'item', children: body });
  });
  return { ...node, children } as List;
}

function table(node: Table, scope: Scope): Table {
  const columns = node.children[0]?.children.map((cell) => plainText(cell)) ?? [];
  const children = node.children.map((row, index) => {
    const first = row.children[0];
    const id = index > 0 && first ? leadingId(first) : undefined;
    if (!defines(scope, id)) return row;
    const { type: _, children: cells, ...rest } = row as TableRow;
    return definitionNode(id, { ...rest, form: 'row', children: cells }, columns);
  });
  return { ...node, children } as Table;
}

/** The definitions and components of a run of blocks, recursively. */
function flow(children: readonly FlowContent[], scope: Scope): FlowContent[] {
  const out: FlowContent[] = [];
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as FlowContent;
    if (child.type === 'heading') {
      if (child.depth <= 2) scope.section = child.depth === 2 ? plainText(child).trim() : undefined;
      const section = headingSection(children, index, child, scope);
      if (section) {
        out.push(section.node);
        index = section.end - 1;
        continue;
      }
      out.push(child);
    } else if (child.type === 'paragraph') out.push(paragraph(child, scope));
    else if (child.type === 'list') out.push(list(child, scope));
    else if (child.type === 'table') out.push(table(child, scope));
    else if (child.type === 'blockquote' || child.type === 'footnoteDefinition')
      out.push({ ...child, children: flow(child.children, { ...scope }) } as FlowContent);
    else out.push(child);
  }
  return out;
}

/**
 * A parsed tree with its definitions and components wrapped in PGS nodes.
 *
 * @example
 * structure(fromMarkdown(markdown), { owns: new Set(['FR']), components: false });
 */
export function structure(root: Root, options: StructureOptions): Root {
  const scope: Scope = { ...options, enclosing: undefined, section: undefined };
  return { ...root, children: flow(root.children as FlowContent[], scope) };
}
