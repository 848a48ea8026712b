import fc from 'fast-check';
import type { List, PhrasingContent, RootContent } from 'mdast';
import { type Handle, toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import {
  blockquote,
  cite,
  code,
  component,
  criterion,
  emphasis,
  type FlowContent,
  heading,
  type Inline,
  inlineCode,
  link,
  list,
  listItem,
  nfr,
  paragraph,
  parseDocument,
  phrasing,
  RENDER_OPTIONS,
  registerEntry,
  renderDocument,
  requirement,
  root,
  type StepKeyword,
  scenario,
  story,
  strong,
  table,
  task,
  taskTable,
  withoutPositions,
} from './index.ts';
import { cellEdges } from './render.ts';

/**
 * Characters that markdown reads as markup, text from other scripts, the tags PGS wraps
 * user text in for a model (`<pgs-context>`), comments and what GFM would autolink.
 */
const HOSTILE = [...'|`*_<>&[]\\#-+!~=:.()"\'{}$%^é漢字🙂 ‑'].concat([
  '```',
  '~~~',
  '**',
  '<b>',
  '&amp;',
  'US-1',
  'T-12',
  'FR-3.1',
  'NFR-2',
  'G-1',
  '1.',
  '- ',
  '<pgs-context>',
  '</pgs-context>',
  '<!--',
  '-->',
  'www.a.co',
  'https://a.co',
  'a@b.co',
]);

/** One word: hostile characters among letters, no white space. */
const word = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.constantFrom('a', 'b', 'x', 'Z', '7')), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.join('').trim())
  .filter((w) => w !== '' && !/\s/.test(w));

/** A run of words with single spaces and no space at either end (titles, names). */
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((list) => list.join(' '));

/** White space markdown would drop or read as a break: at a line's ends, a line ending, a tab. */
const gap = fc.constantFrom(' ', ' ', ' ', '\n', '  \n', ' \n ', '  ', '\t');
const edge = fc.constantFrom('', '', '', ' ', '  ', '\t');
/** Text as a user writes it: words apart by any white space, spaces at either end. */
const spaced = fc
  .tuple(edge, fc.array(fc.tuple(word, gap), { maxLength: 3 }), word, edge)
  .map(([start, pairs, last, end]) => `${start}${pairs.flat().join('')}${last}${end}`);

const URLS = [
  'https://a.co/x_y',
  'https://a.co/(a)',
  'a b',
  '<x>',
  'a<b>',
  '',
  '#US-1',
  'mailto:a@b.co',
];
const ids = fc.constantFrom('FR-1', 'FR-2.1', 'NFR-3', 'US-2', 'T-4', 'G-1', 'R-2', 'A-3', 'Q-1');

/**
 * Inline content that opens with text, so it never opens with an ID (which would define
 * one). Limits that are CommonMark's or GFM's, not the renderer's: a code span holds no line
 * ending (CommonMark reads one as a space); in a table cell (`inCell`) there is no hard break
 * (a cell is one line) and no code span with `\|`, since GFM reads `\|` in a cell as a pipe
 * before it reads code and a backslash cannot escape that backslash (micromark's and
 * cmark-gfm's tables alike), so no markdown gives such a span in a cell.
 */
function inlinesOf(inCell: boolean): fc.Arbitrary<PhrasingContent[]> {
  const codeText = spaced.filter((w) => !w.includes('\n') && !(inCell && w.includes('\\|')));
  const pieces: fc.Arbitrary<Inline[]>[] = [
    fc.tuple(gap, spaced).map(([g, w]): Inline[] => [g, w]),
    ids.map((id): Inline[] => [' ', cite(id), ' ']),
    spaced.map((w): Inline[] => [' ', strong(w), ' ']),
    spaced.map((w): Inline[] => [' ', emphasis(w), ' ']),
    codeText.map((w): Inline[] => [' ', inlineCode(w), ' ']),
    fc
      .tuple(fc.constantFrom(...URLS), spaced)
      .map(([url, w]): Inline[] => [' ', link(url, w), ' ']),
  ];
  if (!inCell)
    pieces.push(fc.tuple(spaced, spaced).map(([a, b]): Inline[] => [a, { type: 'break' }, b]));
  return fc
    .tuple(spaced, fc.array(fc.oneof(...pieces), { maxLength: 4 }), gap, spaced)
    .map(([first, rest, g, last]) => phrasing([first, ...rest.flat(), g, last]));
}

const inlines = inlinesOf(false);
const cellInlines = inlinesOf(true);

