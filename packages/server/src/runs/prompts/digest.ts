/**
 * Digests of earlier documents: the IDs a document defines with their one-line titles, read
 * from the trace graph, for a document that only cites them (docs/cost.md, "Context where
 * it pays"). A digest costs a fraction of the full text and keeps every ID citable.
 */
import type { DocumentKindName } from '@pgs/contract';
import { buildTrace } from '../trace/index.ts';

/**
 * The ancestors each kind reads as a digest; every other ancestor is read in full. Only
 * documents that define IDs can be digested (the brief, the requirements, the stories, the
 * plan): the design documents define none, so whoever reads them reads them whole.
 *
 * - The stories, the architecture and every design document cite the brief's goals,
 *   risks, assumptions and questions, and read the requirements themselves in full.
 * - The plan turns the requirements, the architecture and the design documents into tasks
 *   (in full) and cites the stories (a digest).
 * - The README summarises: it names stories and tasks (digests), and reads the
 *   requirements, the architecture and the design documents whole.
 *
 * The requirements stay whole for every reader on purpose: every prompt then begins with
 * the same brief digest and requirements, which a provider's prompt cache serves at a tenth
 * of the price (docs/performance.md measured a digest of them saving tokens but not money).
 * Typed over every kind, so a new kind fails the build until it says what it digests.
 */
const DIGESTS: { readonly [K in DocumentKindName]: readonly DocumentKindName[] } = {
  'project-brief': [],
  'codebase-overview': [],
  'product-requirements': [],
  'user-stories': ['project-brief'],
  architecture: ['project-brief'],
  'data-model': ['project-brief'],
  'api-design': ['project-brief'],
  screens: ['project-brief'],
  navigation: ['project-brief'],
  'offline-and-permissions': ['project-brief'],
  'mcp-tools': ['project-brief'],
  'mcp-resources-and-prompts': ['project-brief'],
  'mcp-transport-and-clients': ['project-brief'],
  'implementation-plan': ['project-brief', 'user-stories'],
  readme: ['project-brief', 'user-stories', 'implementation-plan'],
};

/** {@link DIGESTS}, read by any kind's name. */
export const READS_AS_DIGEST: Readonly<Record<string, readonly string[]>> = DIGESTS;

/**
 * The IDs a document defines, one per line with its priority and title, under the
 * section that holds them; empty when it defines none.
 *
 * @example
 * digestOf({ filename: 'PRODUCT_REQUIREMENTS.md', content });
 * // '## Functional requirements\n- FR-1 (Must): Book a session\n- FR-1.1: WHEN a slot …'
 */
export function digestOf(doc: { filename: string; content: string }): string {
  const nodes = buildTrace([doc]).nodes.filter((node) => node.document === doc.filename);
  const lines: string[] = [];
  let section: string | undefined;
  for (const node of nodes) {
    if (node.section !== section) {
      section = node.section;
      if (section !== '') lines.push(`## ${section}`);
    }
    // Priorities as the documents write them (Must, Should, Could).
    const priority = node.priority
      ? ` (${node.priority.charAt(0).toUpperCase()}${node.priority.slice(1)})`
      : '';
    lines.push(`- ${node.id}${priority}: ${node.title}`);
  }
  return lines.join('\n');
}
