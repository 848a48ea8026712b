/**
 * Reads one generated markdown document into the pieces of the trace graph: the IDs it
 * defines, the IDs it cites (and from where), its sections and its fenced code. It reads the
 * document's tree (`@pgs/contract/document`: mdast with GFM and the PGS nodes), never the
 * text, so an ID inside code or a table cell is read for what it is.
 */
import {
  type Definition,
  documentRole,
  type IdRef,
  isDefinition,
  kindOf,
  ownedPrefixes,
  parseShared,
  visit,
} from '@pgs/contract/document';
import { frozenDeep, lastUsed } from '@pgs/contract/memo';
import type { Code, Heading, Nodes, Root } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import type {
  CodeBlock,
  CriterionForm,
  IdPrefix,
  ParsedDocument,
  SectionText,
  TraceEdge,
  TraceNode,
} from './types.ts';

/** What IDs are and which document owns which: the document model's, re-exported for the trace. */
export {
  type DocumentRole,
  documentRole,
  idsIn,
  isId,
  ownedPrefixes,
  prefixOf,
  requirementOf,
} from '@pgs/contract/document';

interface Context {
  filename: string;
  section: string;
  subsection: string | undefined;
  defines: TraceNode[];
  cites: Map<string, TraceEdge>;
  /**
   * Whether its text is read for citations. Not in the codebase overview: what looks like an
   * ID there (a ticket key, a version tag in the code it quotes) belongs to the code.
   */
  readsCitations: boolean;
  codeBlocks: CodeBlock[];
  sections: string[];
  criteria: CriterionForm[];
}

export interface ParseOptions {
  /** The prefixes this document may define; by default those its filename owns (`ownedPrefixes`). */
  defines?: readonly IdPrefix[];
}

/**
 * Parses one document. An ID is defined where it is the first thing of a heading, of a
 * list item, of a table row's first cell (header row aside) or of a bold run opening a
 * paragraph, in a document that owns its prefix (the tree's definitions); every other mention
 * is a citation from the innermost enclosing definition (or from the document itself).
 *
 * @example
 * parseDocument('product-requirements.md', '### FR-3 Reminders\n\n**FR-3.1** WHEN … (G-1)').defines[1]?.id; // 'FR-3.1'
 */
export function parseDocument(
  filename: string,
  markdown: string,
  options: ParseOptions = {},
): ParsedDocument {
  return parsedLately({ filename, markdown, defines: options.defines });
}

interface ParseKey {
  filename: string;
  markdown: string;
  defines: readonly IdPrefix[] | undefined;
}

/**
 * The documents parsed last, by their filename, prefixes and text. The gate builds a
 * project's whole trace each time it checks one of its documents, so a generation of n
 * documents parsed about n²/2 of them; parsing was the largest part of a generation's CPU
 * (docs/performance.md). A result is frozen: every caller shares it.
 */
const parsedLately = (() => {
  const byKey = lastUsed(64, (key: string) => {
    // The filename and the prefixes hold no NUL; the text, which may, is all that follows.
    const [filename = '', defines = ''] = key.split('\u0000', 2);
    const markdown = key.slice(filename.length + defines.length + 2);
    return frozenDeep(
      parseFresh(filename, markdown, defines === '*' ? {} : { defines: splitPrefixes(defines) }),
    );
  });
  return ({ filename, markdown, defines }: ParseKey) =>
    byKey([filename, defines === undefined ? '*' : defines.join(','), markdown].join('\u0000'));
})();

const splitPrefixes = (list: string): IdPrefix[] =>
  list === '' ? [] : (list.split(',') as IdPrefix[]);

