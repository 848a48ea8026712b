/**
 * The offline engine's writing: markdown documents derived deterministically from the idea
 * and the settled definition, one `## ` section per section of the kind, each by its writer.
 */
import { citedIds, parseDocument, root } from '@pgs/contract/document';
import type { DocumentContext, RequirementSlot } from '@pgs/contract/generation';
import type { RootContent } from 'mdast';
import { type Facts, factsFor } from '../facts/facts.ts';
import { blocks, bullets } from '../text/markdown.ts';
import { listing } from '../text/words.ts';
import { kindWriters, sectionWriter } from './kinds.ts';

/** Below this many words a document is topped up with a recap; "a page" of prose. */
export const MIN_DOCUMENT_WORDS = 450;

/** The number of words in a markdown text (table rules and symbols do not count). */
export function countWords(markdown: string): number {
  return markdown.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

function intro(f: Facts, context: Omit<DocumentContext, 'task'>, purpose: string): string {
  const related = context.related.map((doc) => doc.title).filter(Boolean);
  return (
    `${f.name} is ${f.aLabel} for ${f.who}. ${purpose}` +
    (related.length > 0 ? `, building on the ${listing(related)}.` : '.')
  );
}

/** What the documents of a project all rest on, for a document too short to stand alone. */
function recap(f: Facts): string {
  return blocks(
    `For reference, what every document of ${f.name} rests on:`,
    bullets([
      `Audience: ${f.who}`,
      `Core features: ${f.requirements.map((r) => `${r.text} (${r.id}, ${r.priority})`).join('; ')}`,
      `Tech stack: ${f.stack.join(', ')}`,
      `Platforms: ${f.platforms.join(', ')}`,
      ...f.assumptions.map((a) => `Assumption ${a.id}: ${a.fact}; ${a.choice}`),
      ...f.questions.map((q) => `Open question ${q.id}: ${q.question} ${q.impact}.`),
      ...(f.nonGoals.length > 0 ? [`Not in the first release: ${f.nonGoals.join('; ')}`] : []),
    ]),
  );
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
  const sections = context.document.sections.map((section) => {
    const body = sectionWriter(writers, kind, section, f.codebase !== undefined)(f);
    return `## ${section}\n\n${brief ? condensed(body) : body}`;
  });
  let markdown = blocks(
    `# ${context.document.title}: ${f.name}`,
    intro(f, context, writers.purpose),
    ...sections,
  );
  // A brief document is short by request; a standard one too short to stand alone is not.
  if (!brief && countWords(markdown) < MIN_DOCUMENT_WORDS) markdown = blocks(markdown, recap(f));
  return `${markdown}\n`;
}

/**
 * A section as a brief document has it (`detail: brief`): its first block, then only the
 * blocks that carry structure or IDs (headings, tables, code, anything naming an ID), so
 * every ID, criterion, story and task stays and the prose around them goes. The offline
 * engine says nothing the idea does not give, so `deep` writes what `standard` does. A block
 * is a run of the tree's blocks with no blank line between them, cut from the text as written.
 */
function condensed(body: string): string {
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
  const structural = (node: RootContent | undefined) =>
    node?.type === 'heading' || node?.type === 'table' || node?.type === 'code';
  return groups
    .filter(
      (group, index) => index === 0 || structural(group[0]) || citedIds(root(group)).length > 0,
    )
    .map((group) =>
      body.slice(group[0]?.position?.start.offset ?? 0, group.at(-1)?.position?.end.offset ?? 0),
    )
    .join('\n\n');
}
