/**
 * The trace rule of a Gherkin project's criteria (docs/requirement-style.md): every
 * acceptance criterion is a scenario, and every scenario has a When and a Then. An EARS
 * project's criteria are sentences and this rule says nothing of them, unless one is written
 * as a scenario and lacks a step.
 */
import type { CriterionForm, Finding, Trace } from './types.ts';

/** How a project's criteria are written: `ears` sentences or `gherkin` scenarios. */
export type RequirementStyle = 'ears' | 'gherkin';

/** The form a Gherkin criterion takes, as a repair is told it. */
export const SCENARIO_FORM =
  '"- **FR-n.m** Scenario: <name>" followed by the items "  - **Given** <starting state>" (when it needs one), ' +
  '"  - **When** <event>" and "  - **Then** <observable outcome>"';

/**
 * The style the criteria of a trace follow: the one given, else Gherkin when any criterion
 * is written as a scenario (a trace read without its project, as the API serves it).
 *
 * @example
 * styleOf(trace, undefined); // 'gherkin' when a criterion is a scenario
 */
export function styleOf(trace: Trace, given: RequirementStyle | undefined): RequirementStyle {
  if (given !== undefined) return given;
  const scenario = trace.documents.some((document) =>
    document.criteria.some((criterion) => criterion.steps !== undefined),
  );
  return scenario ? 'gherkin' : 'ears';
}

/** What a criterion lacks to be a whole scenario, or undefined when it is one. */
function lacking(criterion: CriterionForm, style: RequirementStyle): string | undefined {
  const steps = criterion.steps;
  if (steps === undefined)
    return style === 'gherkin'
      ? 'is not written as a scenario (it reads as a sentence)'
      : undefined;
  const missing = (['When', 'Then'] as const).filter((keyword) => !steps.includes(keyword));
  if (missing.length === 0) return undefined;
  return `is a scenario without a ${missing.join(' or a ')} step`;
}

/**
 * One `scenario-incomplete` finding (high, so the requirements are repaired) per criterion
 * that is not a scenario in a Gherkin project, or is a scenario missing its When or its Then.
 *
 * @example
 * scenarioFindings(trace, 'gherkin'); // [{ rule: 'scenario-incomplete', ids: ['FR-2.1'], … }]
 */
export function scenarioFindings(trace: Trace, style: RequirementStyle): Finding[] {
  const findings: Finding[] = [];
  for (const document of trace.documents) {
    for (const criterion of document.criteria) {
      const fault = lacking(criterion, style);
      if (fault === undefined) continue;
      findings.push({
        rule: 'scenario-incomplete',
        severity: 'high',
        message:
          `The acceptance criterion ${criterion.id} (${document.filename}, line ${criterion.line}) ${fault}. ` +
          `This project writes criteria as Gherkin scenarios: write it as ${SCENARIO_FORM}, keeping its ID.`,
        document: document.filename,
        section: criterion.section,
        ids: [criterion.id],
      });
    }
  }
  return findings;
}
