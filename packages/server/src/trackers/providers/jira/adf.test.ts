import { describe, expect, it } from 'vitest';
import { itemMarker, readMarker } from '../provider.ts';
import { jiraDocumentText, markdownToJiraDocument } from './adf.ts';

const PROJECT = '123e4567-e89b-12d3-a456-426614174000';

describe('markdown to ADF for Jira', () => {
  const body = [
    '## T-3 Build the booking form',
    '',
    'See [the spec](https://pgs.example/p/1) and `POST /bookings`.',
    '',
    '- [ ] FR-1.1 a slot is chosen',
    '- [x] FR-1.2 a name is given',
    '',
    '```ts',
    'const slot = pick();',
    '```',
    '',
    itemMarker(PROJECT, 'T-3'),
    '',
  ].join('\n');
  const doc = markdownToJiraDocument(body);

  it('gives a version 1 document of headings, paragraphs, task lists, links and code', () => {
    expect(doc).toMatchObject({ type: 'doc', version: 1 });
    expect(doc.content.map((node) => node.type)).toEqual([
      'heading',
      'paragraph',
      'taskList',
      'codeBlock',
      'paragraph',
    ]);
    expect(doc.content[0]).toMatchObject({ attrs: { level: 2 } });
    const inline = doc.content[1]!.content!;
    expect(inline.find((node) => node.text === 'the spec')?.marks).toEqual([
      { type: 'link', attrs: { href: 'https://pgs.example/p/1' } },
    ]);
    expect(inline.find((node) => node.text === 'POST /bookings')?.marks).toEqual([
      { type: 'code' },
    ]);
    const states = doc.content[2]!.content!.map((item) => item.attrs?.state);
    expect(states).toEqual(['TODO', 'DONE']);
    expect(doc.content[3]).toMatchObject({ attrs: { language: 'ts' } });
  });

  it('keeps the item marker as a plain-text paragraph that reads back', () => {
    expect(doc.content.at(-1)).toEqual({
      type: 'paragraph',
      content: [{ type: 'text', text: `pgs:project=${PROJECT} item=T-3` }],
    });
    expect(JSON.stringify(doc)).not.toContain('<!--');
    expect(readMarker(jiraDocumentText(doc))).toEqual({ projectId: PROJECT, itemId: 'T-3' });
  });

  it("takes a marker quoted in a code block for code, not for the issue's marker", () => {
    const quoted = markdownToJiraDocument(
      ['```html', itemMarker(PROJECT, 'T-9'), '```', '', itemMarker(PROJECT, 'T-3')].join('\n'),
    );
    expect(quoted.content.map((node) => node.type)).toEqual(['codeBlock', 'paragraph']);
    expect(quoted.content[0]!.content![0]!.text).toBe(itemMarker(PROJECT, 'T-9'));
    expect(quoted.content[1]!.content![0]!.text).toBe(`pgs:project=${PROJECT} item=T-3`);
  });

  it('reads text block by block, so a heading does not run into the next paragraph', () => {
    const text = jiraDocumentText(doc);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'T-3 Build the booking form',
      'See the spec and POST /bookings.',
      'FR-1.1 a slot is chosen',
      'FR-1.2 a name is given',
    ]);
  });

  it('gives an empty body one empty paragraph, and unknown shapes no text', () => {
    expect(markdownToJiraDocument('')).toEqual({
      type: 'doc',
      version: 1,
      content: [{ type: 'paragraph', content: [] }],
    });
    expect(jiraDocumentText(null)).toBe('');
    expect(jiraDocumentText({ type: 'doc' })).toBe('');
    expect(jiraDocumentText('plain wiki text')).toBe('plain wiki text');
  });

  it('keeps a paragraph’s lines apart with hard breaks, as GitHub shows them', () => {
    const lines = markdownToJiraDocument(
      '**Phase:** build\n**Requirements:** FR-1\n\n- [ ] a\n- [ ] b',
    );
    expect(lines.content[0]).toEqual({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Phase:', marks: [{ type: 'strong' }] },
        { type: 'text', text: ' build' },
        { type: 'hardBreak' },
        { type: 'text', text: 'Requirements:', marks: [{ type: 'strong' }] },
        { type: 'text', text: ' FR-1' },
      ],
    });
    expect(jiraDocumentText(lines).split('\n').slice(0, 2)).toEqual([
      'Phase: build',
      'Requirements: FR-1',
    ]);
    expect(lines.content[1]?.type).toBe('taskList');
    const fenced = markdownToJiraDocument('```\nline one\nline two\n```');
    expect(fenced.content[0]).toMatchObject({
      type: 'codeBlock',
      content: [{ text: 'line one\nline two' }],
    });
  });

  it('gives spec text no way to embed raw ADF', () => {
    const injected = '<adf>{"type":"mention","attrs":{"id":"all"}}</adf>\n\n<ADF>{not json</ADF>';
    const doc = markdownToJiraDocument(injected);
    expect(JSON.stringify(doc)).not.toContain('"mention"');
    expect(jiraDocumentText(doc)).toContain('<adf>{"type":"mention"');
  });
});