const para = inlines.map((content) => paragraph(...content));
const codeBlock = fc
  .tuple(
    fc.constantFrom(null, 'json', 'ts', 'mermaid'),
    fc.array(words, { minLength: 1, maxLength: 3 }),
  )
  .map(([lang, lines]) => code(lang, lines.join('\n')));
/** A list whose items may be task-list items and may hold a list, `depth` levels down. */
function listOf(depth: number): fc.Arbitrary<List> {
  const item = fc
    .tuple(
      inlines,
      fc.constantFrom(undefined, undefined, true, false),
      depth > 0 ? fc.option(listOf(depth - 1), { freq: 3 }) : fc.constant(null),
    )
    .map(([content, checked, inner]) =>
      listItem([paragraph(...content), ...(inner ? [inner] : [])], checked),
    );
  return fc
    .tuple(fc.array(item, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([items, ordered]) => list(items, { ordered }));
}
const bullets = listOf(1);
const plainTable = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.constant(0), { maxLength: 3 }))
  .chain(([columns, rows]) =>
    fc.tuple(
      fc.array(cellInlines, { minLength: columns, maxLength: columns }),
      fc.array(fc.array(cellInlines, { minLength: columns, maxLength: columns }), {
        minLength: rows.length,
        maxLength: rows.length,
      }),
    ),
  )
  .map(([headers, rows]) => table(headers, rows));
const quote = fc
  .array(fc.oneof(para, bullets, codeBlock), { minLength: 1, maxLength: 2 })
  .map((children) => blockquote(children));
const block = fc.oneof(para, codeBlock, bullets, plainTable, quote);

const priorities = fc.constantFrom(undefined, 'must', 'should', 'could', 'wont') as fc.Arbitrary<
  'must' | 'should' | 'could' | 'wont' | undefined
>;
/** Gherkin steps: a keyword, then inline content. */
const steps = fc.array(
  fc.tuple(
    fc.constantFrom('Given', 'When', 'Then', 'And', 'But') as fc.Arbitrary<StepKeyword>,
    inlines,
  ),
  { maxLength: 4 },
);
const requirementGroup = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    words,
    priorities,
    fc.array(inlines, { maxLength: 3 }),
    fc.array(block, { maxLength: 2 }),
    // Criteria as scenarios (a gherkin project's) rather than sentences, with their steps.
    fc.option(fc.array(fc.tuple(words, steps), { minLength: 1, maxLength: 3 })),
  )
  .map(([n, title, priority, criteria, body, scenarios]) =>
    requirement({
      id: `FR-${n}`,
      title,
      ...(priority ? { priority } : {}),
      body: [
        ...body,
        ...(scenarios
          ? [
              list(
                scenarios.map(([name, written], m) =>
                  scenario(
                    `FR-${n}.${m + 1}`,
                    name,
                    written.map(([keyword, content]) => [keyword, ...content] as const),
                  ),
                ),
              ),
            ]
          : criteria.map((content, m) => criterion(`FR-${n}.${m + 1}`, ...content))),
      ],
    }),
  );
const userStory = fc
  .tuple(fc.integer({ min: 1, max: 9 }), words, priorities, fc.array(block, { maxLength: 2 }))
  .map(([n, title, priority, body]) =>
    story({ id: `US-${n}`, title, ...(priority ? { priority } : {}), body }),
  );
const tasks = fc
  .array(
    fc.tuple(cellInlines, fc.array(ids, { maxLength: 2 }), fc.array(ids, { maxLength: 2 }), words),
    { minLength: 1, maxLength: 3 },
  )
  .map((rows) =>
    taskTable(
      rows.map(([content, implemented, depends, estimate], index) =>
        task({
          id: `T-${index + 1}`,
          task: content,
          implements: [...new Set(implemented)],
          dependsOn: [...new Set(depends)],
          estimate,
        }),
      ),
    ),
  );
/** A brief's register: risks, goals, assumptions or open questions, one prefix a table. */
const register = fc
  .tuple(
    fc.constantFrom(['R', 'Risk'], ['G', 'Goal'], ['A', 'Assumption'], ['Q', 'Question']),
    fc.array(cellInlines, { minLength: 1, maxLength: 3 }),
  )
  .map(([[prefix, column], rows]) =>
    table(
      ['ID', column],
      rows.map((content, i) => registerEntry(`${prefix}-${i + 1}`, [content])),
    ),
  );
const nfrs = fc
  .array(inlines, { minLength: 1, maxLength: 2 })
  .map((rows) => rows.map((content, i) => nfr(`NFR-${i + 1}`, ...content)));
