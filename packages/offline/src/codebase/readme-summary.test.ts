import { describe, expect, it } from 'vitest';
import { readmeSummary } from './readme-summary.ts';

describe('readmeSummary', () => {
  it('skips headings, badges, HTML, comments, code and lists for the first sentence of prose', () => {
    const readme = [
      '# Vetbook',
      '',
      '[![CI](https://ci.example/badge.svg)](https://ci.example) ![npm](https://npm.example/v.svg)',
      '',
      '<p align="center">',
      '  <img src="logo.png" alt="A logo with a long alternative text">',
      '</p>',
      '',
      '<!-- a comment',
      '',
      'that spans a blank line -->',
      '',
      '~~~sh',
      'echo "a fenced line of prose-like text"',
      '',
      'npm start',
      '~~~',
      '',
      '- a list item that reads as a sentence',
      '',
      'Appointments for a [two-vet clinic](https://vet.example), with `reminders`',
      'by SMS.',
    ].join('\n');
    expect(readmeSummary(readme)).toBe('Appointments for a two-vet clinic, with by SMS.');
  });

  it('finds nothing in a README of only a title and badges, and clips a long paragraph', () => {
    expect(readmeSummary('# Title\n\n![badge](b.svg)\n')).toBeUndefined();
    const long = readmeSummary(`${'word '.repeat(200)}`);
    expect(long).toHaveLength(498);
    expect(long?.endsWith('…')).toBe(true);
  });
});
