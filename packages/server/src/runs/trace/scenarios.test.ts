import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { documents, REQUIREMENTS } from '../../../test/fixtures/trace-documents.ts';
import { traceFindings } from '../gate.ts';
import { buildTrace } from './build.ts';
import { checkTrace } from './check.ts';

/** The fixture's requirements with FR-2's criteria written as scenarios (FR-1 and FR-3 as EARS). */
const SCENARIOS = REQUIREMENTS.replace(
  /\*\*FR-2\.1\*\* WHEN[^\n]*\n\n\*\*FR-2\.2\*\* WHEN[^\n]*\n/,
  [
    '- **FR-2.1** Scenario: A vaccination falls due',
    '  - **Given** the owner has a phone number',
    '  - **When** a vaccination falls due within 14 days',
    '  - **Then** PetPal sends one SMS to the owner',
    '- **FR-2.2** Scenario: An SMS fails',
    '  - **When** an SMS fails',
    '',
  ].join('\n'),
);

const FEATURES = ['Pet profiles', 'Vaccination reminder via SMS', 'Clinic calendar'];

const findings = (requirements: string, requirementStyle?: 'ears' | 'gherkin') =>
  checkTrace(buildTrace(documents({ 'product-requirements.md': requirements })), {
    coreFeatures: FEATURES,
    parseYaml,
    ...(requirementStyle ? { requirementStyle } : {}),
  });

describe('scenario-incomplete', () => {
  it('finds a scenario without a Then, and in a Gherkin project every criterion that is no scenario', async () => {
    const found = (await findings(SCENARIOS, 'gherkin')).filter(
      (f) => f.rule === 'scenario-incomplete',
    );
    expect(found.map((f) => [f.ids, f.severity])).toEqual([
      [['FR-1.1'], 'high'],
      [['FR-2.2'], 'high'],
      [['FR-3.1'], 'high'],
    ]);
    expect(found[1]?.message).toContain('FR-2.2');
    expect(found[1]?.message).toContain('is a scenario without a Then step');
    expect(found[0]?.message).toContain('is not written as a scenario');
    // The traced graph is the same: the scenarios define their IDs where they are written.
    const trace = buildTrace(documents({ 'product-requirements.md': SCENARIOS }));
    expect(trace.coverage.requirements.find((r) => r.id === 'FR-2')?.criteria).toEqual([
      'FR-2.1',
      'FR-2.2',
    ]);
  });

  it('reads the style from the criteria when no one says it (no project to ask)', async () => {
    const rules = (await findings(SCENARIOS)).map((f) => f.rule);
    expect(rules.filter((rule) => rule === 'scenario-incomplete')).toHaveLength(3);
  });

  it('says nothing of an EARS project', async () => {
    expect(await findings(REQUIREMENTS)).toEqual([]);
    expect(await findings(REQUIREMENTS, 'ears')).toEqual([]);
  });

  it('is a gate finding of the requirements, the repair told the form', async () => {
    const gate = await traceFindings(
      [{ filename: 'product-requirements.md', content: SCENARIOS }],
      'product-requirements',
      'product-requirements.md',
      FEATURES,
      [],
      'gherkin',
    );
    const scenario = gate.find((f) => f.rule === 'scenario-incomplete');
    expect(scenario?.message).toContain('- **FR-n.m** Scenario: <name>');
    const missing = gate.find((f) => f.rule === 'fr-without-criterion');
    expect(missing).toBeUndefined();
  });
});
