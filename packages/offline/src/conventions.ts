/**
 * The offline engine under house conventions (docs/conventions.md). The stack and the
 * compliance reach every document through the definition (`applyConventions` puts them in
 * its stack and constraints); what the architecture adds here: a section per compliance
 * standard, the naming rules, and the team's extra sections, after the catalogue's own. The
 * engine writes English whatever language is asked; provenance says so.
 *
 * The team's words are built as nodes, never spliced in as markdown: a name, a standard or a
 * naming rule is inert text (a `|`, a `## ` or a quoted `FR-9` stays words, not structure or
 * a citation), and a section's content is the team's markdown read inert, as the writers
 * read the facts.
 */
import type { Conventions } from '@pgs/contract';
import {
  heading,
  inertText,
  parseDocument,
  renderDocument,
  root,
  withoutPositions,
} from '@pgs/contract/document';
import type { Heading } from 'mdast';
import { regimeDesign } from './facts/compliance.ts';
import { blocks, bullets, type FlowContent, fragment, h3, p } from './text/nodes.ts';

/** The markdown of blocks, as the contract's renderer writes them. */
const render = (content: readonly FlowContent[]) => renderDocument(root([...content])).trimEnd();

/** The team's words as inline content: inert, an ID they quote is text. */
const words = (value: string) => fragment(inertText(value));

/** The section of one standard: what it asks of the design, and the NFR that checks it. */
function standardSection(regime: ProjectRegime, name: string, source: string): FlowContent[] {
  const design = regimeDesign(regime.name, name, source);
  return blocks(
    h3(words(regime.name)),
    p(words(design), regime.nfr === undefined ? '' : ` It is checked as ${regime.nfr}.`),
  );
}

/**
 * A section's content as the team wrote it, read as inert markdown (IDs are text); its
 * headings sit below the section's own, so none of them opens a section of the document.
 */
function contentBlocks(content: string): FlowContent[] {
  const tree = parseDocument(inertText(content), { defines: [], components: false });
  return (withoutPositions(tree).children as FlowContent[]).map((node) =>
    node.type === 'heading' && node.depth < 3 ? ({ ...node, depth: 3 } as Heading) : node,
  );
}

/** Whether two blocks are written the same, as the contract's renderer writes them. */
const same = (a: readonly FlowContent[], b: readonly FlowContent[]) => render(a) === render(b);

/** Where a document's `##` heading of these words is, or -1. */
const sectionAt = (document: readonly FlowContent[], title: FlowContent) =>
  document.findIndex(
    (node) => node.type === 'heading' && node.depth === 2 && same([node], [title]),
  );

/** A standard the project meets: its name, whether the conventions set it, the NFR checking it. */
export interface ProjectRegime {
  name: string;
  fromConventions: boolean;
  /** Whether the idea itself requires it, rather than an answer. */
  fromIdea?: boolean;
  nfr?: string;
}

/** The project as the additions name it: its name, and the regimes the answers settled. */
export interface HousedProject {
  name: string;
  /** Absent, the conventions' own standards. */
  compliance?: readonly ProjectRegime[];
}

/** The Compliance section: its standards, each with what it asks of the design. */
function complianceSection(name: string, regimes: readonly ProjectRegime[]): FlowContent[] {
  const ours = regimes.every((regime) => regime.fromConventions);
  const source = ours ? 'the house conventions' : "the team's answers";
  // A regime the idea requires is said to be the idea's, never an answer nobody gave.
  const stated = regimes.some((regime) => regime.fromIdea);
  const sources = [
    regimes.some((regime) => regime.fromConventions) && 'the house conventions',
    regimes.some((regime) => !regime.fromConventions && !regime.fromIdea) && "the team's answers",
    stated && 'its idea',
  ].filter((one): one is string => one !== false);
  return blocks(
    heading(2, 'Compliance'),
    p(
      words(
        ours
          ? `The standards the house conventions require of ${name}, and how its design meets each.`
          : stated
            ? `The standards ${name} must meet, as required by ${sources.join(' and ')}, and how its design meets each.`
            : `The standards ${name} must meet, as the house conventions and the team's answers require, and how its design meets each.`,
      ),
    ),
    ...regimes.map((regime) =>
      standardSection(
        regime,
        name,
        regime.fromConventions ? 'the house conventions' : regime.fromIdea ? 'its idea' : source,
      ),
    ),
  );
}

/**
 * The architecture's blocks with the additions of the conventions and the answers after its
 * sections: a Compliance section for the regimes (the conventions' and the answered ones),
 * the naming rules and the team's sections; any other document's blocks are returned as they
 * are. A section the document has already (by its `##` heading) is not added twice.
 *
 * @example
 * withConventions(blocks, 'architecture', { name: 'GroomBook' }, { compliance: ['GDPR'] });
 */
export function withConventions(
  document: readonly FlowContent[],
  kind: string,
  project: HousedProject,
  conventions: Conventions | undefined,
): readonly FlowContent[] {
  if (kind !== 'architecture') return document;
  const { name } = project;
  const regimes =
    project.compliance ??
    (conventions?.compliance ?? []).map((standard) => ({ name: standard, fromConventions: true }));
  if (conventions === undefined && regimes.length === 0) return document;
  const added: FlowContent[][] = [];
  if (regimes.length > 0) added.push(complianceSection(name, regimes));
  const naming = conventions?.naming ?? [];
  if (naming.length > 0)
    added.push(
      blocks(
        heading(2, 'Naming'),
        p(
          words(
            `Every name in ${name}'s code, schema and API follows the house conventions' rules:`,
          ),
        ),
        bullets(naming.map(words)),
      ),
    );
  let out = [...document];
  for (const block of added) if (sectionAt(out, block[0]!) === -1) out.push(...block);
  for (const section of conventions?.sections ?? []) out = withSection(out, section);
  return out.length === document.length ? document : out;
}

/**
 * The team's section in the document: appended, or, when the document has a section of that
 * title already (the architecture's own "Observability"), its blocks close that section. The
 * section is found by its `##` heading; one that already ends with the blocks is left as it is.
 */
function withSection(
  document: FlowContent[],
  section: { title: string; content: string },
): FlowContent[] {
  const title = heading(2, ...words(section.title.trim()));
  const content = contentBlocks(section.content);
  if (content.length === 0) return document;
  const at = sectionAt(document, title);
  if (at === -1) return [...document, title, ...content];
  const next = document.findIndex(
    (node, i) => i > at && node.type === 'heading' && node.depth <= 2,
  );
  const end = next === -1 ? document.length : next;
  const own = document.slice(at + 1, end);
  if (own.length >= content.length && same(own.slice(own.length - content.length), content))
    return document;
  return [...document.slice(0, end), ...content, ...document.slice(end)];
}
