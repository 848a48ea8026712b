import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import {
  cite,
  citedIds,
  componentsOf,
  criterion,
  definitionsOf,
  emphasis,
  escapeIds,
  heading,
  idsIn,
  list,
  listItem,
  paragraph,
  parseDocument,
  renderDocument,
  requirement,
  root,
  table,
  task,
  taskTable,
  withoutPositions,
} from './index.ts';

const ids = (tree: Root) =>
  definitionsOf(tree).map((node) => `${node.id}:${node.type}:${node.form}`);

describe('parseDocument', () => {
  it('wraps each definition in its PGS node, by the form it is written in', () => {
    const tree = parseDocument(
      [
        '### FR-1 Reminders (Must)',
        'Statement citing G-1.',
        '**FR-1.1** WHEN a visit is due THE SYSTEM SHALL send one SMS.',
        '- T-2 Write the tests (FR-1.1)',
        '| ID | Risk |\n| --- | --- |\n| R-1 | SMS fails |',
      ].join('\n\n'),
    );
    expect(ids(tree)).toEqual([
      'FR-1:requirement:section',
      'FR-1.1:criterion:paragraph',
      'T-2:task:item',
      'R-1:registerEntry:row',
    ]);
    const [group] = definitionsOf(tree, 'requirement');
    expect(group).toMatchObject({ title: 'Reminders', priority: 'must', cites: ['G-1'] });
    expect(definitionsOf(tree, 'task')[0]).toMatchObject({ implements: ['FR-1.1'], dependsOn: [] });
    expect(definitionsOf(tree, 'registerEntry')[0]).toMatchObject({
      register: 'risk',
      title: 'SMS fails',
    });
  });

  it('ends a section at the next heading as high, and nests what is under it', () => {
    const tree = parseDocument(
      '## A\n\n### FR-1 One\n\n#### Notes\n\nText\n\n### FR-2 Two\n\n## B\n\nAfter',
    );
    expect(tree.children.map((node) => node.type)).toEqual([
      'heading',
      'requirement',
      'requirement',
      'heading',
      'paragraph',
    ]);
    expect((tree.children[1] as { children: unknown[] }).children).toHaveLength(3);
  });

  it('defines only the prefixes the filename owns', () => {
    const row = '| FR | Component |\n| --- | --- |\n| FR-2 | Reminder worker |';
    expect(definitionsOf(parseDocument(row, { filename: 'ARCHITECTURE.md' }))).toEqual([]);
    expect(ids(parseDocument(row, { filename: 'PRODUCT_REQUIREMENTS.md' }))).toEqual([
      'FR-2:requirement:row',
    ]);
    expect(ids(parseDocument('- T-1 Set up', { filename: 'notes.md', defines: ['T'] }))).toEqual([
      'T-1:task:item',
    ]);
  });

  it('reads no ID in code, inline code, HTML or escaped text', () => {
    const tree = parseDocument(
      'Uses `FR-7`, US\\-1 and FR-2.\n\n```text\nT-8\n```\n\n<!-- Q-9 -->',
    );
    expect(citedIds(tree)).toEqual(['FR-2']);
    expect(idsIn('Depends on T-1, T-2 and FR-3.1 (FR‑4).')).toEqual(['T-1', 'T-2', 'FR-3.1']);
  });

  it('escapes the IDs of user text so they read back as text', () => {
    const escaped = escapeIds('Forms for T-1 visas and US-2, `T-3` kept');
    expect(escaped).toBe('Forms for T\\-1 visas and US\\-2, `T-3` kept');
    expect(citedIds(parseDocument(escaped))).toEqual([]);
    expect(escapeIds(escaped)).toBe(escaped);
  });

  it('reads the plan’s columns into a task’s fields', () => {
    const plan = parseDocument(
      '| ID | Task | Implements | Depends on | Estimate |\n| --- | --- | --- | --- | --- |\n| T-4 | Build until T-3 passes | FR-1 | T-3, T-2 | 3 d |',
      { filename: 'IMPLEMENTATION_PLAN.md' },
    );
    expect(definitionsOf(plan, 'task')[0]).toMatchObject({
      id: 'T-4',
      title: 'Build until T-3 passes',
      implements: ['FR-1'],
      dependsOn: ['T-3', 'T-2'],
      estimate: '3 d',
    });
  });

  it('finds the architecture’s components and what they implement', () => {
    const tree = parseDocument(
      '## Components\n\n### Booking service\n\nImplements: FR-1, FR-2.1\n\n## Data flow\n\n### Not a component\n',
      { filename: 'ARCHITECTURE.md' },
    );
    expect(componentsOf(tree).map((c) => [c.name, c.implements])).toEqual([
      ['Booking service', ['FR-1', 'FR-2.1']],
    ]);
    expect(
      componentsOf(parseDocument('## Components\n\n### X\n', { filename: 'README.md' })),
    ).toEqual([]);
  });
});

