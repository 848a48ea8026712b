/**
 * What a repository says of itself: the first paragraph of prose of its README, read from
 * the document model's tree, so headings, badges, HTML, code and lists are known by what they
 * are rather than guessed from how their lines start.
 */
import { parseDocument } from '@pgs/contract/document';
import type { Nodes } from 'mdast';

/** A longer paragraph is cut to this many characters and an ellipsis. */
const KEPT = 497;

/**
 * A README's first paragraph that reads as a sentence (12 characters or more, some in
 * lower case), its links as their text and its images, HTML and code left out; one over 500
 * characters is cut to 497 and an ellipsis.
 *
 * @example
 * readmeSummary('# Vet\n\n![ci](b.svg)\n\nAppointments for a clinic.');
 * // 'Appointments for a clinic.'
 */
export function readmeSummary(readme: string): string | undefined {
  const tree = parseDocument(readme, { defines: [], components: false });
  for (const node of tree.children) {
    if (node.type !== 'paragraph') continue;
    const text = proseOf(node).replace(/\s+/g, ' ').trim();
    if (text.length >= 12 && /[a-z]/.test(text))
      return text.length > KEPT + 3 ? `${text.slice(0, KEPT)}…` : text;
  }
  return undefined;
}

/** A node's words as a reader sees them: links by their text; images, HTML and code left out. */
function proseOf(node: Nodes): string {
  if (node.type === 'image' || node.type === 'html' || node.type === 'inlineCode') return ' ';
  if ('children' in node) return (node.children as Nodes[]).map(proseOf).join('');
  return 'value' in node ? String(node.value) : '';
}
