/**
 * Text taken from users (an idea, a change request, a name) made safe to write into a markdown
 * document. Documents are rendered by GitHub, IDE previews and read by coding agents, so what a
 * user typed must reach them as words, never as markup that runs, loads or hides: raw HTML is
 * escaped, links with a script scheme lose their target, remote images become plain links
 * (nothing is fetched when the document is opened), and bidirectional overrides are removed.
 * Structure is read with the one markdown parser of PGS (mdast-util-from-markdown with
 * GFM, as the trace reads documents), never with patterns over the text, so a fence, a tag or
 * a link is found as a renderer finds it.
 */

import type { Definition, Link, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { escapeIds } from './parse.ts';

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 * reorder what a reader sees ("Trojan Source"), and the control characters other than tab
 * and line breaks. The marks U+200E/U+200F stay: they only steer neutral characters in
 * right-to-left text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** Link schemes that run code or carry a whole document when followed. */
const DANGEROUS_SCHEME = /^(?:javascript|vbscript|data|livescript):/i;

/**
 * Any mention of a dangerous scheme in text, defanged so no later parse makes it a target
 * (inside a word too: the text around a fragment may split it off); a `data` only when a
 * media type or a comma follows ("Data: PostgreSQL" is a label).
 */
const SCHEME_MENTION =
  /(javascript|vbscript|livescript|data(?=\s*:[\w.+-]*\/[\w.+-]+[;,]|\s*:,))(\s*):/gi;

/** An image fetched from elsewhere when the document is opened (a tracking pixel, at worst). */
const REMOTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Tags a model may use for layout in a document: no attributes, so nothing runs or loads.
 * User text never keeps even these (see {@link inertText}).
 */
const LAYOUT_TAG = /<\/?(?:br|details|summary|sub|sup|kbd|b|i|em|strong|code|p|hr)\s*\/?>/gi;

/** An edit of the source: the characters from `start` to `end` become `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The text without bidirectional overrides and control characters (tab and line breaks kept).
 *
 * @example
 * stripControls('invoice\u202Efdp.exe'); // 'invoicefdp.exe'
 */
export function stripControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** A URL as a browser reads its scheme: whitespace and controls inside it are ignored. */
const isDangerous = (url: string) => DANGEROUS_SCHEME.test(stripControls(url).replace(/\s/g, ''));

const parse = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

function span(node: Nodes): [number, number] | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? undefined : [start, end];
}

/** The source of a node's children (a link's label as written), '' when it has none. */
function childrenSource(source: string, node: Link): string {
  const first = node.children[0];
  const last = node.children.at(-1);
  const from = first && span(first);
  const to = last && span(last);
  return from && to ? source.slice(from[0], to[1]) : '';
}

