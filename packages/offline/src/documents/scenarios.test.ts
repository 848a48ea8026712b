import type { ProjectType } from '@pgs/contract';
import {
  definitionsOf,
  heading,
  parseDocument,
  renderDocument,
  root,
  withoutPositions,
} from '@pgs/contract/document';
import { describe, expect, it } from 'vitest';
import { documentRequest } from '../../test/plan.ts';
import { factsFor } from '../facts/facts.ts';
import { defineProject, writeDocument } from '../index.ts';
import { PRODUCT_REQUIREMENTS } from './product-requirements.ts';
import { USER_STORIES } from './user-stories.ts';

const IDEAS: [ProjectType, string][] = [
  [
    'web',
    'A web app for small veterinary clinics to book appointments and send vaccine reminders by SMS',
  ],
  ['mobile', 'A mobile app for runners to log runs offline and follow a 16-week marathon plan'],
  ['mcp', 'An MCP server that lets Claude query our Postgres analytics warehouse read-only'],
];

const FILE = 'PRODUCT_REQUIREMENTS.md';

/** The request for an idea's product requirements, its project defined. */
const request = (type: ProjectType, idea: string) => ({
  idea,
  definition: defineProject({ idea, type }),
  document: documentRequest('product-requirements'),
  related: [],
});

/** The requirements of an idea in a style, and their criteria as the document model reads them. */
function requirements(type: ProjectType, idea: string, style?: 'gherkin') {
  const markdown = writeDocument({
    ...request(type, idea),
    ...(style ? { requirementStyle: style } : {}),
  });
  return {
    markdown,
    criteria: definitionsOf(parseDocument(markdown, { filename: FILE }), 'criterion'),
  };
}

describe('the offline engine in the Gherkin style', () => {
  it.each(IDEAS)(
    'writes every %s criterion as a scenario with a When and a Then, IDs kept',
    (type, idea) => {
      const ears = requirements(type, idea);
      const gherkin = requirements(type, idea, 'gherkin');
      expect(gherkin.criteria.map((c) => c.id)).toEqual(ears.criteria.map((c) => c.id));
      for (const criterion of gherkin.criteria) {
        const keywords = criterion.scenario?.steps.map((step) => step.keyword) ?? [];
        expect(keywords, criterion.id).toContain('When');
        expect(keywords, criterion.id).toContain('Then');
        expect(criterion.form).toBe('item');
      }
      expect(gherkin.markdown).not.toMatch(/THE SYSTEM SHALL/);
      expect(gherkin.markdown).toContain('as Given/When/Then scenarios');
      // An EARS project's requirements are what they always were.
      expect(ears.criteria.every((c) => c.scenario === undefined)).toBe(true);
      expect(ears.markdown).toContain('in EARS form');
    },
  );

  it('says the same behaviour as the EARS sentence, of the product, in the third person', () => {
    const { markdown } = requirements('web', IDEAS[0]![1], 'gherkin');
    expect(markdown).toMatch(
      /- \*\*FR-\d+\.\d+\*\* Scenario: The SMS gateway rejects a vaccine reminder\n {2}- \*\*When\*\* the SMS gateway rejects a vaccine reminder\n {2}- \*\*Then\*\* \S+ retries it once after 10 minutes and marks it failed for a person to see/,
    );
  });

  it('keeps the style in a revision', () => {
    const context = request(...IDEAS[0]!);
    const markdown = writeDocument({
      ...context,
      requirementStyle: 'gherkin',
      revision: {
        register: context.definition.questionnaire.coreFeatures.map((_, i) => ({
          id: `FR-${i + 1}`,
          priority: 'Must' as const,
        })),
        ids: { stories: [], tasks: [], retired: [] },
      },
    });
    const criteria = definitionsOf(parseDocument(markdown, { filename: FILE }), 'criterion');
    expect(criteria.length).toBeGreaterThan(0);
    expect(criteria.every((c) => c.scenario !== undefined)).toBe(true);
  });
});

describe('the requirements and stories the engine builds', () => {
  it.each(['ears', 'gherkin'] as const)(
    'are the definitions the parser reads back from their markdown (%s)',
    (requirementStyle) => {
      const f = factsFor({ ...request(...IDEAS[0]!), requirementStyle });
      const documents = [
        [
          FILE,
          [
            heading(2, 'Functional requirements'),
            ...PRODUCT_REQUIREMENTS.sections['Functional requirements'](f),
            heading(2, 'Non-functional requirements'),
            ...PRODUCT_REQUIREMENTS.sections['Non-functional requirements'](f),
          ],
        ],
        ['USER_STORIES.md', [heading(2, 'Stories'), ...USER_STORIES.sections.Stories(f)]],
      ] as const;
      const types = new Set<string>();
      for (const [filename, blocks] of documents) {
        const built = root(blocks);
        const read = parseDocument(renderDocument(built), { filename });
        for (const d of definitionsOf(built)) types.add(d.type);
        expect(definitionsOf(withoutPositions(read)), filename).toEqual(definitionsOf(built));
      }
      expect([...types].sort()).toEqual(['criterion', 'nfr', 'requirement', 'story']);
    },
  );
});
