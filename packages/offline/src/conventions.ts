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

/**
 * The architecture's additions under the conventions, appended after its sections; any
 * other document is returned as it is.
 *
 * @example
 * withConventions(markdown, 'architecture', definition, { compliance: ['GDPR'] });
 */
export function withConventions(
  markdown: string,
  kind: string,
  definition: ProjectDefinition,
  conventions: Conventions | undefined,
): string {
  if (conventions === undefined || kind !== 'architecture') return markdown;
  const { name } = definition;
  const added: string[] = [];
  const compliance = conventions.compliance ?? [];
  if (compliance.length > 0)
    added.push(
      render(
        blocks(
          heading(2, 'Compliance'),
          p(
            words(
              `The standards the house conventions require of ${name}, and how its design meets each.`,
            ),
          ),
          ...compliance.map((standard) => standardSection(standard, name)),
        ),
      ),
    );
  const naming = conventions.naming ?? [];
  if (naming.length > 0)
    added.push(
      render(
        blocks(
          heading(2, 'Naming'),
          p(
            words(
              `Every name in ${name}'s code, schema and API follows the house conventions' rules:`,
            ),
          ),
          bullets(naming.map(words)),
        ),
      ),
    );
  // A revision that kept the previous text already has them: each is added once.
  const lines = new Set(markdown.split('\n').map((line) => line.trim()));
  const missing = added.filter((block) => !lines.has(block.split('\n')[0]!.trim()));
  let text = missing.length === 0 ? markdown : `${[markdown.trimEnd(), ...missing].join('\n\n')}\n`;
  for (const section of conventions.sections ?? []) text = withSection(text, section);
  return text;
}

/**
 * The team's section in the document: appended, or, when the document has a section of that
 * title already (the architecture's own "Observability"), its text closes that section. The
 * section is found by its heading; one that already ends with the text is left as it is.
 */
function withSection(markdown: string, section: { title: string; content: string }): string {
  const heading2 = render([heading(2, ...words(section.title.trim()))]);
  const content = render(contentBlocks(section.content));
  if (content === '') return markdown;
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line.trim() === heading2);
  if (at === -1) return `${[markdown.trimEnd(), heading2, content].join('\n\n')}\n`;
  let end = lines.findIndex((line, i) => i > at && /^## /.test(line));
  if (end === -1) end = lines.length;
  while (end > at + 1 && lines[end - 1]!.trim() === '') end--;
  if (
    lines
      .slice(at + 1, end)
      .join('\n')
      .trimEnd()
      .endsWith(content)
  )
    return markdown;
  return [...lines.slice(0, end), '', content, ...lines.slice(end)].join('\n');
}
