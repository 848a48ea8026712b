import {
  citedIds,
  definitionsOf,
  inertText,
  parseDocument,
  renderDocument,
  root,
} from '@pgs/contract/document';
import type { Table } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { documentRequests } from '../../test/plan.ts';
import { defineProject, writeDocument } from '../index.ts';
import {
  bullets,
  checklist,
  definingTable,
  fragment,
  ic,
  listingOf,
  p,
  t,
  table,
} from './nodes.ts';

describe('fragment', () => {
  it('cites the IDs the engine writes and keeps a user’s quoted ID as text', () => {
    expect(fragment('Reminders (FR-2.1)').map((node) => node.type)).toEqual([
      'text',
      'idRef',
      'text',
    ]);
    const quoted = fragment(inertText('Forms for T-1 visas <b>now</b>'));
    expect(quoted.map((node) => node.type)).toEqual(['text']);
    expect(plainText({ type: 'paragraph', children: quoted })).toBe(
      'Forms for T-1 visas <b>now</b>',
    );
  });

  it('reads what a user wrote as code as code, and keeps the spaces around a fragment', () => {
    expect(fragment(' run `npm test` ')).toEqual([
      { type: 'text', value: ' run ' },
      { type: 'inlineCode', value: 'npm test' },
      { type: 'text', value: ' ' },
    ]);
  });
});

describe('the builders', () => {
  it('write user text with pipes, backticks and IDs so it reads back as the same text', () => {
    const hostile = inertText('TCP | UDP `a|b` for US-1 *now*');
    const markdown = renderDocument(
      root([
        p`Serves ${'FR-1'}: ${hostile}`,
        table(['Name', 'Use'], [[hostile, t`${ic('x|y')} (NFR-2)`]]),
      ]),
    );
    expect(markdown).toContain('US\\-1');
    const back = parseDocument(markdown);
    expect(citedIds(back)).toEqual(['FR-1', 'NFR-2']);
    const cells = (back.children[1] as Table).children[1]!.children.map((cell) => plainText(cell));
    expect(cells).toEqual(['TCP | UDP a|b for US-1 now', 'x|y (NFR-2)']);
  });

  it('writes lists as the engine always has: bullets, open checkboxes, sentences', () => {
    const markdown = renderDocument(
      root([
        bullets([t`One ${listingOf(['a', ic('b'), 'c'])}`]),
        p`Then:`,
        checklist([t`Every Must requirement passes (FR-1)`]),
      ]),
    );
    expect(markdown).toBe(
      '- One a, `b` and c\n\nThen:\n\n- [ ] Every Must requirement passes (FR-1)\n',
    );
  });

  it('makes the rows a table defines into definitions, fields read from their cells', () => {
    const grid = definingTable(
      ['ID', 'Task', 'Implements', 'Depends on', 'Estimate'],
      [['T-2', 'Build it', 'FR-1.1, FR-1.2', 'T-1', '2 d']],
    );
    const [task] = definitionsOf(root([grid]), 'task');
    expect(task).toMatchObject({ id: 'T-2', implements: ['FR-1.1', 'FR-1.2'], dependsOn: ['T-1'] });
    expect(renderDocument(root([grid]))).toContain(
      '| T-2 | Build it | FR-1.1, FR-1.2 | T-1 | 2 d |',
    );
  });
});

describe('documents built as trees', () => {
  it('cite only the engine’s IDs, whatever the idea quotes', () => {
    const idea =
      'A web app for vets | clinics to send `T-9` reminders, see US-77 and FR-99.9, <b>bold</b> *stars*';
    const definition = defineProject({ idea, type: 'web' });
    for (const document of documentRequests('web')) {
      const markdown = writeDocument({ idea, definition, document, related: [] });
      expect(markdown, document.kind).not.toContain('[object Object]');
      const cited = citedIds(parseDocument(markdown, { filename: document.filename }));
      for (const quoted of ['US-77', 'FR-99.9']) expect(cited, document.kind).not.toContain(quoted);
    }
  });
});
