import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { readContext } from '../../../test/helpers/prompt-context.ts';
import type { ProjectDefinition } from '../../models/context.ts';
import { documentPlan } from '../catalogue.ts';
import {
  citableIds,
  documentPrompt,
  type EarlierDocument,
  fitToBudget,
  outputAllowance,
} from './render.ts';

const definition: ProjectDefinition = {
  name: 'MentorLoop',
  description: 'A marketplace where junior designers book paid sessions with senior mentors.',
  type: 'web',
  questionnaire: {
    targetAudience:
      'Junior product designers in their first two years who want portfolio feedback.',
    monetization: '15% commission on each booked session',
    techStack: ['TypeScript', 'Next.js', 'PostgreSQL', 'Stripe Connect'],
    platforms: ['Web'],
    coreFeatures: ['Book a session with a mentor', 'Pay out mentors weekly', 'Review a portfolio'],
    constraints: ['PCI scope stays with Stripe'],
    successMetrics: ['40% of mentees book a second session within 30 days'],
  },
};

const section = (title: string, words: number) =>
  `## ${title}\n\n${Array.from({ length: words }, (_, i) => `word${i}`).join(' ')}\n`;
const doc = (kind: string, priority: number, sections: number, words = 200): EarlierDocument => ({
  kind,
  title: kind,
  filename: `${kind}.md`,
  priority,
  content: `# ${kind}\n\n${Array.from({ length: sections }, (_, i) => section(`S${i}`, words)).join('\n')}`,
});

describe('fitToBudget', () => {
  it('keeps everything that fits, in the order given', () => {
    const docs = [doc('a', 2, 2), doc('b', 0, 2)];
    const { kept, trimmed } = fitToBudget(docs, 100_000);
    expect(kept.map((d) => d.kind)).toEqual(['a', 'b']);
    expect(trimmed).toEqual([]);
  });

  it('cuts the least important first, at a section boundary, and leaves out what no longer fits', () => {
    const important = doc('important', 0, 3);
    const middle = doc('middle', 1, 3);
    const least = doc('least', 2, 3);
    const budget = countTokens(important.content) + Math.floor(countTokens(middle.content) / 2);
    const { kept, trimmed } = fitToBudget([least, middle, important], budget);
    expect(kept.map((d) => [d.kind, d.cut])).toEqual([
      ['middle', true],
      ['important', false],
    ]);
    expect(trimmed).toEqual(['middle', 'least']);
    const cut = kept.find((d) => d.kind === 'middle')!;
    expect(middle.content.startsWith(cut.content)).toBe(true);
    expect(cut.content.trimEnd().endsWith('word199')).toBe(true);
    expect(kept.reduce((n, d) => n + countTokens(d.content), 0)).toBeLessThanOrEqual(budget);
  });
});

