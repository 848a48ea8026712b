import fc from 'fast-check';
import type { PhrasingContent, RootContent } from 'mdast';
import { type Handle, toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
import {
  cite,
  code,
  component,
  criterion,
  emphasis,
  type FlowContent,
  heading,
  type Inline,
  inlineCode,
  list,
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

/** Characters that markdown reads as markup, and text from other scripts. */
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
]);

/** A run of words, hostile characters among letters, with single spaces and no space at either end. */
const words = fc
  .array(
    fc
      .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.constantFrom('a', 'b', 'x', 'Z', '7')), {
        minLength: 1,
        maxLength: 4,
      })
      .map((parts) => parts.join('').trim())
      .filter((word) => word !== '' && !/\s/.test(word)),
    { minLength: 1, maxLength: 5 },
  )
  .map((list) => list.join(' '));

const ids = fc.constantFrom('FR-1', 'FR-2.1', 'NFR-3', 'US-2', 'T-4', 'G-1', 'R-2', 'A-3', 'Q-1');

/** Inline content that opens with text, so it never opens with an ID (which would define one). */
const inlines: fc.Arbitrary<PhrasingContent[]> = fc
  .tuple(
    words,
    fc.array(
      fc.oneof(
        words.map((w): Inline[] => [' ', w]),
        ids.map((id): Inline[] => [' ', cite(id), ' ']),
        words.map((w): Inline[] => [' ', strong(w), ' ']),
        words.map((w): Inline[] => [' ', emphasis(w), ' ']),
        // GFM cannot write a code span holding `\|` in a table cell (the cell's `\|` is its
        // pipe), so code spans here never hold one.
        words.filter((w) => !w.includes('\\|')).map((w): Inline[] => [' ', inlineCode(w), ' ']),
      ),
      { maxLength: 4 },
    ),
    words,
  )
  .map(([first, rest, last]) => phrasing([first, ...rest.flat(), ' ', last]));

const para = inlines.map((content) => paragraph(...content));
const codeBlock = fc
  .tuple(
    fc.constantFrom(null, 'json', 'ts', 'mermaid'),
    fc.array(words, { minLength: 1, maxLength: 3 }),
  )
  .map(([lang, lines]) => code(lang, lines.join('\n')));
const bullets = fc
  .tuple(fc.array(inlines, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([items, ordered]) => list(items, { ordered }));
const plainTable = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.constant(0), { maxLength: 3 }))
  .chain(([columns, rows]) =>
    fc.tuple(
      fc.array(inlines, { minLength: columns, maxLength: columns }),
      fc.array(fc.array(inlines, { minLength: columns, maxLength: columns }), {
        minLength: rows.length,
        maxLength: rows.length,
      }),
    ),
  )
  .map(([headers, rows]) => table(headers, rows));
const block = fc.oneof(para, codeBlock, bullets, plainTable);

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
    fc.tuple(inlines, fc.array(ids, { maxLength: 2 }), fc.array(ids, { maxLength: 2 }), words),
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
const register = fc.array(inlines, { minLength: 1, maxLength: 3 }).map((rows) =>
  table(
    ['ID', 'Risk'],
    rows.map((content, i) => registerEntry(`R-${i + 1}`, [content])),
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
  return state.safe(node.value, {
    ...info,
    afterNode: parent?.children[index + 1],
    beforeNode: parent?.children[index - 1],
    encode: ['<'],
  });
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
