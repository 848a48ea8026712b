import { describe, expect, it } from 'vitest';
import { withConventions } from './conventions.ts';

const definition = {
  name: 'GroomBook',
  description: 'Bookings for dog groomers.',
  type: 'web' as const,
  questionnaire: {
    targetAudience: 'Dog groomers',
    monetization: 'Paid',
    techStack: ['PostgreSQL'],
    platforms: ['Browsers'],
    coreFeatures: ['Book an appointment'],
    constraints: [],
    successMetrics: [],
  },
};
const ARCHITECTURE = '# Architecture: GroomBook\n\n## Context\n\nText.\n';

describe('the offline engine under house conventions', () => {
  const conventions = {
    compliance: ['GDPR', 'ISO 27001'],
    naming: ['Tables are plural snake_case'],
    sections: [{ title: 'Observability', content: 'Every request carries a trace id.' }],
  };

  it('adds a section per standard, the naming rules and the extra sections to the architecture, once', () => {
    const once = withConventions(ARCHITECTURE, 'architecture', definition, conventions);
    expect(once).toMatch(/^## Compliance$/m);
    expect(once).toMatch(/^### GDPR\n\nGroomBook stores personal data/m);
    // A standard the engine does not know is stated as the team's requirement, nothing invented.
    expect(once).toMatch(/^### ISO 27001\n\nGroomBook must meet ISO 27001/m);
    expect(once).toContain('- Tables are plural snake_case');
    expect(once).toMatch(/## Observability\n\nEvery request carries a trace id\.\n$/);
    // A revision that kept the previous text gets no second copy.
    expect(withConventions(once, 'architecture', definition, conventions)).toBe(once);
  });

  it("closes a section of the document's own with the team's text of the same title", () => {
    const own = '# Architecture: GroomBook\n\n## Observability\n\nLogs.\n\n## Security\n\nKeys.\n';
    const done = withConventions(own, 'architecture', definition, {
      sections: [{ title: 'Observability', content: 'Every request carries a trace id.' }],
    });
    expect(done).toBe(
      '# Architecture: GroomBook\n\n## Observability\n\nLogs.\n\nEvery request carries a trace id.\n\n## Security\n\nKeys.\n',
    );
  });

  it('leaves other documents, and a project without conventions, as they are', () => {
    expect(withConventions(ARCHITECTURE, 'readme', definition, conventions)).toBe(ARCHITECTURE);
    expect(withConventions(ARCHITECTURE, 'architecture', definition, undefined)).toBe(ARCHITECTURE);
  });
});
