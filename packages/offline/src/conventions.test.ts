import type { Conventions } from '@pgs/contract';
import {
  citedIds,
  type FlowContent,
  parseDocument,
  renderDocument,
  root,
  withoutPositions,
} from '@pgs/contract/document';
import { describe, expect, it } from 'vitest';
import { withConventions as onTree } from './conventions.ts';

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

/** The conventions applied to the tree of a document's markdown, rendered again. */
function withConventions(
  markdown: string,
  kind: string,
  project: typeof definition,
  conventions: Conventions | undefined,
): string {
  const tree = withoutPositions(parseDocument(markdown, { defines: [], components: false }));
  const blocks = onTree(tree.children as FlowContent[], kind, project, conventions);
  return renderDocument(root([...blocks]));
}

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

  it("writes the team's words as text: no ID, table or section comes of them", () => {
    const done = withConventions(ARCHITECTURE, 'architecture', definition, {
      compliance: ['ISO 27001 | FR-9'],
      naming: ['IDs like FR-9 | US-2 are kept', '## Not a section'],
      sections: [{ title: 'Runbooks', content: 'See FR-9.\n\n## Escalation\n\nCall the lead.' }],
    });
    const tree = parseDocument(done);
    expect([...citedIds(tree)]).toEqual([]);
    const sections = tree.children
      .filter((node) => node.type === 'heading' && node.depth === 2)
      .map((node) => done.slice(node.position!.start.offset, node.position!.end.offset));
    expect(sections).toEqual(['## Context', '## Compliance', '## Naming', '## Runbooks']);
    expect(tree.children.some((node) => node.type === 'table')).toBe(false);
    expect(done).toContain('### Escalation');
    expect(
      withConventions(done, 'architecture', definition, {
        sections: [{ title: 'Runbooks', content: 'See FR-9.\n\n## Escalation\n\nCall the lead.' }],
      }),
    ).toBe(done);
  });

  it('finds the section by its heading, not its text anywhere in the document', () => {
    const own = '# Architecture: GroomBook\n\n## Context\n\nLogs.\n';
    const done = withConventions(own, 'architecture', definition, {
      sections: [{ title: 'Logging', content: 'Logs.' }],
    });
    expect(done).toBe('# Architecture: GroomBook\n\n## Context\n\nLogs.\n\n## Logging\n\nLogs.\n');
  });

  it('leaves other documents, and a project without conventions, as they are', () => {
    expect(withConventions(ARCHITECTURE, 'readme', definition, conventions)).toBe(ARCHITECTURE);
    expect(withConventions(ARCHITECTURE, 'architecture', definition, undefined)).toBe(ARCHITECTURE);
  });
});
