import type { ProjectCompleted } from '@pgs/contract';
import { renderDocument, root } from '@pgs/contract/document';
import { describe, expect, it } from 'vitest';
import { type OfflineProject, offlineProject } from '../../test/helpers/offline-fixtures.ts';
import { archiveEntries } from './archive.ts';
import {
  earsSteps,
  groupBody,
  openspecRequirement,
  type RequirementGroup,
  requirementGroups,
} from './requirements.ts';

/** A requirement group as OpenSpec's form renders it. */
const rendered = (group: RequirementGroup) => renderDocument(root(openspecRequirement(group)));

describe('earsSteps', () => {
  it.each([
    [
      'WHEN a member saves a routine THE SYSTEM SHALL store it within 2 seconds.',
      [
        ['WHEN', 'a member saves a routine'],
        ['THEN', 'the system SHALL store it within 2 seconds.'],
      ],
    ],
    [
      'IF a routine lacks a title THEN THE SYSTEM SHALL refuse it and name the field.',
      [
        ['WHEN', 'a routine lacks a title'],
        ['THEN', 'the system SHALL refuse it and name the field.'],
      ],
    ],
    [
      'WHILE the device is offline, WHEN a run ends THE SYSTEM SHALL keep it on the device.',
      [
        ['GIVEN', 'the device is offline'],
        ['WHEN', 'a run ends'],
        ['THEN', 'the system SHALL keep it on the device.'],
      ],
    ],
    [
      'WHERE reminders are enabled THE SYSTEM SHALL send one at 9:00.',
      [
        ['GIVEN', 'reminders are enabled'],
        ['THEN', 'the system SHALL send one at 9:00.'],
      ],
    ],
    [
      'THE SYSTEM SHALL let several people build routines together.',
      [['THEN', 'the system SHALL let several people build routines together.']],
    ],
    [
      'When a user logs in when offline, the system shall show the cached list.',
      [
        ['WHEN', 'a user logs in when offline'],
        ['THEN', 'the system shall show the cached list.'],
      ],
    ],
  ])('%s', (sentence, steps) => {
    expect(earsSteps(sentence)?.map((s) => [s.keyword, s.text])).toEqual(steps);
  });

  it('takes the project as the subject, and gives up on what is not EARS', () => {
    expect(earsSteps('WHEN a run ends RunLog SHALL save it.', 'RunLog')).toEqual([
      { keyword: 'WHEN', text: 'a run ends' },
      { keyword: 'THEN', text: 'RunLog SHALL save it.' },
    ]);
    expect(earsSteps('Routines are listed newest first.')).toBeUndefined();
    expect(earsSteps('Once a week THE SYSTEM SHALL send a digest.')).toBeUndefined();
  });
});

describe('groupBody', () => {
  it('reads bold, list and plain criteria, joins wrapped lines, drops sub-headings', () => {
    const body = groupBody('FR-2', [
      'Teams celebrate streaks.',
      '',
      '#### Acceptance criteria',
      '',
      '- **FR-2.1** WHEN a streak reaches 7 days',
      '  THE SYSTEM SHALL show a badge.',
      '- **FR-2.2:** IF the streak breaks THEN THE SYSTEM SHALL reset it.',
      'FR-2.3 THE SYSTEM SHALL keep a history.',
      '',
      'Depends on: A-1 and FR-1.2',
      '',
      '```text',
      '**FR-2.9** inside a fence',
      '```',
    ]);
    expect(body.criteria).toEqual([
      { id: 'FR-2.1', text: 'WHEN a streak reaches 7 days THE SYSTEM SHALL show a badge.' },
      { id: 'FR-2.2', text: 'IF the streak breaks THEN THE SYSTEM SHALL reset it.' },
      { id: 'FR-2.3', text: 'THE SYSTEM SHALL keep a history.' },
    ]);
    expect(body.statement).toBe(
      'Teams celebrate streaks.\n\nDepends on: A-1 and FR-1.2\n\n```text\n**FR-2.9** inside a fence\n```',
    );
  });
});

