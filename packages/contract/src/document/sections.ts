/**
 * A document cut into its sections where it must be shortened (a prompt's trimmed context):
 * at its level-2 headings as the tree reads them, so a `## ` line inside a code block or a
 * quoted idea is not a cut.
 */
import { parseDocument } from './parse.ts';

/**
 * The text before the first `##` heading, then each `##` section, as written (joined with
 * `\n` they give the document back).
 *
 * @example
 * sectionsOf('# T\n\nIntro\n## A\n\n```\n## not a heading\n```\n## B'); // ['# T\n\nIntro', '## A\n\n```\n## not a heading\n```', '## B']
 */
export function sectionsOf(markdown: string): string[] {
  const tree = parseDocument(markdown, { defines: [], components: false });
  const cuts = tree.children
    .filter((node) => node.type === 'heading' && node.depth === 2)
    .map((node) => node.position?.start.offset ?? 0)
    // A cut is a line start after a newline: the newline itself belongs to neither side.
    .filter((offset) => offset > 0 && markdown[offset - 1] === '\n');
  const sections: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    sections.push(markdown.slice(start, cut - 1));
    start = cut;
  }
  sections.push(markdown.slice(start));
  return sections;
}