const components = fc
  .array(fc.tuple(words, fc.array(block, { maxLength: 2 })), { minLength: 1, maxLength: 2 })
  .map((parts): RootContent[] => [
    heading(2, 'Components'),
    ...parts.map(([name, body]) => component(name, body as FlowContent[])),
  ]);

/** A `##` part: its heading, plain blocks, then sections that run to the next `##`. */
const part = fc
  .tuple(
    words.filter((w) => !/^components$/i.test(w)),
    fc.array(fc.oneof(block, register, tasks), { maxLength: 3 }),
    nfrs,
    fc.array(fc.oneof(requirementGroup, userStory), { maxLength: 2 }),
  )
  .map(([title, blocks, nfrList, sections]): RootContent[] => [
    heading(2, title),
    ...blocks,
    ...nfrList,
    ...sections,
  ]);

const documents = fc
  .tuple(words, fc.array(fc.oneof(part, components), { minLength: 1, maxLength: 3 }))
  .map(([title, parts]) => root([heading(1, title), ...parts.flat()]));

describe('parseDocument(renderDocument(tree))', () => {
  it('is the tree again, for trees with hostile text', () => {
    fc.assert(
      fc.property(documents, (tree) => {
        const markdown = renderDocument(tree);
        expect(withoutPositions(parseDocument(markdown))).toEqual(withoutPositions(tree));
      }),
      { numRuns: 300 },
    );
  });
});

/** Text as `safe` writes it with every unsafe pattern, which the renderer filters by character. */
const everyPattern: Handle = (node, parent, state, info) => {
  const index = state.indexStack.at(-1) ?? 0;
  const written = state.safe(node.value, {
    ...info,
    afterNode: parent?.children[index + 1],
    beforeNode: parent?.children[index - 1],
    encode: ['<'],
  });
  return parent?.type === 'tableCell' ? cellEdges(written, index, parent.children.length) : written;
};

describe('renderDocument', () => {
  it('escapes text as it would with every unsafe pattern tried', () => {
    const extensions = [...(RENDER_OPTIONS.extensions ?? []), { handlers: { text: everyPattern } }];
    fc.assert(
      fc.property(documents, (tree) => {
        expect(renderDocument(tree)).toBe(toMarkdown(tree, { ...RENDER_OPTIONS, extensions }));
      }),
      { numRuns: 300 },
    );
  });
});

/** The property's shrunk counterexamples, each a bug of the writer or the reader once. */
describe('parseDocument(renderDocument(tree)), found by the property', () => {
  const again = (tree: ReturnType<typeof root>) =>
    expect(withoutPositions(parseDocument(renderDocument(tree)))).toEqual(withoutPositions(tree));

  it('keeps what GFM would autolink as text: escapes are not dropped before the autolink reader', () => {
    again(root([heading(3, 'www.a.co|'), paragraph('see https://a.co or a@b.co')]));
  });

  it('keeps spaces and tabs at a cell’s ends, and a backslash before them', () => {
    again(
      root([
        table(
          ['ID', 'Task'],
          [
            ['a a\t', ' b'],
            ['| a', 'a \\ '],
          ],
        ),
      ]),
    );
  });

  it('reads two lists in a block quote as tight, as it does at the top level', () => {
    again(root([blockquote([list(['| a']), list(['a a'])])]));
  });

  it('leaves no mark of an escape in a destination, a title or an alt', () => {
    const [first] = parseDocument('[a](x\\.y\\-1 "t\\:") ![b\\@c](z)').children;
    expect(first).toMatchObject({
      children: [{ url: 'x.y-1', title: 't:' }, { value: ' ' }, { alt: 'b@c' }],
    });
  });

  it('keeps a link whose destination opens with `<`', () => {
    again(root([paragraph('a ', link('<x>', 'a'), '  |')]));
  });
});

describe('renderDocument, on script schemes in text', () => {
  it('escapes the colon of a script scheme, any case, and reads the text back unchanged', () => {
    const tree = root([paragraph('open JavaScript: alert(1), vbscript :x and data:text/html,<b>')]);
    const markdown = renderDocument(tree);
    expect(markdown).toContain('JavaScript\\:');
    expect(markdown).toContain('vbscript \\:');
    expect(markdown).toContain('data\\:text/html');
    expect(markdown).not.toMatch(/(?:javascript|vbscript|data)\s*:/i);
    expect(withoutPositions(parseDocument(markdown))).toEqual(withoutPositions(tree));
  });

  it('leaves a colon after "data" that no media type follows: a label, not a scheme', () => {
    expect(renderDocument(root([paragraph('Data: PostgreSQL')]))).toBe('Data: PostgreSQL\n');
  });
});
