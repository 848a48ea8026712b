import { describe, expect, it } from 'vitest';
import {
  applyConventions,
  canonicalLanguage,
  isEnglish,
  languageName,
  namesTechnology,
} from './conventions.ts';
import type { ProjectDefinition } from './generation.ts';

const definition: ProjectDefinition = {
  name: 'GroomBook',
  description: 'Bookings for dog groomers.',
  type: 'web',
  questionnaire: {
    targetAudience: 'Dog groomers who run a salon alone and book by phone today.',
    monetization: '19 USD a month',
    techStack: ['TypeScript', 'React', 'MongoDB', 'AWS'],
    platforms: ['Browsers'],
    coreFeatures: ['Book an appointment'],
    constraints: ['Reminders go out by SMS'],
    successMetrics: ['Fewer no-shows'],
  },
};
const IDEA = 'A booking tool for dog groomers with SMS reminders the day before';

describe('applyConventions', () => {
  it('puts the required stack first, in place of a chosen one of its kind, and drops the forbidden', () => {
    const { definition: housed, findings } = applyConventions(
      definition,
      { stack: { required: ['PostgreSQL', 'Svelte'], forbidden: ['AWS'] } },
      IDEA,
    );
    // MongoDB and React stand in for the required database and framework: they go.
    expect(housed.questionnaire.techStack).toEqual(['PostgreSQL', 'Svelte', 'TypeScript']);
    expect(findings).toEqual([]);
  });

  it('keeps what the idea names and records the clash instead', () => {
    const idea = `${IDEA}, on MongoDB and AWS`;
    const { definition: housed, findings } = applyConventions(
      definition,
      { stack: { required: ['PostgreSQL'], forbidden: ['AWS'] } },
      idea,
    );
    expect(housed.questionnaire.techStack).toContain('MongoDB');
    expect(housed.questionnaire.techStack).toContain('AWS');
    expect(housed.questionnaire.techStack).not.toContain('PostgreSQL');
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('names AWS'),
      expect.stringContaining('names MongoDB where the house conventions require PostgreSQL'),
    ]);
  });

  it('makes each compliance standard a constraint, once, whatever passes it makes', () => {
    const once = applyConventions(definition, { compliance: ['GDPR', 'SOC 2'] }, IDEA).definition;
    const twice = applyConventions(once, { compliance: ['GDPR', 'SOC 2'] }, IDEA).definition;
    expect(twice.questionnaire.constraints).toEqual([
      'Reminders go out by SMS',
      'Compliance: GDPR',
      'Compliance: SOC 2',
    ]);
  });

  it('keeps the frameworks of a required language, and a language the idea names for a required framework', () => {
    const phone = {
      ...definition,
      questionnaire: {
        ...definition.questionnaire,
        techStack: ['Kotlin', 'Jetpack Compose', 'Room', 'FastAPI', 'React Native'],
      },
    };
    const kotlin = applyConventions(phone, { stack: { required: ['Kotlin', 'Python'] } }, IDEA);
    // React Native stands in for Kotlin and goes; Jetpack Compose and FastAPI are theirs.
    expect(kotlin.definition.questionnaire.techStack).toEqual([
      'Kotlin',
      'Python',
      'Jetpack Compose',
      'Room',
      'FastAPI',
    ]);
    const named = applyConventions(
      definition,
      { stack: { required: ['FastAPI'] } },
      `${IDEA}, in Python`,
    );
    expect(named.findings).toEqual([]);
    expect(named.definition.questionnaire.techStack[0]).toBe('FastAPI');
    // Two frameworks of one language stand in for each other: the required one replaces.
    const django = applyConventions(phone, { stack: { required: ['Django'] } }, IDEA);
    expect(django.definition.questionnaire.techStack).toEqual([
      'Django',
      'Kotlin',
      'Jetpack Compose',
      'Room',
      'React Native',
    ]);
  });

  it('changes nothing without conventions', () => {
    expect(applyConventions(definition, undefined, IDEA).definition).toBe(definition);
  });
});

describe('languages and technology names', () => {
  it('canonicalises BCP 47 tags and refuses what is none', () => {
    expect(canonicalLanguage('pt-br')).toBe('pt-BR');
    expect(canonicalLanguage('DE')).toBe('de');
    expect(canonicalLanguage('1234')).toBeUndefined();
    expect(isEnglish('en-GB')).toBe(true);
    expect(isEnglish(null)).toBe(true);
    expect(isEnglish('de')).toBe(false);
    expect(languageName('de')).toBe('German');
  });

  it('finds a technology as a whole name only', () => {
    expect(namesTechnology('Built on Node.js 22 and PostgreSQL.', 'Node.js')).toBe(true);
    expect(namesTechnology('PostgreSQL', 'Postgres')).toBe(false);
    // A ban on the whole name reaches its short name in a command, not a word it is part of.
    expect(namesTechnology('docker compose up -d postgres', 'PostgreSQL')).toBe(true);
    expect(namesTechnology('uses node-postgres', 'PostgreSQL')).toBe(false);
    expect(namesTechnology('A reactive design', 'React')).toBe(false);
    expect(namesTechnology('We use React Native', 'React')).toBe(true);
    expect(namesTechnology('Payments through stripe', 'Stripe')).toBe(true);
  });
});
