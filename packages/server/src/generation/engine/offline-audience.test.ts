import type { ProjectType } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import { documentPlan } from '../catalogue.ts';
import type { ProjectDefinition } from './context.ts';
import { audienceInSentence, audienceNoun } from './offline/audience.ts';
import { defineProject } from './offline/define.ts';
import { writeDocument } from './offline-content.ts';

/** The ideas the audience and type faults were found on, with the type and words they imply. */
const IDEAS: readonly { idea: string; type: ProjectType; who: RegExp }[] = [
  {
    idea: 'A medication reminder for elderly parents',
    type: 'mobile',
    who: /^Elderly parents who/,
  },
  {
    idea: 'A language-exchange app that pairs learners for video calls',
    type: 'mobile',
    who: /^Language learners who/,
  },
  {
    idea: 'An MCP server that lets Claude run read-only queries on a SQLite database',
    type: 'mcp',
    who: /Claude to run read-only queries on a SQLite database/,
  },
  { idea: 'An MCP server for Kubernetes: pods, logs and events', type: 'mcp', who: /Kubernetes/ },
  {
    idea: 'A mentoring marketplace with booking and payouts',
    type: 'web',
    who: /^Independent mentors/,
  },
  { idea: 'An app for beekeepers to log hive inspections', type: 'mobile', who: /beekeepers who/ },
];

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function documents(idea: string, definition: ProjectDefinition) {
  return documentPlan(definition.type).map((kind) => ({
    kind,
    text: writeDocument({
      task: 'document',
      idea,
      definition,
      document: {
        kind: kind.kind,
        title: kind.title,
        filename: kind.filename,
        stage: kind.stage,
        sections: kind.sections,
      },
      related: [],
    }),
  }));
}

describe('offline definition: the target audience', () => {
  it.each(IDEAS)('describes who and when for "$idea"', ({ idea, type, who }) => {
    const audience = defineProject({ idea, type }).questionnaire.targetAudience;
    expect(words(audience), audience).toBeGreaterThanOrEqual(8);
    expect(audience).toMatch(/\b(who|that|when)\b/);
    expect(audience).toMatch(/^[A-Z].*[a-z]\.$/);
    expect(audience).toMatch(who);
    expect(audience).not.toMatch(/\.\s|,,|\s,/);
  });

  it('uses what the idea says about when and where', () => {
    const audience = defineProject({
      idea: 'A podcast app for commuters to save episodes while driving to work',
      type: 'mobile',
    }).questionnaire.targetAudience;
    expect(audience).toMatch(/^Commuters who .*while driving to work\b.*\.$/);
  });

  it('falls back to a sentence by project type when the idea names no one', () => {
    for (const type of ['web', 'mobile', 'mcp'] as const) {
      const audience = defineProject({ idea: 'Something with widgets', type }).questionnaire
        .targetAudience;
      expect(words(audience), audience).toBeGreaterThanOrEqual(8);
      expect(audience).toMatch(/ who .*\.$/);
    }
  });

  it('is deterministic', () => {
    for (const { idea, type } of IDEAS)
      expect(defineProject({ idea, type })).toEqual(defineProject({ idea, type }));
  });

  it('reads the audience into a sentence and down to its noun', () => {
    expect(
      audienceInSentence('Remote teams who share a backlog.', 'A board for remote teams'),
    ).toBe('remote teams who share a backlog');
    expect(
      audienceInSentence(
        'Shopify merchants who sell abroad.',
        'A tax helper for Shopify merchants',
      ),
    ).toBe('Shopify merchants who sell abroad');
    expect(audienceNoun('nurses who work nights and want to swap shifts')).toBe('nurses');
    expect(audienceNoun('independent mentors and their clients, who book sessions')).toBe(
      'independent mentors and their clients',
    );
    expect(audienceNoun('busy parents')).toBe('busy parents');
  });
});

describe('offline definition: the type', () => {
  it.each(IDEAS)('infers $type for "$idea" when the request gives none', ({ idea, type }) => {
    expect(defineProject({ idea }).type).toBe(type);
  });

  it('keeps a requested type', () => {
    expect(defineProject({ idea: IDEAS[0]!.idea, type: 'web' }).type).toBe('web');
  });
});

describe('offline documents with an audience sentence', () => {
  it.each(IDEAS)('writes every document for "$idea" with its sections', ({ idea }) => {
    const definition = defineProject({ idea });
    const short = audienceNoun(definition.questionnaire.targetAudience).toLowerCase();
    for (const { kind, text } of documents(idea, definition)) {
      const where = `${definition.type}/${kind.kind}`;
      expect(text.startsWith(`# ${kind.title}: ${definition.name}\n`), where).toBe(true);
      for (const section of kind.sections) expect(text, where).toContain(`\n## ${section}\n`);
      // The sentence is cut to its noun where a noun is needed, never pasted with its period.
      expect(text.replace(/```[\s\S]*?```/g, ''), where).not.toMatch(/[a-z]\.[,;]|\.\. /);
      expect(text.toLowerCase(), where).toContain(short);
    }
  });
});