function parseFresh(filename: string, markdown: string, options: ParseOptions): ParsedDocument {
  // The tree the gate's outline reads too (parseShared): one parse of a document serves both.
  const tree = parseShared(markdown, {
    filename,
    ...(options.defines ? { defines: options.defines } : {}),
  });
  const context: Context = {
    filename,
    section: '',
    subsection: undefined,
    defines: [],
    cites: new Map(),
    readsCitations: documentRole(filename) !== 'codebase',
    codeBlocks: [],
    sections: [],
    criteria: [],
  };
  visit(tree, (node, ancestors) => {
    if (isDefinition(node)) define(context, node);
    else if (node.type === 'component' && node.children[0]?.type === 'heading')
      heading(context, node.children[0]);
    else if (node.type === 'heading' && !heads(ancestors.at(-1), node)) heading(context, node);
    else if (node.type === 'code') code(context, node);
    else if (node.type === 'idRef') cite(context, node, ancestors);
  });
  return {
    filename,
    prefixes: [...new Set(options.defines ?? ownedPrefixes(filename))],
    sections: context.sections,
    defines: context.defines,
    cites: [...context.cites.values()],
    codeBlocks: context.codeBlocks,
    sectionsText: sizes(tree),
    criteria: context.criteria,
  };
}

/** Whether a heading is the one a section-form node opens with (read with its node). */
const heads = (parent: Nodes | undefined, node: Heading) =>
  parent !== undefined &&
  (isDefinition(parent) || parent.type === 'component') &&
  parent.children[0] === node;

/** Fenced blocks only: an indented block names no language and is rarely meant as code to check. */
function code(context: Context, node: Code): void {
  if (node.data?.indented) return;
  context.codeBlocks.push({
    lang: (node.lang ?? '').toLowerCase(),
    value: node.value,
    section: context.section,
    line: node.position?.start.line ?? 0,
  });
}

function heading(context: Context, node: Heading): void {
  const title = plainText(node).trim();
  if (node.depth <= 2) {
    context.section = node.depth === 2 ? title : '';
    context.subsection = undefined;
    if (node.depth === 2) context.sections.push(title);
  } else if (node.depth === 3) {
    context.subsection = title;
  }
}

function define(context: Context, node: Definition): void {
  // A section's heading sets the section it is defined in, as any heading does.
  if (node.form === 'section' && node.children[0]?.type === 'heading')
    heading(context, node.children[0]);
  context.defines.push({
    id: node.id,
    kind: kindOf(node.id),
    document: context.filename,
    section: context.section,
    ...(context.subsection === undefined ? {} : { subsection: context.subsection }),
    title: node.title,
    line: node.position?.start.line ?? 0,
    ...(node.type === 'requirement' && node.priority ? { priority: node.priority } : {}),
  });
  if (node.type === 'criterion') {
    context.criteria.push({
      id: node.id,
      section: context.section,
      line: node.position?.start.line ?? 0,
      ...(node.scenario ? { steps: node.scenario.steps.map((step) => step.keyword) } : {}),
    });
  }
}

function cite(context: Context, node: IdRef, ancestors: readonly Nodes[]): void {
  if (!context.readsCitations) return;
  const enclosing = ancestors.findLast((ancestor) => isDefinition(ancestor)) as
    | Definition
    | undefined;
  const from = enclosing?.id ?? context.filename;
  const to = node.value;
  if (to === from) return;
  const edge: TraceEdge = {
    from,
    to,
    document: context.filename,
    section: context.section,
    ...(context.subsection === undefined ? {} : { subsection: context.subsection }),
  };
  const key = [from, to, edge.section, edge.subsection ?? ''].join('\u0000');
  if (!context.cites.has(key)) context.cites.set(key, edge);
}

/** The blocks of a tree as written: section-form nodes and components opened into theirs. */
function blocksOf(children: readonly Nodes[]): Nodes[] {
  return children.flatMap((child) =>
    (isDefinition(child) && child.form === 'section') || child.type === 'component'
      ? blocksOf(child.children)
      : [child],
  );
}

/** Plain-text size of each `##` section, heading excluded; a section ends at the next `#` or `##`. */
function sizes(root: Root): SectionText[] {
  const result: SectionText[] = [];
  let current: SectionText | undefined;
  for (const child of blocksOf(root.children)) {
    if (child.type === 'heading' && child.depth <= 2) {
      current =
        child.depth === 2
          ? { section: plainText(child).trim(), line: child.position?.start.line ?? 0, chars: 0 }
          : undefined;
      if (current) result.push(current);
      continue;
    }
    if (current) current.chars += plainText(child).replace(/\s+/g, ' ').trim().length;
  }
  return result;
}
