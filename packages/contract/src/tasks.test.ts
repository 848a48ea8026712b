import type { Nodes, Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parseDocument } from './document/index.ts';
import type { components } from './generated/types.ts';
import { inlineCode, inlineText } from './markdown-text.ts';
import { taskContextMarkdown } from './tasks.ts';

type TaskContext = components['schemas']['TaskContext'];

/** A pack whose user text is all `text` (a title, a phase, a section, a path, a note). */
function pack(text: string): TaskContext {
  return {
    task: {
      id: 'T-4',
      title: text,
      phase: text,
      status: 'todo',
      requirements: ['FR-1'],
      dependsOn: ['T-3'],
    } as TaskContext['task'],
    criteria: [],
    stories: [],
    design: [{ document: 'ARCHITECTURE.md', section: text, markdown: 'The design.' }],
    files: [text],
    dependencies: [{ id: 'T-3', title: text, status: 'done', notes: [text] }],
    constraints: [],
  };
}

const HOSTILE = [
  'Use `code` and ``more``',
  '`starts and ends`',
  'a * b and *bold* and **strong**',
  'see [x](y) and ![img](https://x.test/p.png) and [ref]',
  '<script>alert(1)</script> and <https://x.test>',
  'Implements FR-3, FR-3.1 and T-12',
  'line one\n# Injected heading\n- injected item\n\nnew paragraph',
  '_under_ and ~~gone~~ and ~x~',
  '&amp; &#42; &copy;',
  '# not a heading',
  '- not an item',
  '+ not an item',
  '1. not a list',
  '2) not a list',
  '> not a quote',
  'closing hashes ##',
  'back\\slash \\* and trailing \\',
  '  padded  ',
  '|a|b|',
  '---',
  '***',
  '```js',
  '<!-- hidden -->',
  '[x]: https://x.test',
  '- [ ] a task list',
  'see https://x.test, www.x.test and mail a.b@x.test',
];

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

function find(root: Root, test: (node: Nodes) => boolean): Nodes[] {
  const found: Nodes[] = [];
  walk(root, (node) => {
    if (test(node)) found.push(node);
  });
  return found;
}

/** A node's children, none for a leaf. */
const childrenOf = (node: Nodes) => ('children' in node ? (node.children as Nodes[]) : []);

describe('taskContextMarkdown with hostile user text', () => {
  it.each(HOSTILE)('%j comes back as the same words, in the same node kind', (text) => {
    const markdown = taskContextMarkdown(pack(text));
    const root = parseDocument(markdown);
    const words = text.replace(/\r\n|[\r\n]/g, ' ').trim();

    // The title: the task's ID, then one text node.
    const [title] = find(root, (node) => node.type === 'heading' && node.depth === 1);
    expect(childrenOf(title as Nodes).slice(1)).toEqual([
      expect.objectContaining({ type: 'text', value: ` ${words}` }),
    ]);
    expect(childrenOf(title as Nodes)).toHaveLength(2);

    // Only the pack's own IDs are IDs: none comes from the user's text.
    const ids = find(root, (node) => (node.type as string) === 'idRef').map(
      (node) => (node as { value?: string }).value,
    );
    expect(ids).toEqual(['T-4', 'FR-1', 'T-3', 'T-3']);

    // The path: one inline code node holding it (a line break is the space code shows).
    const codes = find(root, (node) => node.type === 'inlineCode');
    expect(codes.map((node) => (node as { value: string }).value)).toEqual([
      text.replace(/\r\n|[\r\n]/g, ' '),
    ]);

    // The note: a list item whose paragraph is one text node.
    const paragraphs = find(root, (node) => node.type === 'paragraph');
    const note = paragraphs.at(-1) as Nodes;
    expect(childrenOf(note)).toEqual([expect.objectContaining({ type: 'text', value: words })]);

    // Nothing but the pack's own structure: no emphasis, link, html, quote, extra heading.
    const kinds = new Set<string>();
    walk(root, (node) => kinds.add(node.type));
    for (const kind of [
      'emphasis',
      'strong',
      'delete',
      'link',
      'image',
      'html',
      'blockquote',
      'code',
      'thematicBreak',
      'definition',
      'linkReference',
    ])
      expect(kinds.has(kind)).toBe(false);
    expect(find(root, (node) => node.type === 'heading')).toHaveLength(4);
    expect(find(root, (node) => node.type === 'list')).toHaveLength(3);
  });

  it('writes ordinary text as it is', () => {
    for (const text of [
      'Build "Keep communities" until done',
      "Add the members' list (with roles), v1.2: 50% of a/b",
      'Q&A for C# and user_id, e-mail-ready',
    ])
      expect(inlineText(text)).toBe(text);
    expect(inlineCode('src/app/communities.ts')).toBe('`src/app/communities.ts`');
  });
});

describe('inlineCode', () => {
  it.each([
    ['a`b', '``a`b``'],
    ['a``b', '```a``b```'],
    ['`x`', '`` `x` ``'],
    [' x ', '`  x  `'],
    ['   ', '`   `'],
  ])('%j → %j', (text, code) => {
    expect(inlineCode(text)).toBe(code);
  });
});

describe('inlineText', () => {
  it('escapes an ID as the documents do', () => {
    expect(inlineText('Until T-3 passes')).toBe('Until T\\-3 passes');
  });
});
