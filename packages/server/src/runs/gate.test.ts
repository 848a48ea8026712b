import { describe, expect, it } from 'vitest';
import { documentPlan } from './catalogue.ts';
import {
  checkDocument,
  findingsWeight,
  type GateInput,
  needsRepair,
  TRUNCATED,
  traceFindings,
} from './gate.ts';

const base: GateInput = {
  kind: 'architecture',
  content: '',
  projectName: 'MentorLoop',
  sections: ['Context', 'Components', 'Security'],
};

const good = `# Architecture: MentorLoop

MentorLoop is built as three services.

## Context
Bookings (FR-1) and payouts (FR-2) under NFR-1.

## 2. Components
The booking service serves US-1.

## Security:
Tokens are kept server-side.
`;

const rules = (content: string, extra: Partial<GateInput> = {}) =>
  checkDocument({ ...base, ...extra, content }).map((f) => f.rule);

describe('checkDocument', () => {
  it('passes a document with every section (numbering and punctuation aside), the name and known IDs', () => {
    expect(checkDocument({ ...base, content: good })).toEqual([]);
  });

  it('names every missing section', () => {
    const [finding] = checkDocument({
      ...base,
      content: good.replace('## Security:', '### Security'),
    });
    expect(finding).toMatchObject({ rule: 'missing-section' });
    expect(finding!.message).toContain('"Security"');
  });

  it('reads sections from the document tree: a heading inside a code block is none', () => {
    const [finding] = checkDocument({
      ...base,
      content: good.replace('## Security:', '```md\n## Security\n```'),
    });
    expect(finding).toMatchObject({ rule: 'missing-section' });
    expect(finding!.message).toContain('"Security"');
  });

  it.each([
    ['TODO: pick a queue', 'TODO'],
    ['Retention is TBD.', 'TBD'],
    ['Lorem ipsum dolor sit amet.', 'lorem ipsum'],
    ['Deploy to [insert cloud provider].', '[insert'],
    ['Set the header to <your api key>.', '<your'],
    ['The region is to be decided.', 'to be decided'],
  ])('finds the placeholder in %j', (text, shown) => {
    const findings = checkDocument({ ...base, content: `${good}\n${text}\n` });
    expect(findings.map((f) => f.rule)).toEqual(['placeholder']);
    expect(findings[0]!.message.toLowerCase()).toContain(shown.toLowerCase());
  });

  it('allows placeholder-like text inside code blocks, and words that merely contain TODO', () => {
    expect(
      rules(
        `${good}\n\`\`\`bash\nexport TOKEN=<your-token>\n\`\`\`\nA TODOS list and a mastodon are fine.\n`,
      ),
    ).toEqual([]);
  });

  it('wants the project name, in any case', () => {
    expect(rules(good.replaceAll('MentorLoop', 'the product'))).toEqual(['missing-name']);
    expect(rules(good.replaceAll('MentorLoop', 'MENTORLOOP'))).toEqual([]);
  });

  it('an empty answer is one finding, and critical', () => {
    expect(checkDocument({ ...base, content: '  \n' })).toMatchObject([
      { rule: 'empty', severity: 'critical' },
    ]);
  });

  it('gives each form rule its severity: a missing section calls for the repair, a missing name does not', () => {
    const noName = checkDocument({ ...base, content: good.replaceAll('MentorLoop', 'it') });
    expect(noName).toMatchObject([{ rule: 'missing-name', severity: 'medium' }]);
    expect(needsRepair(noName)).toBe(false);
    const noSection = checkDocument({ ...base, content: good.replace('## Security:', 'Security') });
    expect(needsRepair(noSection)).toBe(true);
    expect(needsRepair([TRUNCATED])).toBe(true);
    expect(findingsWeight([TRUNCATED])).toBeGreaterThan(findingsWeight([...noSection, ...noName]));
  });
});

