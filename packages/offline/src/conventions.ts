/**
 * The offline engine under house conventions (docs/conventions.md). The stack and the
 * compliance reach every document through the definition (`applyConventions` puts them in
 * its stack and constraints); what the architecture adds here: a section per compliance
 * standard, the naming rules, and the team's extra sections, after the catalogue's own. The
 * engine writes English whatever language is asked; provenance says so.
 */
import type { Conventions } from '@pgs/contract';
import type { ProjectDefinition } from '@pgs/contract/generation';
import { blocks, bullets } from './text/markdown.ts';

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

/** The section of one standard: what it asks of the design, or that the team states it. */
function standardSection(standard: string, name: string): string {
  const known = STANDARDS.find(([pattern]) => pattern.test(standard));
  return blocks(
    `### ${standard}`,
    known
      ? known[1](name)
      : `${name} must meet ${standard}, as the house conventions require: the controls it needs are listed with the team's compliance owner before the first release, and each becomes a task of the plan.`,
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
      blocks(
        '## Compliance',
        `The standards the house conventions require of ${name}, and how its design meets each.`,
        ...compliance.map((standard) => standardSection(standard, name)),
      ),
    );
  const naming = conventions.naming ?? [];
  if (naming.length > 0)
    added.push(
      blocks(
        '## Naming',
        `Every name in ${name}'s code, schema and API follows the house conventions' rules:`,
        bullets(naming),
      ),
    );
  // A revision that kept the previous text already has them: each is added once.
  const lines = new Set(markdown.split('\n').map((line) => line.trim()));
  const missing = added.filter((block) => !lines.has(block.split('\n')[0]!.trim()));
  let text = missing.length === 0 ? markdown : `${blocks(markdown.trimEnd(), ...missing)}\n`;
  for (const section of conventions.sections ?? []) text = withSection(text, section);
  return text;
}

/**
 * The team's section in the document: appended, or, when the document has a section of that
 * title already (the architecture's own "Observability"), its text closes that section.
 */
function withSection(markdown: string, section: { title: string; content: string }): string {
  const content = section.content.trim();
  if (markdown.includes(content)) return markdown;
  const heading = `## ${section.title.trim()}`;
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line.trim() === heading);
  if (at === -1) return `${blocks(markdown.trimEnd(), heading, content)}\n`;
  let end = lines.findIndex((line, i) => i > at && /^## /.test(line));
  if (end === -1) end = lines.length;
  while (end > at + 1 && lines[end - 1]!.trim() === '') end--;
  return [...lines.slice(0, end), '', content, ...lines.slice(end)].join('\n');
}
