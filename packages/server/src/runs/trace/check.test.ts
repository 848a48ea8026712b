import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  API,
  ARCHITECTURE,
  BRIEF,
  documents,
  type Filename,
  PLAN,
  REQUIREMENTS,
  STORIES,
} from '../../../test/fixtures/trace-documents.ts';
import { buildTrace } from './build.ts';
import { type CheckOptions, checkTrace, needsRepair, SEVERITIES } from './check.ts';
import type { Finding } from './types.ts';
import { contentWords, stem, unmatched } from './words.ts';

const FEATURES = ['Pet profiles', 'Vaccination reminder via SMS', 'Clinic calendar'];
const options: CheckOptions = { coreFeatures: FEATURES, parseYaml };

const check = (changes: Partial<Record<Filename, string>> = {}, extra: CheckOptions = {}) =>
  checkTrace(buildTrace(documents(changes)), { ...options, ...extra });
const rules = async (changes: Partial<Record<Filename, string>>, extra: CheckOptions = {}) =>
  (await check(changes, extra)).map((finding) => finding.rule);

describe('checkTrace', () => {
  it('finds nothing in a project that traces cleanly', async () => {
    expect(await check()).toEqual([]);
  });

  it('feature-without-fr: a core feature no FR title shares a word with', async () => {
    const [finding] = await check(
      {},
      { coreFeatures: [...FEATURES, 'Invoices for clinic visits'] },
    );
    expect(finding).toMatchObject({ rule: 'feature-without-fr', severity: 'high' });
    expect(finding?.message).toContain('"Invoices for clinic visits"');
    // "reminder via SMS" matched "Vaccination reminders" above. Before the requirements are
    // written there is nothing to match (and the brief's NFR-1 is not unknown, only unwritten).
    const early = buildTrace([{ filename: 'project-brief.md', content: BRIEF }]);
    expect(await checkTrace(early, options)).toEqual([]);
  });

  it('fr-without-criterion: an FR group with no FR-n.m', async () => {
    const requirements = REQUIREMENTS.replace(
      /- \*\*FR-3\.1\*\*.*\n/,
      'Clinics see what is due.\n',
    );
    const findings = await check({ 'product-requirements.md': requirements });
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'fr-without-criterion', severity: 'high', ids: ['FR-3'] }),
    ]);
    expect(findings[0]?.message).toContain('**FR-3.1** WHEN');
  });

  it('numbering: gaps, leading zeros and one number spelt twice', async () => {
    const gap = REQUIREMENTS.replace('FR-2.2', 'FR-2.3');
    expect(
      await check({
        'product-requirements.md': gap,
        'user-stories.md': STORIES.replace('FR-2.2', 'FR-2.3'),
        'implementation-plan.md': PLAN.replace('FR-2.2', 'FR-2.3'),
      }),
    ).toEqual([
      expect.objectContaining({
        rule: 'numbering',
        severity: 'medium',
        message: expect.stringContaining('FR-2.2 is missing'),
      }),
    ]);
    const padded = `${BRIEF}\n- **R-01** The provider raises prices.\n`;
    const findings = await check({ 'project-brief.md': padded });
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'numbering', ids: ['R-01', 'R-1'] }),
    ]);
    expect(findings[0]?.message).toContain(
      'must run 1, 2, 3… with no gaps, no number used twice and no leading zeros: R-01 starts with a zero; R-1 and R-01 use the same number.',
    );
  });

  it('must-without-story: a Must FR no story cites', async () => {
    const must = REQUIREMENTS.replace('Priority: Should', 'Priority: Must');
    expect(await check({ 'product-requirements.md': must })).toEqual([
      expect.objectContaining({ rule: 'must-without-story', ids: ['FR-3'], severity: 'high' }),
    ]);
    // A story citing one of its criteria is enough.
    const story = `${STORIES}\n### US-3: See the week\n\nAs a clinic I want the week's list (FR-3.1).\n`;
    expect(await check({ 'product-requirements.md': must, 'user-stories.md': story })).toEqual([]);
    // Not before the stories are written.
    const early = documents({ 'product-requirements.md': must }).filter(
      (document) => document.filename !== 'user-stories.md',
    );
    expect(await checkTrace(buildTrace(early), options)).toEqual([]);
  });

  it('fr-without-component: an FR the architecture never cites', async () => {
    const architecture = ARCHITECTURE.replace(' and serves the clinic calendar (FR-3)', '');
    expect(await rules({ 'architecture.md': architecture })).toEqual(['fr-without-component']);
  });

  it('fr-without-task: a mention outside the Tasks section covers nothing', async () => {
    const plan = PLAN.replace(
      'Calendar view for clinics (FR-3).',
      'Calendar view for clinics.',
    ).replace(
      '- [ ] A reminder',
      '- [ ] The calendar (FR-3) is shown to a clinic\n- [ ] A reminder',
    );
    const findings = await check({ 'implementation-plan.md': plan });
    expect(findings).toEqual([expect.objectContaining({ rule: 'fr-without-task', ids: ['FR-3'] })]);
    expect(findings[0]?.message).toContain('release checklist');
  });

  it('unknown-id: a citation of an ID no document defines, and a criterion without its FR', async () => {
    const stories = STORIES.replace('(FR-2.1, FR-2.2)', '(FR-2.1, FR-2.4, FR-02)');
    const findings = await check({ 'user-stories.md': stories });
    expect(findings.map((f) => [f.rule, f.ids])).toEqual([
      ['unknown-id', ['FR-2.4', 'US-2']],
      ['unknown-id', ['FR-02', 'US-2']],
    ]);
    expect(findings[1]?.message).toContain('Did you mean FR-2?');
    // The brief is checked on its own, before the requirements exist.
    const wrong = buildTrace([
      { filename: 'project-brief.md', content: BRIEF.replace('G-1)', 'G-3)') },
    ]);
    expect((await checkTrace(wrong, options)).map((f) => f.ids)).toEqual([['G-3', 'A-1']]);
    const orphan = REQUIREMENTS.replace('### FR-3 Clinic calendar', '### Clinic calendar');
    expect(await check({ 'product-requirements.md': orphan })).toContainEqual(
      expect.objectContaining({
        rule: 'unknown-id',
        ids: ['FR-3.1'],
        message: expect.stringContaining('belongs to FR-3, which no document defines'),
      }),
    );
  });

  it('duplicate-id: the merge finding is passed on', async () => {
    const plan = PLAN.replace(
      '## Release checklist',
      '| T-2 | Reminder job again |\n| --- | --- |\n| T-2 | again |\n\n## Release checklist',
    );
    expect(await rules({ 'implementation-plan.md': plan })).toEqual(['duplicate-id']);
  });

  it('task-dependency: a dependency on a missing task (high) and a cycle (critical)', async () => {
    const missing = PLAN.replace('Depends on: T-1, T-2', 'Depends on: T-1, T-7');
    expect(await check({ 'implementation-plan.md': missing })).toEqual([
      expect.objectContaining({ rule: 'task-dependency', severity: 'high', ids: ['T-3', 'T-7'] }),
    ]);
    const cycle = PLAN.replace('Implements FR-1.', 'Implements FR-1 after T-3.');
    const findings = await check({ 'implementation-plan.md': cycle });
    expect(findings.map((f) => [f.rule, f.severity, f.ids])).toEqual([
      ['task-dependency', 'critical', ['T-1', 'T-3']],
      ['task-dependency', 'critical', ['T-1', 'T-3', 'T-2']],
    ]);
    expect(findings[0]?.message).toContain('T-1 → T-3 → T-1');
    expect(needsRepair(findings)).toBe(true);
  });

  it('code-block: JSON, injected YAML and mermaid must parse', async () => {
    const block = (lang: string, body: string) => `${API}\n\`\`\`${lang}\n${body}\n\`\`\`\n`;
    const fails = async (lang: string, body: string, extra: CheckOptions = {}) =>
      (await check({ 'api-design.md': block(lang, body) }, extra)).map((f) => f.message);

    expect(await fails('json', '{ "name": "Rex", }')).toEqual([
      expect.stringMatching(/^The ```json block at line 11 of api-design.md .*is not valid JSON/),
    ]);
    expect(await fails('yaml', 'a: 1\n  b: 2')).toEqual([
      expect.stringContaining('not valid YAML'),
    ]);
    expect(await fails('yaml', 'a: 1\n  b: 2', { parseYaml: undefined as never })).toHaveLength(0);
    expect(await fails('yml', 'openapi: 3.1.0\ninfo: { title: PetPal }')).toEqual([]);
    // pie has a grammar in @mermaid-js/parser: parsed in full.
    expect(await fails('mermaid', 'pie title Pets\n  "Dogs" : 386')).toEqual([]);
    expect(await fails('mermaid', 'pie title Pets\n  "Dogs" 386')).toEqual([
      expect.stringContaining('not a valid mermaid diagram'),
    ]);
    // Flowcharts and sequence diagrams have none: only the diagram type is checked.
    expect(await fails('mermaid', '%% the request\nsequenceDiagram\n  A->>B: hi')).toEqual([]);
    expect(await fails('mermaid', '---\ntitle: Flow\n---\nflowchart LR\n  A --> B')).toEqual([]);
    expect(await fails('mermaid', 'flowchat LR\n  A --> B')).toEqual([
      expect.stringContaining('does not start with a mermaid diagram type ("flowchat")'),
    ]);
    expect(await fails('ts', 'const = ;')).toEqual([]);
  });

  it('near-empty-section: a heading with (almost) nothing under it', async () => {
    const architecture = `${ARCHITECTURE}\n## Security\n\nTBD.\n\n## Deployment\n`;
    const findings = await check({ 'architecture.md': architecture });
    expect(findings.map((f) => [f.rule, f.section])).toEqual([
      ['near-empty-section', 'Security'],
      ['near-empty-section', 'Deployment'],
    ]);
    expect(findings[1]?.message).toContain('has no text');
    expect(await rules({ 'architecture.md': architecture }, { minSectionChars: 4 })).toEqual([
      'near-empty-section',
    ]);
  });

  it('orders findings worst first', async () => {
    const plan = PLAN.replace('Implements FR-1.', 'Implements FR-1 after T-3.');
    const brief = `${BRIEF}\n- **R-01** The provider raises prices.\n`;
    const findings = await check({ 'implementation-plan.md': plan, 'project-brief.md': brief });
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['task-dependency', 'critical'],
      ['task-dependency', 'critical'],
      ['numbering', 'medium'],
    ]);
    expect(SEVERITIES).toEqual(['critical', 'high', 'medium', 'low']);
  });
});