describe('renderDocument', () => {
  it('writes hostile text so that it reads back as text', () => {
    const tree = root([
      heading(1, 'Plan: <b>x</b> *y*'),
      paragraph('User said "US-1 | T-2" ```js'),
      table(['Name', 'Use'], [['a | b', '`tick` and **not bold**']]),
    ]);
    const markdown = renderDocument(tree);
    expect(markdown).toContain('US\\-1');
    expect(markdown).toContain('a \\| b');
    const back = parseDocument(markdown);
    expect(citedIds(back)).toEqual([]);
    expect(withoutPositions(back)).toEqual(tree);
  });

  it('writes definitions built in code as the parser reads them', () => {
    const tree = root([
      heading(2, 'Functional requirements'),
      requirement({
        id: 'FR-1',
        title: 'Share | export',
        priority: 'should',
        body: [criterion('FR-1.1', 'THE SYSTEM SHALL export.')],
      }),
      heading(2, 'Tasks'),
      taskTable([
        task({ id: 'T-1', task: 'Export', implements: ['FR-1.1'], dependsOn: [], estimate: '1 d' }),
      ]),
    ]);
    const markdown = renderDocument(tree);
    expect(markdown).toContain('### FR-1 Share | export (Should)');
    expect(markdown).toContain('**FR-1.1** THE SYSTEM SHALL export.');
    expect(markdown).toContain('| T-1 | Export | FR-1.1 | none | 1 d |');
    expect(withoutPositions(parseDocument(markdown))).toEqual(tree);
  });

  it('writes a table’s delimiter cells as three dashes, its alignment kept', () => {
    const grid = { ...table(['A', 'B', 'C'], [['1', '2', '3']]), align: ['left', 'center', null] };
    const markdown = renderDocument(root([grid as Root['children'][number]]));
    expect(markdown).toBe('| A | B | C |\n| :--- | :---: | --- |\n| 1 | 2 | 3 |\n');
    expect(withoutPositions(parseDocument(markdown))).toEqual(
      root([grid as Root['children'][number]]),
    );
  });

  it('writes the text after a task-list box as what follows a space, escaped only where it must be', () => {
    const tree = root([
      list([
        listItem([paragraph('1. Set up')], false),
        listItem([paragraph('# 2 ', cite('T-1'))], true),
        listItem([paragraph('1. not boxed')]),
      ]),
    ]);
    const markdown = renderDocument(tree);
    expect(markdown).toBe('- [ ] 1. Set up\n- [x] # 2 T-1\n- 1\\. not boxed\n');
    expect(withoutPositions(parseDocument(markdown))).toEqual(tree);
  });

  it('writes emphasis with the marker asked for, `*` unless told', () => {
    const tree = root([paragraph(emphasis('Requirements: ', cite('FR-1.1')))]);
    expect(renderDocument(tree)).toBe('*Requirements: FR-1.1*\n');
    expect(renderDocument(tree, { emphasis: '_' })).toBe('_Requirements: FR-1.1_\n');
  });
});