describe('documentPrompt', () => {
  const plan = documentPlan('web');
  const architecture = plan.find((d) => d.kind === 'architecture')!;
  const requirements = `# Product Requirements: MentorLoop\n\n## Functional requirements\n\n### FR-1 Book (Must)\n\n**FR-1.1** WHEN a slot is picked THE SYSTEM SHALL hold it.\n\n### FR-2 Pay (Should)\n\n**FR-2.1** THE SYSTEM SHALL pay monthly.\n\n## Non-functional requirements\n\n**NFR-1** Fast.\n`;

  it('carries the earlier documents in full, the project as a readable context block, every section and the citable IDs', () => {
    const rendered = documentPrompt({
      idea: 'A mentoring marketplace',
      definition,
      document: architecture,
      earlier: [
        {
          kind: 'product-requirements',
          title: 'Product Requirements',
          filename: 'PRODUCT_REQUIREMENTS.md',
          content: requirements,
          priority: 0,
        },
      ],
    });
    expect(rendered.prompt).toContain(requirements.trim());
    for (const heading of architecture.sections)
      expect(rendered.prompt).toContain(`"## ${heading}"`);
    expect(rendered.prompt).toContain('FR-1, FR-1.1, FR-2, FR-2.1, NFR-1');
    expect(rendered.prompt.indexOf(requirements.trim())).toBeLessThan(
      rendered.prompt.indexOf('Write the Architecture'),
    );
    expect(readContext(rendered.prompt)).toMatchObject({
      task: 'document',
      document: { kind: 'architecture' },
    });
    expect(rendered.version).toMatch(/^architecture@\d+\+system@\d+$/);
    expect(rendered.maxOutputTokens).toBeGreaterThan(1_000);
    expect(rendered.trimmed).toEqual([]);
  });

  it('is laid out for prompt caches: the shared project first, the earlier documents in catalogue order, the task last', () => {
    const brief = {
      kind: 'project-brief',
      title: 'Project Brief',
      filename: 'PROJECT_BRIEF.md',
      content: '# Project Brief: MentorLoop\n\n## Goals\n\n| G-1 | Book in one minute |',
      priority: 1,
    };
    const prd = {
      kind: 'product-requirements',
      title: 'Product Requirements',
      filename: 'PRODUCT_REQUIREMENTS.md',
      content: requirements,
      priority: 0,
    };
    const stories = plan.find((d) => d.kind === 'user-stories')!;
    const forStories = documentPrompt({
      idea: 'A mentoring marketplace',
      definition,
      document: stories,
      earlier: [brief, prd],
    });
    // With other priorities (what each builds on directly differs), the order stays the plan's.
    const forArchitecture = documentPrompt({
      idea: 'A mentoring marketplace',
      definition,
      document: architecture,
      earlier: [
        { ...brief, priority: 0 },
        { ...prd, priority: 1 },
      ],
    });
    const a = forStories.parts!;
    const b = forArchitecture.parts!;
    expect(a.map((p) => p.text).join('')).toBe(forStories.prompt);
    // Everything but the last part is the same words, in the same order, for both documents.
    expect(a.slice(0, -1)).toEqual(b.slice(0, -1));
    expect(a[0]!.text).toContain('The project, as settled in its definition');
    expect(a[1]!.text).toContain('<document kind="project-brief"');
    expect(a[2]!.text).toContain('<document kind="product-requirements"');
    // Cache breakpoints: after the shared project, and after the last earlier document.
    expect(a.map((p) => p.cache)).toEqual([true, false, true, false]);
    // Nothing about the document being written comes before its task.
    for (const part of a.slice(0, -1)) {
      expect(part.text).not.toContain('User Stories (USER_STORIES.md)');
      expect(part.text).not.toContain('"kind": "user-stories"');
    }
    // The offline engine reads the whole context back: the shared block and the task block.
    expect(readContext(forStories.prompt)).toMatchObject({
      task: 'document',
      idea: 'A mentoring marketplace',
      definition: { name: definition.name },
      document: { kind: 'user-stories' },
      related: [{ kind: 'project-brief' }, { kind: 'product-requirements' }],
    });
  });
});

describe('citableIds', () => {
  it('lists the IDs the documents define, in document order; mentions and other owners do not count', () => {
    const requirements = [
      '## Functional requirements',
      '',
      '### FR-1 Book a session (Must)',
      '',
      '**FR-1.1** WHEN a slot is picked THE SYSTEM SHALL hold it for 10 minutes.',
      '',
      '### FR-2 Pay a mentor (Should)',
      '',
      'Builds on US-7, which the stories define.',
      '',
      '**NFR-1** (Performance) p95 under 300 ms.',
    ].join('\n');
    const stories = '## Stories\n\n### US-1 Book (Must)\n\nCriteria: FR-1.1, FR-9.';
    expect(
      citableIds([
        { filename: 'PRODUCT_REQUIREMENTS.md', content: requirements },
        { filename: 'USER_STORIES.md', content: stories },
      ]),
    ).toEqual(['FR-1', 'FR-1.1', 'FR-2', 'NFR-1', 'US-1']);
  });
});

describe('detail levels in the prompt', () => {
  const plan = documentPlan('web');
  const requirements = plan.find((d) => d.kind === 'product-requirements')!;
  const at = (detail: 'brief' | 'standard' | 'deep') =>
    documentPrompt({
      idea: 'A mentoring marketplace',
      definition,
      document: requirements,
      earlier: [],
      detail,
    });

  it('asks a brief or a deep document for its length, with its allowance scaled; a standard one as before', () => {
    const standard = at('standard');
    expect(
      documentPrompt({
        idea: 'A mentoring marketplace',
        definition,
        document: requirements,
        earlier: [],
      }),
    ).toEqual(standard);
    expect(standard.prompt).not.toContain('Length:');
    expect(at('brief').prompt).toContain('Length: brief.');
    expect(at('deep').prompt).toContain('Length: deep.');
    expect(at('brief').maxOutputTokens).toBe(standard.maxOutputTokens / 2);
    expect(at('deep').maxOutputTokens).toBe(Math.min(16_000, standard.maxOutputTokens * 1.5));
    // The shared beginning is the same at every level: only the task differs.
    expect(at('brief').parts![0]).toEqual(standard.parts![0]);
    expect(readContext(at('brief').prompt)).toMatchObject({ detail: 'brief' });
    expect(readContext(standard.prompt)).not.toHaveProperty('detail');
    expect(outputAllowance(3_500, 'brief')).toBe(1_750);
    expect(outputAllowance(1_500, 'brief')).toBe(1_000);
  });
});
