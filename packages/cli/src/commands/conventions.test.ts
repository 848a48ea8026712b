import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.ts';
import { conventionsBody, conventionsLines } from './conventions.ts';

describe('pgs conventions', () => {
  it('sends a markdown file as the markdown, a JSON file as the body', () => {
    expect(conventionsBody('CONVENTIONS.md', '# Our rules\n')).toEqual({
      markdown: '# Our rules\n',
    });
    expect(conventionsBody('c.JSON', '{"compliance":["GDPR"]}')).toEqual({ compliance: ['GDPR'] });
    // A PUT replaces the version: the markdown goes into the current members, not alone.
    const current = {
      version: 4,
      createdAt: '2026-11-28T18:00:00.000Z',
      stack: { required: ['PostgreSQL'] },
      compliance: ['GDPR'],
      language: 'de',
      markdown: '# Old rules\n',
    };
    expect(conventionsBody('CONVENTIONS.md', '# Our rules\n', current)).toEqual({
      stack: { required: ['PostgreSQL'] },
      compliance: ['GDPR'],
      language: 'de',
      markdown: '# Our rules\n',
    });
    expect(conventionsBody('c.json', '{"compliance":["SOC 2"]}', current)).toEqual({
      compliance: ['SOC 2'],
    });
    expect(() => conventionsBody('c.json', '{')).toThrow(UsageError);
    expect(() => conventionsBody('c.json', '["GDPR"]')).toThrow(/one JSON object/);
  });

  it('shows each member set, the markdown last', () => {
    const lines = conventionsLines({
      version: 3,
      createdAt: '2026-11-28T18:00:00.000Z',
      stack: { required: ['PostgreSQL'] },
      language: 'de',
      sections: [{ title: 'Observability', content: 'Traces.' }],
      markdown: 'We ship on Fridays.',
    });
    expect(lines).toEqual([
      'House conventions, version 3 (2026-11-28T18:00:00.000Z)',
      '  Required stack: PostgreSQL',
      '  Language: de',
      '  Sections: Observability',
      '',
      'We ship on Fridays.',
    ]);
  });
});
