import { describe, expect, it } from 'vitest';
import { documentPlan } from '../catalogue.ts';
import { digestOf, READS_AS_DIGEST } from './digest.ts';
import { documentPrompt, ID_DEFINERS } from './render.ts';

const REQUIREMENTS = [
  '# Product Requirements: MentorLoop',
  '',
  '## Functional requirements',
  '',
  '### FR-1 Book a session (Must)',
  '',
  '**FR-1.1** WHEN a mentee picks a free slot THE SYSTEM SHALL hold it for 10 minutes.',
  '',
  '### FR-2 Pay a mentor (Should)',
  '',
  '**FR-2.1** THE SYSTEM SHALL pay mentors monthly.',
  '',
  '## Non-functional requirements',
  '',
  '**NFR-1** (Performance) p95 under 300 ms for every page.',
  '',
].join('\n');

describe('digests of earlier documents', () => {
  it('lists the IDs a document defines with their titles, under their sections, and nothing else', () => {
    const digest = digestOf({ filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS });
    expect(digest.split('\n')).toEqual([
      '## Functional requirements',
      '- FR-1 (Must): Book a session',
      '- FR-1.1: WHEN a mentee picks a free slot THE SYSTEM SHALL hold it for 10 minutes',
      '- FR-2 (Should): Pay a mentor',
      '- FR-2.1: THE SYSTEM SHALL pay mentors monthly',
      '## Non-functional requirements',
      '- NFR-1: (Performance) p95 under 300 ms for every page',
    ]);
    expect(digest.length).toBeLessThan(REQUIREMENTS.length);
  });

  it('digests only documents that define IDs, and only ancestors of the reader', () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      const plan = documentPlan(type);
      for (const [reader, kinds] of Object.entries(READS_AS_DIGEST)) {
        for (const kind of kinds) expect(ID_DEFINERS[kind], `${reader} ← ${kind}`).toBeDefined();
        if (!plan.some((d) => d.kind === reader)) continue;
        const order = plan.map((d) => d.kind);
        for (const kind of kinds) {
          expect(order.indexOf(kind), `${type}: ${reader} ← ${kind}`).toBeLessThan(
            order.indexOf(reader),
          );
        }
      }
    }
  });

  it('is marked in the prompt, and its IDs stay citable', () => {
    const plan = documentPlan('web');
    const rendered = documentPrompt({
      idea: 'A mentoring marketplace',
      definition: {
        name: 'MentorLoop',
        description: 'Mentoring.',
        type: 'web',
        questionnaire: {
          targetAudience: 'Designers.',
          monetization: 'Fees.',
          techStack: [],
          platforms: [],
          coreFeatures: ['Book a session', 'Pay a mentor'],
          constraints: [],
          successMetrics: [],
        },
      },
      document: plan.find((d) => d.kind === 'implementation-plan')!,
      earlier: [
        {
          kind: 'product-requirements',
          title: 'Product Requirements',
          filename: 'PRODUCT_REQUIREMENTS.md',
          content: digestOf({ filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS }),
          priority: 0,
          digest: true,
        },
      ],
    });
    expect(rendered.prompt).toContain('filename="PRODUCT_REQUIREMENTS.md" digest="true"');
    expect(rendered.prompt).toContain(
      'IDs you may cite (defined in the documents above): FR-1, FR-1.1, FR-2, FR-2.1, NFR-1.',
    );
    expect(rendered.prompt).not.toContain('**FR-1.1**');
  });
});