const REQUIREMENTS = `# Requirements

## Functional requirements

### FR-1 Book a session (Must)
A mentee books a session.

**FR-1.1** WHEN a mentee picks a free slot THE SYSTEM SHALL hold it for 10 minutes.

### FR-2 Pay a mentor (Should)
Mentors are paid monthly.

**FR-2.1** WHEN a month ends THE SYSTEM SHALL pay each mentor.
`;

const plan = (tasks: string) => `# Implementation plan

## Tasks

| ID | Task | Implements | Depends on |
| --- | --- | --- | --- |
${tasks}

## Release checklist

- [ ] FR-2 accepted by the product lead against its criteria, on staging, before the first payout run.
`;

describe('traceFindings: the substance, for the document being written', () => {
  const features = ['Book a session', 'Pay a mentor'];
  const run = (tasks: string) =>
    traceFindings(
      [
        { filename: 'PRODUCT_REQUIREMENTS.md', content: REQUIREMENTS },
        { filename: 'IMPLEMENTATION_PLAN.md', content: plan(tasks) },
      ],
      'implementation-plan',
      'IMPLEMENTATION_PLAN.md',
      features,
    );

  it('the plan answers for an FR no task implements: a mention in the checklist does not count', async () => {
    const findings = await run('| T-1 | Booking API | FR-1.1 | none |');
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['fr-without-task', 'high']]);
    expect(findings[0]!.message).toContain('FR-2');
    expect(
      await run('| T-1 | Booking API | FR-1.1 | none |\n| T-2 | Payouts | FR-2 | T-1 |'),
    ).toEqual([]);
  });

  it('a dependency cycle among the tasks is critical', async () => {
    const findings = await run(
      '| T-1 | Booking API | FR-1.1 | T-2 |\n| T-2 | Payouts | FR-2 | T-1 |',
    );
    expect(findings).toMatchObject([{ rule: 'task-dependency', severity: 'critical' }]);
  });

  it("an earlier document's own faults are not the plan's to repair", async () => {
    const findings = await traceFindings(
      [
        {
          filename: 'PRODUCT_REQUIREMENTS.md',
          content: REQUIREMENTS.replace(/\*\*FR-2\.1\*\*.*\n/, ''),
        },
        { filename: 'IMPLEMENTATION_PLAN.md', content: plan('| T-1 | All | FR-1, FR-2 | none |') },
      ],
      'implementation-plan',
      'IMPLEMENTATION_PLAN.md',
      features,
    );
    expect(findings).toEqual([]);
  });
});

describe('a grounded project', () => {
  const grounded = documentPlan('web', { grounded: true });
  const kind = (k: string) => grounded.find((d) => d.kind === k)!;

  it('requires "Current system" in the architecture, and accepts the codebase overview', () => {
    const architecture = kind('architecture');
    const plain = documentPlan('web').find((d) => d.kind === 'architecture')!;
    const content = [
      '# Architecture: MentorLoop',
      ...plain.sections.map((s) => `## ${s}\n\nWhat MentorLoop does here.`),
    ].join('\n\n');
    const input = { kind: 'architecture', projectName: 'MentorLoop', content };
    expect(checkDocument({ ...input, sections: plain.sections })).toEqual([]);
    const findings = checkDocument({ ...input, sections: architecture.sections });
    expect(findings.map((f) => f.rule)).toEqual(['missing-section']);
    expect(findings[0]!.message).toContain('"Current system"');
    expect(needsRepair(findings)).toBe(true);

    const overview = kind('codebase-overview');
    const map = [
      '# Codebase Overview: MentorLoop',
      ...overview.sections.map((s) => `## ${s}\n\nWhat the code of MentorLoop shows.`),
    ].join('\n\n');
    expect(
      checkDocument({
        kind: overview.kind,
        projectName: 'MentorLoop',
        content: map,
        sections: overview.sections,
      }),
    ).toEqual([]);
  });
});
