import { describe, expect, it } from 'vitest';
import {
  API,
  ARCHITECTURE,
  BRIEF,
  documents,
  PLAN,
  REQUIREMENTS,
} from '../../../test/fixtures/trace-documents.ts';
import { buildTrace } from './build.ts';
import { documentRole, isId, parseDocument, requirementOf } from './parse.ts';

const ids = (markdown: string, filename = 'product-requirements.md') =>
  parseDocument(filename, markdown).defines.map((node) => node.id);
const edges = (markdown: string, filename = 'product-requirements.md') =>
  parseDocument(filename, markdown).cites.map((edge) => `${edge.from}>${edge.to}`);

describe('parseDocument: definitions', () => {
  it('defines IDs that open a heading, a list item, a body row or a bold paragraph', () => {
    const brief = parseDocument('project-brief.md', BRIEF).defines;
    expect(brief.map((node) => [node.id, node.kind, node.section, node.title])).toEqual([
      ['G-1', 'goal', 'Goals', 'Owners never miss a vaccination for their pets'],
      ['G-2', 'goal', 'Goals', 'Clinics spend less time on reminder phone calls'],
      [
        'A-1',
        'assumption',
        'Assumptions and open questions',
        'Owners have a phone that receives SMS (for G-1)',
      ],
      [
        'Q-1',
        'question',
        'Assumptions and open questions',
        'Which SMS provider do clinics already use?',
      ],
      ['R-1', 'risk', 'Risks', 'SMS delivery fails silently; NFR-1 bounds the delay'],
    ]);
    const requirements = parseDocument('product-requirements.md', REQUIREMENTS).defines;
    expect(requirements.map((node) => `${node.id}:${node.kind}`)).toEqual([
      'FR-1:requirement',
      'FR-1.1:criterion',
      'FR-2:requirement',
      'FR-2.1:criterion',
      'FR-2.2:criterion',
      'FR-3:requirement',
      'FR-3.1:criterion',
      'NFR-1:nfr',
    ]);
    expect(requirements[0]).toMatchObject({
      title: 'Pet profiles',
      line: 5,
      subsection: 'FR-1 Pet profiles (Must)',
    });
    expect(requirements[3]?.title).toBe(
      'WHEN a vaccination falls due within 14 days THE SYSTEM SHALL send one SMS to the owner',
    );
    expect(parseDocument('user-stories.md', '## US-2: Get a reminder\n').defines[0]).toMatchObject({
      id: 'US-2',
      kind: 'story',
      title: 'Get a reminder',
    });
  });

  it('does not define from a mention inside a sentence, a header row or a plain paragraph', () => {
    const markdown = [
      '## Notes',
      'See FR-1 for the rest. FR-2 is also relevant.',
      '| FR-3 | Comment |\n| --- | --- |\n| Reminders | as in FR-4 |',
      '- The calendar (FR-5)',
      '*FR-6* is only emphasised.',
    ].join('\n\n');
    expect(ids(markdown)).toEqual([]);
    expect(edges(markdown)).toEqual(
      ['FR-1', 'FR-2', 'FR-3', 'FR-4', 'FR-5', 'FR-6'].map((id) => `product-requirements.md>${id}`),
    );
  });

  it('lets only the document that owns a prefix define it', () => {
    const table =
      '## Traceability\n\n| FR | Component |\n| --- | --- |\n| FR-2 | Reminder worker |\n';
    expect(ids(table, 'architecture.md')).toEqual([]);
    expect(edges(table, 'architecture.md')).toEqual(['architecture.md>FR-2']);
    expect(ids('- T-1 Set up CI (FR-1)', 'product-requirements.md')).toEqual([]);
    expect(ids('- T-1 Set up CI (FR-1)', 'IMPLEMENTATION_PLAN.md')).toEqual(['T-1']);
    expect(parseDocument('notes.md', '- T-1 Set up CI', { defines: ['T'] }).defines).toHaveLength(
      1,
    );
  });

  it('reads IDs as written: leading zeros kept, non-ASCII hyphens and code ignored', () => {
    expect(ids('### FR-03 Reminders\n\n**FR-03.1** WHEN …')).toEqual(['FR-03', 'FR-03.1']);
    expect(ids('### FR‑3 Reminders\n\n- FR−4 Billing')).toEqual([]);
    expect(edges('Uses `FR-7` and\n\n```text\nFR-8\n```\n\n<!-- FR-9 -->')).toEqual([]);
    expect(ids('### `FR-1` Reminders')).toEqual([]);
  });

  it('records the priority a requirement states, in its heading, its text or its row', () => {
    const priorities = parseDocument(
      'product-requirements.md',
      [
        '### FR-1 Profiles (Must)',
        '### FR-2 Reminders\n\n**Priority:** Should',
        '### FR-3 Calendar\n\n**FR-3.1** WHEN a clinic asks (could be daily) THE SYSTEM SHALL answer.',
        '| ID | Name | Priority |\n| --- | --- | --- |\n| FR-4 | Export | Won’t |\n| FR-5 | Import | Could have |',
      ].join('\n\n'),
    ).defines.map((node) => [node.id, node.priority]);
    expect(priorities).toEqual([
      ['FR-1', 'must'],
      ['FR-2', 'should'],
      ['FR-3', undefined],
      ['FR-3.1', undefined],
      ['FR-4', 'wont'],
      ['FR-5', 'could'],
    ]);
  });

  it('cuts a long title on a word', () => {
    const long = `**FR-1.1** WHEN ${'a very long trigger '.repeat(10)}THE SYSTEM SHALL respond.`;
    const title = parseDocument('product-requirements.md', long).defines[0]?.title ?? '';
    expect(title.length).toBeLessThanOrEqual(120);
    expect(title).toMatch(/…$/);
    expect(long).toContain(`${title.slice(0, -1)} `);
  });
});

