/**
 * A document's tree for readers that only read it. A generation checks each document it
 * writes several times over (the gate's outline, the house rules, the revision rules, the
 * prompts' citable IDs), each a parse of the same text; this parses it once among the last
 * few asked and hands every reader the same frozen tree.
 */
import type { Root } from 'mdast';
import { frozenDeep, lastUsed } from '../memo.ts';
import { type ParseOptions, parseDocument } from './parse.ts';

/** Documents kept: a project's documents and a revision's previous versions. */
const KEPT = 48;

const parsed = lastUsed(KEPT, (key: string) => {
  // The options' JSON holds no NUL; the text, which may, is all that follows the first.
  const at = key.indexOf('\u0000');
  return frozenDeep(parseDocument(key.slice(at + 1), JSON.parse(key.slice(0, at)) as ParseOptions));
});

/**
 * `parseDocument`'s tree, parsed once while among the last few asked, and frozen: a reader
 * that changed it would throw. A caller that builds on the tree (moves its nodes into
 * another, renumbers it) parses its own with `parseDocument`.
 *
 * @example
 * visit(parseShared(markdown, { defines: [] }), (node) => { … }); // read-only
 */
export function parseShared(markdown: string, options: ParseOptions = {}): Root {
  const key = JSON.stringify({
    filename: options.filename,
    defines: options.defines,
    components: options.components,
  });
  return parsed(`${key}\u0000${markdown}`);
}
