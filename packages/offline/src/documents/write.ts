/**
 * The offline engine's writing: a document's tree derived deterministically from the idea and
 * the settled definition, one `## ` section per section of the kind, each by its writer, then
 * rendered by the contract's renderer (`renderDocument` of `@pgs/contract/document`).
 */
import {
  citedIds,
  heading,
  parseDocument,
  renderDocument as renderTree,
  root,
} from '@pgs/contract/document';
import type { DocumentContext, RequirementSlot } from '@pgs/contract/generation';
import type { RootContent } from 'mdast';
import { type Facts, factsFor } from '../facts/facts.ts';
import { blocks, bullets, type FlowContent, fragment, joined, p, t } from '../text/nodes.ts';
import { listing } from '../text/words.ts';
import type { SectionBody } from './kind.ts';
import { kindWriters, sectionWriter } from './kinds.ts';

/** Below this many words a document is topped up with a recap; "a page" of prose. */
export const MIN_DOCUMENT_WORDS = 450;

/** The number of words in a markdown text (table rules and symbols do not count). */
export function countWords(markdown: string): number {
  return markdown.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

function intro(f: Facts, context: Omit<DocumentContext, 'task'>, purpose: string): FlowContent {
  const related = context.related.map((doc) => doc.title).filter(Boolean);
  return p`${f.name} is ${f.aLabel} for ${f.who}. ${purpose}${
    related.length > 0 ? t`, building on the ${listing(related)}.` : '.'
  }`;
}

/** What the documents of a project all rest on, for a document too short to stand alone. */
function recap(f: Facts): FlowContent[] {
  return blocks(
    p`For reference, what every document of ${f.name} rests on:`,
    bullets([
      t`Audience: ${f.who}`,
      t`Core features: ${joined(
        f.requirements.map((r) => t`${r.text} (${r.id}, ${r.priority})`),
        '; ',
      )}`,
      t`Tech stack: ${joined(f.stack, ', ')}`,
      t`Platforms: ${joined(f.platforms, ', ')}`,
      ...f.assumptions.map((a) => t`Assumption ${a.id}: ${a.fact}; ${a.choice}`),
      ...f.questions.map((q) => t`Open question ${q.id}: ${q.question} ${q.impact}.`),
      ...(f.nonGoals.length > 0 ? [t`Not in the first release: ${joined(f.nonGoals, '; ')}`] : []),
    ]),
  );
}

/** A part of a document: blocks of its tree, or markdown a writer still composes as text. */
type Part = SectionBody;

/**
 * The markdown of a document's parts, in order: runs of blocks rendered by the contract's
 * renderer, text kept as written, parts one blank line apart.
 */
function render(parts: readonly Part[]): string {
  const out: string[] = [];
  let run: FlowContent[] = [];
  const flush = () => {
    if (run.length > 0) out.push(renderTree(root(run)).trimEnd());
    run = [];
  };
  for (const part of parts) {
    if (typeof part === 'string') {
      flush();
      if (part.length > 0) out.push(part);
    } else run.push(...part);
  }
  flush();
  return `${out.join('\n\n')}\n`;
}

/**
 * The markdown of a document: `# <Title>: <name>`, an introduction, then one `## ` section
 * per requested section, written from the idea and the definition. A revision passes its
 * `register` so each requirement keeps its ID and priority (`revise.ts`).
 *
 * @example
 * writeDocument({ idea, definition, document, related: [] });
 */
export function writeDocument(
  context: Omit<DocumentContext, 'task'>,
  register?: readonly RequirementSlot[],
): string {
  return renderDocument(factsFor({ ...context, register }), context);
}

/**
 * The document `writeDocument` writes, from facts already derived (a revision derives them
 * once, for the text and for the story and task IDs it renumbers).
 *
 * @example
 * renderDocument(factsFor(context), context);
 */
export function renderDocument(f: Facts, context: Omit<DocumentContext, 'task'>): string {
  const brief = context.detail === 'brief';
  const { kind } = context.document;
  const writers = kindWriters(kind);
  const parts: Part[] = [
    [
      heading(1, `${context.document.title}: `, ...fragment(f.name)),
      intro(f, context, writers.purpose),
    ],
  ];
  for (const section of context.document.sections) {
    const body = sectionWriter(writers, kind, section, f.codebase !== undefined)(f);
    parts.push([heading(2, section)]);
    parts.push(brief ? condensed(body) : body);
  }
  const markdown = render(parts);
  // A brief document is short by request; a standard one too short to stand alone is not.
  // The recap is written after the rest, a blank line apart, as one render would join it.
  if (!brief && countWords(markdown) < MIN_DOCUMENT_WORDS)
    return `${markdown}\n${renderTree(root(recap(f)))}`;
  return markdown;
}

/** Blocks that carry structure: headings, tables, code, components, definitions written as sections. */
const structural = (node: FlowContent | RootContent | undefined) =>
  node?.type === 'heading' ||
  node?.type === 'table' ||
  node?.type === 'code' ||
  node?.type === 'component' ||
  (node !== undefined && 'form' in node && node.form === 'section');

/**
 * A section as a brief document has it (`detail: brief`): its first block, then only the
 * blocks that carry structure or IDs (headings, tables, code, anything naming an ID), so
 * every ID, criterion, story and task stays and the prose around them goes. The offline
 * engine says nothing the idea does not give, so `deep` writes what `standard` does.
 */
function condensed(body: SectionBody): SectionBody {
  if (typeof body === 'string') return condensedText(body);
  const kept = (block: FlowContent) => structural(block) || citedIds(block).length > 0;
  return body
    .filter((block, index) => index === 0 || kept(block))
    .map((block) =>
      // A component keeps its heading and what names IDs, as the blocks of a section do.
      block.type === 'component' ? { ...block, children: block.children.filter(kept) } : block,
    );
}

/**
 * `condensed` of a section a writer still composes as markdown: a block is a run of the
 * tree's blocks with no blank line between them, cut from the text as written.
 */
function condensedText(body: string): string {
  const groups: RootContent[][] = [];
  let end: number | undefined;
  for (const child of parseDocument(body, { defines: [] }).children) {
    const start = child.position?.start.offset ?? 0;
    const previous = groups.at(-1);
    // A blank line between two blocks parts them.
    if (previous && end !== undefined && body.slice(end, start).split('\n').length <= 2)
      previous.push(child);
    else groups.push([child]);
    end = child.position?.end.offset;
  }
  return groups
    .filter(
      (group, index) => index === 0 || structural(group[0]) || citedIds(root(group)).length > 0,
    )
    .map((group) =>
      body.slice(group[0]?.position?.start.offset ?? 0, group.at(-1)?.position?.end.offset ?? 0),
    )
    .join('\n\n');
}