describe('needsRepair', () => {
  const finding = (severity: Finding['severity']): Finding => ({
    rule: 'numbering',
    severity,
    message: '',
  });
  it('is true when any finding is critical or high', () => {
    expect(needsRepair([finding('medium'), finding('low')])).toBe(false);
    expect(needsRepair([finding('medium'), finding('high')])).toBe(true);
  });
});

describe('feature matching', () => {
  it('compares stemmed content words', () => {
    expect(contentWords('Sending the reminders to users')).toEqual(new Set(['send', 'remind']));
    expect(contentWords('Scheduled visits')).toEqual(contentWords('visit scheduling'));
    // pluralize's singular, not a cut: `movies` is a `movie`, never a `movy`.
    expect(contentWords('Rate movies')).toEqual(contentWords('Rate a movie'));
    expect(stem('movies')).toBe(stem('movie'));
  });

  it('gives each feature its own FR when one exists', () => {
    const frs = [
      { id: 'FR-1', title: 'Vaccination reminders' },
      { id: 'FR-2', title: 'Vaccination records' },
    ];
    expect(unmatched(['Reminders for vaccinations', 'Records'], frs)).toEqual([]);
    // Greedy order would give FR-1 to the first feature and leave the second without one.
    expect(unmatched(['Vaccinations', 'Reminders'], frs)).toEqual([]);
    expect(unmatched(['Vaccinations', 'Reminders', 'Billing'], frs)).toEqual(['Billing']);
  });
});

describe('a grounded project', () => {
  it('reads no IDs in the codebase overview: what looks like one there belongs to the code', async () => {
    const overview = {
      filename: 'CODEBASE_OVERVIEW.md',
      content:
        '# Codebase Overview: Vetbook\n\n## Summary\n\nThe code still refers to ticket T-99 and to release R-7 of the API; US-12 names a legacy job.\n',
    };
    const trace = buildTrace([...documents(), overview]);
    expect(trace.edges.filter((edge) => edge.document === overview.filename)).toEqual([]);
    expect(await checkTrace(trace, options)).toEqual([]);
    // The same text in any other document is a citation of IDs no document defines.
    const cited = buildTrace([...documents(), { ...overview, filename: 'NOTES.md' }]);
    expect((await checkTrace(cited, options)).map((f) => f.rule)).toContain('unknown-id');
  });
});
