import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sectionsOf } from './sections.ts';

describe('sectionsOf', () => {
  it('cuts at level-2 headings only, never inside a code block', () => {
    expect(sectionsOf('# T\n\nIntro\n## A\n\n```\n## not a heading\n```\n## B\n\ntext')).toEqual([
      '# T\n\nIntro',
      '## A\n\n```\n## not a heading\n```',
      '## B\n\ntext',
    ]);
    expect(sectionsOf('## First\n\nA\n\n### Sub\n\nB')).toEqual(['## First\n\nA\n\n### Sub\n\nB']);
  });

  it('gives the document back when joined, and cuts where a line split would on plain sections', () => {
    const section = fc
      .array(fc.constantFrom('text', '- item', '### Sub', '| a | b |', 'x ## y'), { maxLength: 4 })
      .map((lines) => lines.join('\n\n'));
    fc.assert(
      fc.property(fc.array(section, { minLength: 1, maxLength: 5 }), (bodies) => {
        const doc = bodies.map((body, i) => `## S${i}\n\n${body}`).join('\n');
        expect(sectionsOf(doc).join('\n')).toBe(doc);
        expect(sectionsOf(doc)).toEqual(doc.split(/\n(?=## )/));
      }),
    );
  });
});
