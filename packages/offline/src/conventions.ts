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
import type { ProjectDefinition } from '@pgs/contract/generation';
import type { Heading } from 'mdast';
import { blocks, bullets, type FlowContent, fragment, h3, p } from './text/nodes.ts';

/** What a standard asks of a design, as far as its own text says; nothing invented. */
const STANDARDS: ReadonlyArray<[RegExp, (name: string) => string]> = [
  [
    /\bgdpr\b/i,
    (name) =>
      `${name} stores personal data of people in the EU under the GDPR: each kind of personal data has its lawful basis recorded, an account's data can be exported and erased on request, data is processed in the EU or under an adequacy decision or standard contractual clauses, and a breach is reported within 72 hours.`,
  ],
  [
    /\bhipaa\b/i,
    (name) =>
      `${name} handles protected health information under HIPAA: it is encrypted in transit and at rest, every read and change of it is written to an audit log, access follows the minimum necessary, and every service that stores or processes it signs a business associate agreement.`,
  ],
  [
    /\bsoc ?2\b/i,
    (name) =>
      `${name} is run to the SOC 2 trust services criteria: access is granted by role and reviewed, every change to production goes through review and CI, security events are logged and alerted on, and backups are restored in a test at least once a quarter.`,
  ],
  [
    /\bpci(?:[ -]?dss)?\b/i,
    (name) =>
      `${name} keeps card data out of its own systems under PCI DSS: cards are entered in the payment provider's hosted fields and only its tokens are stored, so the scope stays at the provider's self-assessment questionnaire A.`,
  ],
];

/** The markdown of blocks, as the contract's renderer writes them. */
const render = (content: readonly FlowContent[]) => renderDocument(root([...content])).trimEnd();

/** The team's words as inline content: inert, an ID they quote is text. */
const words = (value: string) => fragment(inertText(value));

/** The section of one standard: what it asks of the design, or that the team states it. */
function standardSection(standard: string, name: string): FlowContent[] {
  const known = STANDARDS.find(([pattern]) => pattern.test(standard));
  return blocks(
    h3(words(standard)),
    p(
      words(
        known
          ? known[1](name)
          : `${name} must meet ${standard}, as the house conventions require: the controls it needs are listed with the team's compliance owner before the first release, and each becomes a task of the plan.`,
      ),
    ),
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

/**
 * The architecture's blocks with the additions of the conventions after its sections; any
 * other document's blocks are returned as they are. A section the document has already
 * (by its `##` heading) is not added twice.
 *
 * @example
 * withConventions(blocks, 'architecture', definition, { compliance: ['GDPR'] });
 */
export function withConventions(
  document: readonly FlowContent[],
  kind: string,
  definition: ProjectDefinition,
  conventions: Conventions | undefined,
): readonly FlowContent[] {
  if (conventions === undefined || kind !== 'architecture') return document;
  const { name } = definition;
  const added: FlowContent[][] = [];
  const compliance = conventions.compliance ?? [];
  if (compliance.length > 0)
    added.push(
      blocks(
        heading(2, 'Compliance'),
        p(
          words(
            `The standards the house conventions require of ${name}, and how its design meets each.`,
          ),
        ),
        ...compliance.map((standard) => standardSection(standard, name)),
      ),
    );
  const naming = conventions.naming ?? [];
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
  for (const section of conventions.sections ?? []) out = withSection(out, section);
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
