/**
 * What the prompts of a project whose requirement style is `gherkin` add (docs/requirement-style.md):
 * acceptance criteria as Given/When/Then scenarios that keep their `FR-n.m` IDs, instead of
 * the EARS sentences the system prompt and the requirements' prompt describe. An EARS project
 * never sees a word of this, so its prompts and their versions stay as they were; a Gherkin
 * prompt's version names this one (`product-requirements@2+gherkin@1+system@3`).
 */
import type { RequirementStyle } from '@pgs/contract';

/** Bumped on every change of the words below or of how they are placed in a prompt. */
export const GHERKIN_VERSION = 1;

/** `gherkin@n`, as provenance records it inside a prompt's version. */
export const GHERKIN_ID = `gherkin@${GHERKIN_VERSION}`;

/**
 * Added to the system prompt of every document and every rewrite of a Gherkin project: the
 * form of a criterion, which wins over the EARS form named elsewhere.
 */
export const GHERKIN_SYSTEM = `This project writes its acceptance criteria as Gherkin scenarios, not as EARS sentences: wherever these instructions say EARS, write a scenario instead. In the product requirements each criterion is a list item that opens with its bold ID and "Scenario:" and a short name, its steps a list inside it, each step opening with its bold keyword:

- **FR-3.1** Scenario: A vaccination falls due
  - **Given** the owner's phone number is on file
  - **When** a vaccination falls due within 14 days
  - **Then** the system sends one SMS to the owner
  - **And** records when it went out

Rules for scenarios:
- The criteria of one group form one list, numbered FR-n.1 upward without gaps; IDs are kept exactly as an EARS criterion's would be, and every other document cites a scenario by its ID (FR-3.1) without restating its steps.
- Every scenario has a When (the event or action) and at least one Then (the observable outcome, with the values that make it testable: limits, sizes, time windows, counts, messages); a Given states the starting state when the scenario needs one. And or But continue the step before them.
- One behaviour per scenario. What EARS would write as IF … THEN (a failure, invalid input) is a scenario of its own: When the unwanted event happens, Then what the system does.`;

/**
 * What a document prompt of a project in this style adds: its system prompt's extra words
 * and its version's extra part. Nothing for `ears`.
 *
 * @example
 * styleFrame('gherkin'); // { system: '\n\nThis project writes …', id: '+gherkin@1' }
 */
export function styleFrame(style: RequirementStyle | undefined): { system: string; id: string } {
  return style === 'gherkin'
    ? { system: `\n\n${GHERKIN_SYSTEM}`, id: `+${GHERKIN_ID}` }
    : { system: '', id: '' };
}
