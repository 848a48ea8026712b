import { contentTerms, defineProject, missingTerms } from '@pgs/offline';
import { READING_IDEAS } from '@pgs/offline/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DEFINITION_RULES, DEFINITION_SCHEMA } from '../runs/prompts/definition.ts';

const validate = new Ajv2020({ strict: false }).compile({
  allOf: [DEFINITION_SCHEMA, DEFINITION_RULES],
});

/** Ideas beyond the benchmark: no audience, no capability, a read-only server, a bare noun. */
const MORE = [
  'A medication reminder for elderly parents',
  'An MCP server that lets Claude run read-only queries on a SQLite database',
  'A habit tracker for remote teams to build routines together and celebrate streaks',
  'Something with widgets',
  'An MCP server for Kubernetes: pods, logs and events',
];

/** Regulations and compliance regimes no benchmark idea calls for. */
const REGULATIONS = /\b(?:HIPAA|PCI(?: DSS)?|GDPR|COPPA|SOC ?2|ISO 27001|CCPA|FERPA|WCAG)\b/;

describe('offline definition: the idea kept', () => {
  it.each(READING_IDEAS.map((entry) => [entry.idea.slice(0, 50), entry] as const))(
    'one feature per capability of "%s…", with its qualifiers',
    (_label, entry) => {
      const { questionnaire } = defineProject({ idea: entry.idea, type: entry.type });
      const features = questionnaire.coreFeatures.map((f) => f.toLowerCase());
      for (const expected of entry.capabilities) {
        const verbs = typeof expected.verb === 'string' ? [expected.verb] : expected.verb;
        const feature = features.find(
          (f) =>
            verbs.some(
              (verb) => f.startsWith(`${verb} `) || f.startsWith(verb.replace('provide', 'expose')),
            ) && f.includes(expected.object.toLowerCase()),
        );
        expect(
          feature,
          `${expected.verb} ${expected.object} in ${features.join(' / ')}`,
        ).toBeDefined();
        for (const qualifier of expected.qualifiers ?? [])
          expect(feature!.replace(/\bthe\b/g, 'our')).toContain(
            qualifier.toLowerCase().replace(/\bthe\b/g, 'our'),
          );
      }
      expect(questionnaire.coreFeatures.length).toBeGreaterThanOrEqual(3);
      expect(questionnaire.coreFeatures.length).toBeLessThanOrEqual(12);
    },
  );

  it.each([...READING_IDEAS.map((e) => e.idea), ...MORE])(
    'keeps every content word of "%s" and validates',
    (idea) => {
      const definition = defineProject({ idea });
      expect(missingTerms(idea, JSON.stringify(definition))).toEqual([]);
      expect(validate(definition), JSON.stringify(validate.errors)).toBe(true);
      const q = definition.questionnaire;
      expect(q.keyEntities!.length).toBeGreaterThanOrEqual(2);
      expect(q.keyEntities!.length).toBeLessThanOrEqual(10);
      expect(q.nonGoals!.length).toBeGreaterThanOrEqual(1);
      expect(q.nonGoals!.length).toBeLessThanOrEqual(6);
      expect(q.assumptions!.length).toBeGreaterThanOrEqual(1);
      expect(q.openQuestions!.length).toBeGreaterThanOrEqual(1);
      for (const term of q.ideaCoverage!) expect(q.coreFeatures).toContain(term.feature);
      expect(JSON.stringify(definition)).not.toMatch(REGULATIONS);
    },
  );

  it('records each capability and qualifier against the feature carrying it', () => {
    const vet = defineProject({ idea: READING_IDEAS[0]!.idea }).questionnaire;
    expect(vet.ideaCoverage).toEqual(
      expect.arrayContaining([
        { term: 'send vaccine reminders by SMS', feature: 'Send vaccine reminders by SMS' },
        { term: 'by SMS', feature: 'Send vaccine reminders by SMS' },
      ]),
    );
    expect(vet.integrations).toEqual([
      { name: 'SMS gateway', purpose: 'send vaccine reminders by SMS' },
    ]);
    const runner = defineProject({ idea: READING_IDEAS[4]!.idea }).questionnaire;
    expect(runner.ideaCoverage).toContainEqual({
      term: '16-week',
      feature: 'Follow a 16-week marathon plan',
    });
  });

  it('holds a read-only idea to read-only, and adds only what a server needs', () => {
    const { questionnaire } = defineProject({ idea: READING_IDEAS[8]!.idea });
    expect(questionnaire.coreFeatures).toEqual([
      'Query the Postgres analytics warehouse',
      'Summarise weekly revenue by region',
      'Connect to Postgres with read-only credentials',
    ]);
    expect(questionnaire.constraints.join(' ')).toMatch(/read-only/i);
    expect(JSON.stringify(questionnaire)).not.toMatch(/write tools?|confirm each|confirmation/i);
  });
});

describe('offline definition: the audience, only as the idea names it', () => {
  it.each([...READING_IDEAS.map((e) => e.idea), ...MORE])('invents no one for "%s"', (idea) => {
    const audience = defineProject({ idea }).questionnaire.targetAudience;
    expect(audience.split(/\s+/).length, audience).toBeGreaterThanOrEqual(6);
    // Every content word of the audience sentence comes from the idea, or is neutral: "people
    // who want to work with", and the verb an MCP server gives a capability named by a noun.
    const allowed = new Set([...contentTerms(idea), 'want', 'peopl', 'use', 'work', 'expos']);
    expect(
      contentTerms(audience).filter((term) => !allowed.has(term)),
      audience,
    ).toEqual([]);
  });

  it('names the audience as written, or a neutral phrase', () => {
    expect(defineProject({ idea: READING_IDEAS[0]!.idea }).questionnaire.targetAudience).toBe(
      'Small veterinary clinics that want to schedule appointments, send vaccine reminders by SMS and keep pet medical records.',
    );
    expect(defineProject({ idea: READING_IDEAS[8]!.idea }).questionnaire.targetAudience).toMatch(
      /^People who use Claude and want it to query the Postgres analytics warehouse/,
    );
    expect(defineProject({ idea: 'Something with widgets' }).questionnaire.targetAudience).toMatch(
      /^People who want to work with widgets\.$/,
    );
  });
});

describe('offline definition: the type', () => {
  it('infers the type of at least 11 of the 12 benchmark ideas when none is pinned', () => {
    const right = READING_IDEAS.filter(
      (entry) => defineProject({ idea: entry.idea }).type === entry.type,
    );
    expect(right.length).toBeGreaterThanOrEqual(11);
  });

  it('keeps a pinned type and a requested name', () => {
    const definition = defineProject({
      idea: READING_IDEAS[0]!.idea,
      type: 'mobile',
      requestedName: 'Vet Desk',
    });
    expect(definition.type).toBe('mobile');
    expect(definition.name).toBe('Vet Desk');
    expect(definition.description).toContain('Vet Desk');
  });

  it('is deterministic', () => {
    for (const idea of MORE) expect(defineProject({ idea })).toEqual(defineProject({ idea }));
  });
});
