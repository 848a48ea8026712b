import { describe, expect, it } from 'vitest';
import { documentPlan } from '../catalogue.ts';
import { documentPrompt } from './render.ts';
import { revisionPrompt } from './revision.ts';
import { GHERKIN_SYSTEM } from './style.ts';

const definition = {
  name: 'VetBook',
  description: 'Vaccine reminders for clinics.',
  type: 'web' as const,
  questionnaire: {
    targetAudience: 'Small veterinary clinics',
    monetization: 'Subscription',
    techStack: [],
    platforms: ['web'],
    coreFeatures: ['Send vaccine reminders by SMS'],
    constraints: [],
    successMetrics: [],
  },
};
const requirements = documentPlan('web').find((doc) => doc.kind === 'product-requirements')!;
const prompt = (requirementStyle?: 'ears' | 'gherkin') =>
  documentPrompt({
    idea: 'An idea.',
    definition,
    document: requirements,
    earlier: [],
    requirementStyle,
  });

describe('the requirement style in the prompts', () => {
  it('asks a Gherkin project for scenarios, in the system prompt, and names the words in the version', () => {
    const gherkin = prompt('gherkin');
    expect(gherkin.system.endsWith(GHERKIN_SYSTEM)).toBe(true);
    expect(gherkin.version).toMatch(/^product-requirements@\d+\+gherkin@1\+system@\d+$/);
    expect(gherkin.context).toMatchObject({ requirementStyle: 'gherkin' });
  });

  it('leaves an EARS project exactly as it was', () => {
    expect(prompt('ears')).toEqual(prompt());
    expect(prompt('ears').system).not.toContain('Gherkin');
    expect(prompt('ears').context).not.toHaveProperty('requirementStyle');
  });

  it('keeps the style in a revision', () => {
    const revised = revisionPrompt({
      context: {
        task: 'revision',
        idea: 'An idea.',
        definition,
        register: [{ id: 'FR-1', priority: 'Must' }],
        document: { ...requirements, sections: [...requirements.sections] },
        related: [],
        deltas: [],
        previous: '# Product Requirements: VetBook',
        ids: { stories: [], tasks: [], retired: [] },
        requirementStyle: 'gherkin',
      },
      document: requirements,
      earlier: [],
      budget: 1000,
    });
    expect(revised.system).toContain(GHERKIN_SYSTEM);
    expect(revised.version).toMatch(/\+gherkin@1\+system@/);
  });
});