describe('parseDocument: citations', () => {
  it('cites from the innermost enclosing definition, or from the document', () => {
    expect(parseDocument('project-brief.md', BRIEF).cites).toEqual([
      {
        from: 'A-1',
        to: 'G-1',
        document: 'project-brief.md',
        section: 'Assumptions and open questions',
      },
      { from: 'R-1', to: 'NFR-1', document: 'project-brief.md', section: 'Risks' },
    ]);
    expect(edges(ARCHITECTURE, 'architecture.md')).toEqual([
      'architecture.md>FR-1',
      'architecture.md>FR-2.1',
      'architecture.md>FR-3',
      'architecture.md>NFR-1',
    ]);
    expect(edges(PLAN, 'implementation-plan.md')).toEqual([
      'T-1>FR-1',
      'T-2>FR-2.1',
      'T-2>FR-2.2',
      'T-2>T-1',
      'T-3>FR-3',
      'T-3>T-1',
      'T-3>T-2',
      'implementation-plan.md>FR-1',
      'implementation-plan.md>FR-2',
    ]);
  });

  it("ends a heading's scope at the next heading as high, not at a lower one", () => {
    const markdown = [
      '### FR-1 Profiles',
      '#### Notes',
      'Relates to G-1.',
      '### Open points',
      'Relates to G-2.',
    ].join('\n\n');
    expect(edges(markdown)).toEqual(['FR-1>G-1', 'product-requirements.md>G-2']);
  });

  it('nests: a criterion in a list under a requirement cites for itself; no self-citations, no repeats', () => {
    const markdown = [
      '### FR-1 Profiles, see FR-1 and G-1',
      '- **FR-1.1** WHEN … (G-2, G-2)\n  - detail for G-3',
      'Back in FR-1: G-1 again.',
    ].join('\n\n');
    expect(edges(markdown)).toEqual(['FR-1>G-1', 'FR-1.1>G-2', 'FR-1.1>G-3']);
  });

  it('keeps sections, their sizes and the fenced code blocks', () => {
    const parsed = parseDocument(
      'api-design.md',
      `${API}\n## Errors\n\nTBD\n\n    indented code\n`,
    );
    expect(parsed.sections).toEqual(['Endpoints', 'Errors']);
    expect(parsed.sectionsText.map((s) => [s.section, s.chars > 40])).toEqual([
      ['Endpoints', true],
      ['Errors', false],
    ]);
    expect(parsed.codeBlocks).toEqual([
      { lang: 'json', value: expect.stringContaining('"Rex"'), section: 'Endpoints', line: 7 },
    ]);
    expect(parsed.cites.map((edge) => edge.to)).toEqual(['FR-1']);
  });
});