describe('requirementGroups', () => {
  it('reads heading forms, priorities and where a group ends', () => {
    const groups = requirementGroups(
      [
        '# Product Requirements: X',
        '## Functional requirements',
        '### FR-1 Share routines (Must)',
        'Lets teams share.',
        '**FR-1.1** WHEN a routine is shared THE SYSTEM SHALL notify the team.',
        '### **FR-2**: Export data [Could have]',
        '**FR-2.1** THE SYSTEM SHALL export JSON.',
        '### FR-3.1 is no group',
        '## Non-functional requirements',
        '**NFR-1** (Performance) fast.',
        '```md',
        '### FR-9 In a fence',
        '```',
      ].join('\n'),
    );
    expect(groups.map((g) => [g.id, g.title, g.priority, g.criteria.length])).toEqual([
      ['FR-1', 'Share routines', 'Must', 1],
      ['FR-2', 'Export data', 'Could', 1],
    ]);
    expect(groups[1]!.statement).toBe('');
  });

  it('reads every group and criterion of real offline-engine requirements, each as EARS', () => {
    for (const [idea, type] of [
      ['A habit tracker for remote teams to build routines together and celebrate streaks', 'web'],
      ['An iPhone app for runners to log runs offline', 'mobile'],
      ['An MCP server that lets Claude run read-only queries on a SQLite database', 'mcp'],
    ] as const) {
      const project = offlineProject(idea, type);
      const text = project.documents.find((d) => d.kind === 'product-requirements')!.content;
      const groups = requirementGroups(text);
      const headings = text.match(/^### FR-\d+ .+$/gm)!;
      expect(groups.map((g) => g.id)).toEqual(headings.map((h) => /FR-\d+/.exec(h)![0]));
      expect(groups.flatMap((g) => g.criteria.map((c) => c.id))).toEqual(
        [...text.matchAll(/^\*\*(FR-\d+\.\d+)\*\*/gm)].map((m) => m[1]),
      );
      for (const group of groups) {
        expect(group.priority).toMatch(/^(Must|Should|Could)$/);
        expect(group.title).not.toMatch(/\(|FR-/);
        expect(group.statement).not.toMatch(/FR-\d+\.\d+\*\*/);
        for (const criterion of group.criteria) {
          expect(earsSteps(criterion.text, project.definition.name)?.at(-1)?.keyword).toBe('THEN');
        }
      }
    }
  });
});

/** A completed project's data, as the archive takes it, from an offline project. */
const completedOf = (project: OfflineProject): ProjectCompleted => ({
  projectId: '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21',
  status: 'completed',
  project: {
    name: project.definition.name,
    description: project.definition.description,
    type: project.definition.type,
    questionnaire: project.definition.questionnaire,
    documents: project.documents.map((doc) => ({
      type: doc.kind,
      filename: doc.filename,
      content: doc.content,
      generated_at: '2026-11-22T10:00:00.000Z',
      stage: 'requirements',
      tokens_used: 100,
    })),
  },
  metadata: { creditsConsumed: 47, generationTimeMs: 48211, documentsGenerated: 9 },
});

describe('a Gherkin project (docs/requirement-style.md)', () => {
  const project = offlineProject(
    'A web app for small veterinary clinics to book appointments and send vaccine reminders by SMS',
    'web',
    { requirementStyle: 'gherkin' },
  );
  const text = project.documents.find((d) => d.kind === 'product-requirements')!.content;

  it('reads each criterion as its scenario and writes it as an OpenSpec scenario', () => {
    const groups = requirementGroups(text);
    const criteria = groups.flatMap((g) => g.criteria);
    expect(criteria.map((c) => c.id)).toEqual(
      [...text.matchAll(/^- \*\*(FR-\d+\.\d+)\*\* Scenario:/gm)].map((m) => m[1]),
    );
    expect(criteria.every((c) => c.scenario !== undefined)).toBe(true);
    for (const group of groups) expect(group.statement).not.toMatch(/Scenario:|\*\*When\*\*/);
    const [first] = groups;
    const written = rendered(first!);
    const scenario = first!.criteria[0]!;
    expect(written).toContain(`#### Scenario: ${scenario.id} ${scenario.text}\n`);
    expect(written).toMatch(/^- \*\*WHEN\*\* .+\n- \*\*THEN\*\* /m);
    expect(written).not.toContain('THE SYSTEM SHALL');
  });

  it("keeps every scenario whole in Kiro's requirements.md: its ID, its name and its steps", () => {
    const kiro = archiveEntries(completedOf(project), 'kiro');
    const requirements = kiro.find((e) => e.path.endsWith('/requirements.md'))!.content;
    const scenarios = [
      ...text.matchAll(
        /^- \*\*FR-\d+\.\d+\*\* Scenario: .+\n(?: {2}- \*\*(?:Given|When|Then|And)\*\* .+\n)+/gm,
      ),
    ].map((m) => m[0]);
    // Every criterion is a scenario with its steps, and each is carried as it is written.
    expect(scenarios).toHaveLength(text.match(/^- \*\*FR-\d+\.\d+\*\* /gm)!.length);
    for (const scenario of scenarios) expect(requirements).toContain(scenario);
    // The groups' headings one level down, under the combined file's title; no EARS.
    expect(requirements).toMatch(/^#### FR-1 .+ \((?:Must|Should|Could)\)$/m);
    expect(requirements).not.toContain('THE SYSTEM SHALL');
  });

  it('tells agents the criteria are scenarios, in AGENTS.md', () => {
    const data = completedOf(project);
    const agents = archiveEntries(data, 'agents').find((e) => e.path === 'AGENTS.md')!.content;
    expect(agents).toContain('Acceptance criteria FR-n.m are Given/When/Then scenarios');
    const ears = completedOf(
      offlineProject('A web app for small veterinary clinics to book appointments', 'web'),
    );
    expect(archiveEntries(ears, 'agents')[0]!.content).not.toContain('Given/When/Then');
  });
});

describe('openspecRequirement', () => {
  const group: RequirementGroup = {
    id: 'FR-1',
    title: 'Build routines together',
    priority: 'Must',
    statement: 'Teams build routines together.',
    criteria: [
      { id: 'FR-1.1', text: 'WHEN a routine is built THE SYSTEM SHALL store it.' },
      { id: 'FR-1.2', text: 'Routines are listed newest first.' },
    ],
  };

  it('writes the requirement, a SHALL sentence when the statement has none, one scenario per criterion', () => {
    expect(rendered(group)).toBe(
      [
        '### Requirement: FR-1 Build routines together\n',
        'Teams build routines together.\n',
        'The system SHALL meet FR-1.1 and FR-1.2.\n',
        '**Priority**: Must\n',
        '#### Scenario: FR-1.1\n',
        '- **WHEN** a routine is built\n- **THEN** the system SHALL store it.\n',
        '#### Scenario: FR-1.2\n',
        'Routines are listed newest first.\n',
      ].join('\n'),
    );
  });

  it('adds no sentence to a statement that already says SHALL or MUST', () => {
    const text = rendered({ ...group, statement: 'The system MUST keep routines.' });
    expect(text).not.toContain('SHALL meet');
  });
});
