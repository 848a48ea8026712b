/**
 * The offline engine's writing: markdown documents derived deterministically from the idea
 * and the settled definition, one `## ` section per section of the kind, each by its writer.
 */
import { citedIds, parseDocument, root } from '@pgs/contract/document';
import type { DocumentContext, RequirementSlot } from '@pgs/contract/generation';
import type { RootContent } from 'mdast';
import { type Facts, factsFor, type SectionWriter } from '../facts/facts.ts';
import { blocks, bullets } from '../text/markdown.ts';
import { listing } from '../text/words.ts';
import { ARCHITECTURE_SECTIONS } from './architecture.ts';
import { BRIEF_SECTIONS } from './project-brief.ts';
import { DELIVERY_SECTIONS } from './implementation-plan.ts';
import { GROUNDED_SECTIONS } from './grounded.ts';
import { MCP_SECTIONS } from './mcp-tools.ts';
import { MCP_TRANSPORT_SECTIONS } from './mcp-transport-and-clients.ts';
import { MOBILE_SECTIONS } from './screens.ts';
import { OFFLINE_SECTIONS } from './offline-and-permissions.ts';
import { PRODUCT_SECTIONS } from './product-requirements.ts';
import { WEB_SECTIONS } from './data-model.ts';

/** Below this many words a document is topped up with a recap; "a page" of prose. */
export const MIN_DOCUMENT_WORDS = 450;

const WRITERS: Record<string, SectionWriter> = {
  ...BRIEF_SECTIONS,
  ...PRODUCT_SECTIONS,
  ...ARCHITECTURE_SECTIONS,
  ...DELIVERY_SECTIONS,
  ...WEB_SECTIONS,
  ...MOBILE_SECTIONS,
  ...MCP_SECTIONS,
  ...MCP_TRANSPORT_SECTIONS,
  ...OFFLINE_SECTIONS,
};

const PURPOSE: Record<string, string> = {
  'project-brief':
    'This brief sets out why it exists, whom it serves and what its first release must achieve',
  'product-requirements': 'These requirements turn the brief into numbered, testable statements',
  'user-stories':
    'These stories describe the work from the point of view of the people who will use it',
  architecture: 'This architecture explains how it is built and why each part is there',
  'api-design':
    'This API design specifies the HTTP API that the client and future integrations use',
  'data-model': 'This data model defines the entities, tables and rules for the data it keeps',
  screens: 'This screen guide lists every screen and what each one must show',
  navigation:
    'This navigation guide describes how people move between screens and how links open them',
  'offline-and-permissions':
    'This document covers how it behaves without a connection and which device permissions it asks for',
  'mcp-tools': 'This document specifies the tools it exposes to AI assistants',
  'mcp-resources-and-prompts':
    'This document specifies the resources, templates and prompts it offers to clients',
  'mcp-transport-and-clients':
    'This document explains how clients connect to it and how to configure them',
  'codebase-overview':
    'This overview maps the codebase it changes as the digest shows it, each fact with its path',
  'implementation-plan': 'This plan breaks the work into milestones, tasks and checks',
  readme: 'This README is the front page of its repository',
};

/** The number of words in a markdown text (table rules and symbols do not count). */
export function countWords(markdown: string): number {
  return markdown.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
}

/** A section no writer knows (a catalogue section added later): what the document covers there. */
function fallbackSection(section: string): SectionWriter {
  return (f) =>
    blocks(
      `${section} for ${f.name}, for each of its requirements:`,
      bullets(
        f.requirements.map(
          (r) => `${r.id} ${r.text}: ${section.toLowerCase()} as the requirement states it.`,
        ),
      ),
    );
}

function intro(f: Facts, context: Omit<DocumentContext, 'task'>): string {
  const purpose =
    PURPOSE[context.document.kind] ??
    `This ${context.document.title} covers ${listing(context.document.sections.map((s) => s.toLowerCase()))}`;
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
  const sections = context.document.sections.map((section) => {
    const key = `${context.document.kind}/${section}`;
    const writer =
      (f.codebase ? GROUNDED_SECTIONS[key] : undefined) ?? WRITERS[key] ?? fallbackSection(section);
    const body = writer(f);
    return `## ${section}\n\n${brief ? condensed(body) : body}`;
  });
  let markdown = blocks(`# ${context.document.title}: ${f.name}`, intro(f, context), ...sections);
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