describe('buildTrace', () => {
  it('merges the documents and covers each FR with criteria, stories, components and tasks', () => {
    const trace = buildTrace(documents());
    expect(trace.findings).toEqual([]);
    expect(trace.coverage.requirements).toEqual([
      {
        id: 'FR-1',
        title: 'Pet profiles',
        priority: 'must',
        criteria: ['FR-1.1'],
        stories: ['US-1'],
        components: ['Pet service'],
        tasks: ['T-1'],
      },
      {
        id: 'FR-2',
        title: 'Vaccination reminders',
        priority: 'must',
        criteria: ['FR-2.1', 'FR-2.2'],
        stories: ['US-2'],
        components: ['Reminder worker'],
        tasks: ['T-2'],
      },
      {
        id: 'FR-3',
        title: 'Clinic calendar',
        priority: 'should',
        criteria: ['FR-3.1'],
        stories: [],
        components: ['Reminder worker'],
        tasks: ['T-3'],
      },
    ]);
    expect(trace.coverage.totals).toEqual({
      frs: 3,
      withCriterion: 3,
      withStory: 2,
      withComponent: 3,
      withTask: 3,
      musts: 2,
      mustsWithStory: 2,
    });
  });

  it('counts only tasks in the Tasks section: a release-checklist mention covers nothing', () => {
    const plan = PLAN.replace('Implements FR-1.', 'Implements the pets API.').replace(
      '- [ ] A reminder',
      '- [ ] T-1 demoed for FR-1\n- [ ] A reminder',
    );
    const trace = buildTrace(documents({ 'implementation-plan.md': plan }));
    expect(trace.coverage.requirements[0]?.tasks).toEqual([]);
    expect(trace.coverage.totals.withTask).toBe(2);
  });

  it('keeps the first definition of an ID and reports the second', () => {
    const requirements = `${REQUIREMENTS}\n## Acceptance criteria\n\n1. **FR-2 (Reminders):** the SMS arrives.\n`;
    const trace = buildTrace(documents({ 'product-requirements.md': requirements }));
    expect(trace.nodes.filter((node) => node.id === 'FR-2')).toMatchObject([
      { section: 'Functional requirements', line: 9 },
    ]);
    expect(trace.findings).toEqual([
      expect.objectContaining({
        rule: 'duplicate-id',
        severity: 'medium',
        section: 'Acceptance criteria',
        ids: ['FR-2'],
      }),
    ]);
    expect(trace.findings[0]?.message).toContain('line 9');
  });
});

describe('ID helpers', () => {
  it('recognises IDs, their requirement group and document roles', () => {
    expect(['FR-3', 'FR-3.1', 'NFR-2', 'T-10', 'NFR-2.1', 'US-1a', 'X-1'].map(isId)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([requirementOf('FR-3.1'), requirementOf('FR-3'), requirementOf('NFR-3')]).toEqual([
      'FR-3',
      'FR-3',
      undefined,
    ]);
    expect(documentRole('docs/USER_STORIES.md')).toBe('stories');
    expect(documentRole('data-model.md')).toBeUndefined();
  });
});
