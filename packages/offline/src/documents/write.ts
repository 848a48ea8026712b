/**
 * The offline engine's writing: a document's tree derived deterministically from the idea and
 * the settled definition, one `## ` section per section of the kind, each by its writer, and
 * the house conventions' additions (`conventions.ts`), then rendered once by the contract's
 * renderer (`renderDocument` of `@pgs/contract/document`).
 */
import { citedIds, heading, renderDocument as renderTree, root } from '@pgs/contract/document';
import type { DocumentContext, RequirementSlot } from '@pgs/contract/generation';
import { type ProjectRegime, withConventions } from '../conventions.ts';
import { nfrsOf } from '../facts/brief-model.ts';
import type { Facts } from '../facts/facts.ts';
import { settledFacts, settledOf } from '../facts/settled.ts';
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
  return renderDocument(settledFacts({ ...context, ...(register ? { register } : {}) }), context);
}

/**
 * The document `writeDocument` writes, from facts already derived (a revision derives them
 * once, for the text and for the story and task IDs it renumbers).
 *
 * @example
 * renderDocument(settledFacts(context), context);
 */
export function renderDocument(f: Facts, context: Omit<DocumentContext, 'task'>): string {
  const brief = context.detail === 'brief';
  const { kind } = context.document;
  const writers = kindWriters(kind);
  const tree: FlowContent[] = [
    heading(1, `${context.document.title}: `, ...fragment(f.name)),
    intro(f, context, writers.purpose),
  ];
  for (const section of context.document.sections) {
    const body = sectionWriter(writers, kind, section, f.codebase !== undefined)(f);
    tree.push(heading(2, section), ...(brief ? condensed(body) : body));
  }
  const markdown = renderTree(root(tree));
  // A brief document is short by request; a standard one too short to stand alone is not:
  // the recap follows the rest, then what the house conventions add (`conventions.ts`).
  const short = !brief && countWords(markdown) < MIN_DOCUMENT_WORDS;
  const whole = withConventions(
    short ? [...tree, ...recap(f)] : tree,
    kind,
    { name: context.definition.name, compliance: regimesOf(f) },
    context.conventions,
  );
  return whole === tree ? markdown : renderTree(root([...whole]));
}

/** The regimes the project meets, each with the NFR that checks it (brief-model.ts). */
function regimesOf(f: Facts): ProjectRegime[] {
  const nfrs = nfrsOf(f);
  return settledOf(f).answered.compliance.map((regime) => {
    const nfr = nfrs.find((n) => n.regime === regime.name)?.id;
    return nfr === undefined ? regime : { ...regime, nfr };
  });
}

/** Blocks that carry structure: headings, tables, code, components, definitions written as sections. */
const structural = (node: FlowContent) =>
  node.type === 'heading' ||
  node.type === 'table' ||
  node.type === 'code' ||
  node.type === 'component' ||
  ('form' in node && node.form === 'section');

/**
 * A section as a brief document has it (`detail: brief`): its first block, then only the
 * blocks that carry structure or IDs (headings, tables, code, anything naming an ID), so
 * every ID, criterion, story and task stays and the prose around them goes. The offline
 * engine says nothing the idea does not give, so `deep` writes what `standard` does.
 */
function condensed(body: SectionBody): SectionBody {
  const kept = (block: FlowContent) => structural(block) || citedIds(block).length > 0;
  return body
    .filter((block, index) => index === 0 || kept(block))
    .map((block) =>
      // A component, a requirement group or a story keeps its heading and what names IDs, as
      // the blocks of a section do.
      block.type === 'component' || ('form' in block && block.form === 'section')
        ? { ...block, children: (block.children as FlowContent[]).filter(kept) }
        : block,
    );
}
