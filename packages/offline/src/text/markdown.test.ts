import { parseDocument } from '@pgs/contract/document';
import type { Table } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { ic, table } from './markdown.ts';

describe('table', () => {
  it('keeps a pipe of a cell as a pipe, in code too, and the row its columns', () => {
    const markdown = table(['Name', 'Use'], [['TCP | UDP', `${ic('a|b')} over\nlines`]]);
    const parsed = parseDocument(markdown).children[0] as Table;
    expect(parsed.children[1]?.children.map((cell) => plainText(cell))).toEqual([
      'TCP | UDP',
      'a|b over lines',
    ]);
  });
});
