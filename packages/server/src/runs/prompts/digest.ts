/**
 * Digests of earlier documents: the IDs a document defines with their one-line titles, read
 * from the trace graph, for a document that only cites them (docs/cost.md, "Context where
 * it pays"). A digest costs a fraction of the full text and keeps every ID citable.
 */
import { DOCUMENT_KINDS } from '@pgs/contract';
import { buildTrace } from '../trace/index.ts';

/**
 * The ancestors each kind reads as a digest (the catalogue's `digests`); every other ancestor
 * is read in full. Only documents that define IDs can be digested (the brief, the
 * requirements, the stories, the plan): the design documents define none, so whoever reads
 * them reads them whole.
 *
 * The requirements stay whole for every reader on purpose: every prompt then begins with
 * the same brief digest and requirements, which a provider's prompt cache serves at a tenth
 * of the price (docs/performance.md measured a digest of them saving tokens but not money).
 */
export const READS_AS_DIGEST: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(DOCUMENT_KINDS).map(([kind, { digests }]) => [kind, digests]),
);

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