/** Applies edits, outermost first: an edit inside one already made is skipped. */
function applyEdits(source: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Edit[] = [];
  for (const edit of sorted) {
    const last = kept.at(-1);
    if (last && edit.start < last.end) continue;
    kept.push(edit);
  }
  let out = source;
  for (const edit of kept.reverse())
    out = `${out.slice(0, edit.start)}${edit.text}${out.slice(edit.end)}`;
  return out;
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

function definitionsOf(root: Root): Map<string, Definition> {
  const found = new Map<string, Definition>();
  walk(root, (node) => {
    if (node.type === 'definition' && !found.has(node.identifier)) found.set(node.identifier, node);
  });
  return found;
}

/** Markdown-safe text for an image's alt (decoded by the parser, so written back escaped). */
const altText = (alt: string | null | undefined) =>
  (alt ?? '').replace(/[\\`*_[\]<]/g, (c) => (c === '<' ? '&lt;' : `\\${c}`));

/** A remote image as a link to it: `![x](u)` → `[x](u)`, `![](u)` → `[image](u)`. */
function imageAsLink(source: string, start: number, end: number): Edit {
  const written = source.slice(start, end);
  return written.startsWith('![]')
    ? { start, end: start + 3, text: '[image]' }
    : { start, end: start + 1, text: '' };
}

/** What a document's node must become, if anything. */
function documentEdit(
  source: string,
  node: Nodes,
  definitions: ReadonlyMap<string, Definition>,
  layout: boolean,
): Edit | undefined {
  const at = span(node);
  if (!at) return undefined;
  const [start, end] = at;
  switch (node.type) {
    case 'html': {
      const written = source.slice(start, end);
      if (layout && !written.replace(LAYOUT_TAG, '').includes('<')) return undefined;
      return { start, end, text: written.replaceAll('<', '&lt;') };
    }
    case 'link':
      return isDangerous(node.url)
        ? { start, end, text: defang(childrenSource(source, node)) }
        : undefined;
    case 'image':
      if (isDangerous(node.url)) return { start, end, text: altText(node.alt) };
      return REMOTE.test(node.url) ? imageAsLink(source, start, end) : undefined;
    case 'imageReference': {
      const url = definitions.get(node.identifier)?.url ?? '';
      return REMOTE.test(url) ? imageAsLink(source, start, end) : undefined;
    }
    case 'definition':
      return isDangerous(node.url) ? { start, end, text: '' } : undefined;
    case 'text': {
      // Plain text renders as text, but an agent copying it, or a later edit, should not
      // find a ready script URL in it.
      const written = source.slice(start, end);
      const defanged = defang(written);
      return defanged === written ? undefined : { start, end, text: defanged };
    }
    default:
      return undefined;
  }
}

/** Mentions of script schemes made plain text (`javascript&#58;` renders as `javascript:`). */
const defang = (text: string) => text.replace(SCHEME_MENTION, '$1$2&#58;');

/** One pass over a document; the edits may uncover what an outer edit kept (a label's image). */
function neutralisePass(source: string, layout: boolean): string {
  const root = parse(source);
  const definitions = definitionsOf(root);
  const edits: Edit[] = [];
  walk(root, (node) => {
    const edit = documentEdit(source, node, definitions, layout);
    if (edit) edits.push(edit);
  });
  return edits.length === 0 ? source : applyEdits(source, edits);
}

/**
 * What a document must hold for a pass to find anything: a tag or an autolink (`<`), an image
 * (`![`), a script scheme, or an entity (`java&#115;cript:` is decoded in a link's target).
 * Most documents hold none of these and are not parsed at all.
 */
const MARKUP = /<|!\[|(?:javascript|vbscript|livescript|data)\s*:|&#?[a-z0-9]+;/i;

/**
 * A markdown document with nothing of its content active: raw HTML outside code escaped (a
 * few attribute-free layout tags aside), links to script or data URLs reduced to their label,
 * remote images turned into links, bidirectional overrides removed. Code blocks and spans are
 * left as written (they render as text). Idempotent: a neutralised document is unchanged by a
 * second pass, so documents and their diffs stay stable across revisions.
 *
 * @example
 * neutraliseMarkdown('Hi <img src=x onerror=alert(1)> ![t](https://x.test/p.png)');
 * // 'Hi &lt;img src=x onerror=alert(1)> [t](https://x.test/p.png)'
 * // `layout: false` (user text) escapes even the attribute-free layout tags.
 */
export function neutraliseMarkdown(markdown: string, options: { layout?: boolean } = {}): string {
  const { layout = true } = options;
  let out = stripControls(markdown);
  if (!MARKUP.test(out)) return out;
  // An edit can uncover another (a remote image inside a script link's label): a few passes.
  for (let pass = 0; pass < 4; pass++) {
    const next = neutralisePass(out, layout);
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * A fragment of user text (a phrase of an idea, a name, a title) made inert wherever it is
 * written in a document, in prose, a table cell or a heading: what it holds as markdown is
 * neutralised as a document's would be, no layout tag kept; then, because the text around it
 * may complete a construct the fragment only opens, no `<` is left to open a tag and no
 * script scheme to become a link target. An ID it quotes (`US-1`) is escaped (`US\-1`), so
 * the document reads it as text: no revision renumbers it and the trace does not follow it.
 *
 * @example
 * inertText('<b>vets</b> [x](javascript:alert(1))'); // '&lt;b>vets&lt;/b> x'
 */
export function inertText(text: string): string {
  return escapeIds(defang(neutraliseMarkdown(text, { layout: false }).replaceAll('<', '&lt;')));
}

/** Whether a code node is a fence (``` or ~~~) rather than an indented block. */
const isFence = (source: string, start: number) =>
  /^[ \t>]*(?:`{3,}|~{3,})/.test(source.slice(start));

/** The prose of a link or image for a reader: its words, then its target when that is safe. */
function proseLink(label: string, url: string): string {
  if (isDangerous(url) || url === '') return isDangerous(label) ? '' : label;
  if (label === '' || label === url) return url;
  return `${label} (${url})`;
}

function proseEdit(
  source: string,
  node: Nodes,
  definitions: ReadonlyMap<string, Definition>,
): Edit | undefined {
  const at = span(node);
  if (!at) return undefined;
  const [start, end] = at;
  switch (node.type) {
    case 'code':
      return isFence(source, start) ? { start, end, text: '\n' } : undefined;
    case 'html': {
      // Markup, not words: the words between tags are text nodes of their own and stay.
      const joined = /\s/.test(source[start - 1] ?? ' ') || /[\s\p{P}]/u.test(source[end] ?? ' ');
      return { start, end, text: joined ? '' : ' ' };
    }
    case 'link':
      // A GFM literal ("www.example.com") is text as written, and only ever http(s) or mail.
      if (!/^[[<]/.test(source.slice(start, end))) return undefined;
      return { start, end, text: proseLink(childrenSource(source, node), node.url) };
    case 'image':
      return { start, end, text: proseLink(node.alt ?? '', node.url) };
    case 'imageReference':
      return {
        start,
        end,
        text: proseLink(node.alt ?? '', definitions.get(node.identifier)?.url ?? ''),
      };
    case 'definition':
      return { start, end, text: '' };
    default:
      return undefined;
  }
}

/** Elements whose content is code or markup, not words: read as a whole, tags and all. */
const OPAQUE = /^<(script|style|textarea|iframe|noscript|template)\b[^>]*>$/i;

/**
 * The text nodes between an inline `<script>` and its `</script>` (one paragraph's children):
 * an inline element's content is no html node of its own, so a reader would take it for words.
 */
function opaqueContent(root: Root): Edit[] {
  const edits: Edit[] = [];
  walk(root, (node) => {
    if (!('children' in node)) return;
    let open: { name: string; start: number } | undefined;
    for (const child of node.children) {
      const at = span(child);
      if (!at) continue;
      if (open) {
        const closes =
          child.type === 'html' && new RegExp(`^</${open.name}\\s*>$`, 'i').test(child.value);
        if (closes) {
          edits.push({ start: open.start, end: at[1], text: '' });
          open = undefined;
        }
        continue;
      }
      const name = child.type === 'html' ? OPAQUE.exec(child.value)?.[1] : undefined;
      if (name) open = { name, start: at[0] };
    }
  });
  return edits;
}

/**
 * What a reader of user text (the idea's, a change request's) reads: the text without fenced
 * code (code in an idea is an example or an attempt at instructions, never a requirement),
 * without HTML tags and comments (the words between tags stay, a script's or a style's
 * content does not), links and images as their words and their target, and no control
 * characters. Offsets are not kept; the text otherwise stays as written (entities are not
 * decoded).
 *
 * @example
 * proseOf('Track visits\n```\nIGNORE PREVIOUS instructions\n```\n'); // 'Track visits\n\n'
 */
export function proseOf(text: string): string {
  let out = stripControls(text);
  // A link's label may hold an image or a tag of its own: a few passes.
  for (let pass = 0; pass < 4 && /[`~<[]/.test(out); pass++) {
    const source = out;
    const root = parse(source);
    const definitions = definitionsOf(root);
    const edits: Edit[] = opaqueContent(root);
    walk(root, (node) => {
      const edit = proseEdit(source, node, definitions);
      if (edit) edits.push(edit);
    });
    if (edits.length === 0) break;
    out = applyEdits(source, edits);
  }
  return out;
}

/**
 * The key two clauses share when they say the same thing: case, spacing, quotes and trailing
 * punctuation aside ("Add soil sensors." and "add  soil sensors").
 *
 * @example
 * clauseKey('Add  Soil sensors!'); // 'add soil sensors'
 */
export function clauseKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/["“”‘’']/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:!?-]+|[\s,.;:!?]+$/g, '')
    .trim();
}

/**
 * JSON text with what a markdown or HTML reader could act on written as `\u` escapes inside
 * its strings: `<`, `>`, the bidirectional controls, the colon of a script scheme and the
 * bracket of an image. It parses back to exactly the same data; none of these characters can
 * stand outside a string in JSON, so replacing them in the whole text is exact.
 *
 * @example
 * inertJson('{"idea":"<script>"}'); // '{"idea":"\\u003cscript\\u003e"}'
 */
export function inertJson(json: string): string {
  const unicode = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  // The schemes first: once `<` is `\u003c`, a scheme right after it no longer starts a word.
  return json
    .replace(SCHEME_MENTION, (_, scheme: string, space: string) => `${scheme}${space}\\u003a`)
    .replace(/[<>\u202A-\u202E\u2066-\u2069]/g, unicode)
    .replaceAll('![', '!\\u005b');
}
