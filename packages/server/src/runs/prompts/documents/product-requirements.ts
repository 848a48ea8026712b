import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for PRODUCT_REQUIREMENTS.md: it defines the FR groups, their EARS acceptance
 * criteria (FR-n.m) and the NFR IDs every later document cites.
 */
export const PRODUCT_REQUIREMENTS: DocumentPrompt<'product-requirements'> = {
  kind: 'product-requirements',
  version: 2,
  reader:
    'The engineers, designers and testers who build the first release, and the product lead who ' +
    'signs it off. They look requirements up by ID while designing, estimating and testing, and ' +
    'treat this document as the contract for what "done" means.',
  purpose:
    "Turn the brief's scope into numbered, testable requirements: one functional requirement " +
    'group (FR) per core feature, each with acceptance criteria a tester can run as written, and ' +
    'how well the product must work (NFR), so that the stories cite the criteria, the design ' +
    'documents and the plan cite the requirements, and a tester can tell whether each one is met.',
  sections: {
    Summary:
      "One paragraph: what the first release delivers, for whom, and which of the brief's goals " +
      '(G-n) it serves. Then one line counting the FR groups by priority, the criteria and the NFRs.',
    Personas:
      "Two to four personas drawn from the brief's target audience, the primary one first. For " +
      'each, a ### heading with a role (a short noun phrase the stories can use after "As a"), ' +
      'then short lines for: their goal with the product, the situation they use it in, and what ' +
      'they use today as the brief describes it. Describe roles, not invented people: no ' +
      'biographies, ages or quotes.',
    'Key entities':
      'A table with columns Entity, What it is, Key attributes, Related to: the things the ' +
      "product stores or manipulates, from the questionnaire's key entities, with the attributes " +
      'the requirements below rely on (units and limits where they matter).',
    'Functional requirements':
      'One group per core feature of the questionnaire, in its order, plus one group for ' +
      'cross-cutting behaviour (accounts, settings, notifications) only when the features need ' +
      'it. Each group is a heading `### FR-n <the feature> (Must|Should|Could)`, numbered from ' +
      'FR-1 without gaps; then one or two sentences stating the requirement, keeping every ' +
      'qualifier and number the idea gives the feature; then `Depends on: A-2, Q-1` when an ' +
      'assumption or open question of the brief bears on it; then two to five acceptance ' +
      'criteria, each a paragraph of its own starting with its bold ID, `FR-n.1` upward without ' +
      'gaps, in EARS form: `**FR-3.1** WHEN a vaccination falls due within 14 days THE SYSTEM ' +
      'SHALL send one SMS to the owner.`; `IF <unwanted condition> THEN THE SYSTEM SHALL …` for ' +
      'failures and invalid input; `WHILE <state> THE SYSTEM SHALL …`; `WHERE <option is ' +
      'enabled> THE SYSTEM SHALL …`; `THE SYSTEM SHALL …` for what always holds. One observable ' +
      'behaviour per criterion, with the values that make it testable (limits, sizes, time ' +
      'windows, counts, formats, messages). Priority is Must (the release fails without it), ' +
      'Should (expected; may slip one iteration) or Could (only if time allows), decided per ' +
      'feature from the idea: what the idea names is rarely less than Should.',
    'Non-functional requirements':
      'Six to ten NFRs, each a paragraph of its own starting with its bold ID and its category: ' +
      '`**NFR-1** (Performance) …`. Cover performance (a latency percentile for a named ' +
      'operation at a stated load), availability, security (authentication, encryption in transit ' +
      'and at rest, secret handling), privacy (which personal data is held, for how long, deletion ' +
      'on request), accessibility (the WCAG 2.2 level and where it applies), compatibility ' +
      '(browsers, operating system, client or runtime versions by number), capacity, and every ' +
      'constraint the questionnaire names. Each NFR states a number, the condition it holds under ' +
      'and how it is measured; a number nobody gave is a default, citing the assumption (A-n) ' +
      'that records it when the brief has one.',
    'Out of scope':
      'A bulleted list of what this release will not do, each with the reason and, where it ' +
      "applies, the condition for reconsidering it: the brief's list first, then near neighbours " +
      'a reader would otherwise assume are included. Nothing here may contradict a requirement or ' +
      'the idea.',
  },
  rules: [
    'This document defines the FR, FR-n.m and NFR IDs that every later document cites: define ' +
      'each exactly once (the FR in its heading, each criterion and NFR in bold only at its ' +
      'definition), and never skip or reuse a number.',
    'Every core feature of the questionnaire has its own FR group, whatever its priority; add no ' +
      'feature the brief leaves out of scope. Every capability, qualifier and number of the idea ' +
      'appears in the group that carries it.',
    'Write testable criteria: name the trigger or state, the system response and the observable ' +
      'outcome. Replace words such as fast, easy, intuitive, secure, scalable or seamless with the ' +
      'number or the behaviour that would prove them. The stories will cite these criteria rather ' +
      'than write their own, so cover the happy path and the most likely failure of each feature.',
    'Fit the NFRs to the project type: for a web application, supported browsers, page load ' +
      '(Largest Contentful Paint) and API latency; for a mobile app, minimum iOS and Android ' +
      'versions, cold start time, download size, battery and data use; for an MCP server, tool ' +
      'call latency, the protocol revision and the clients supported, result size limits and ' +
      'runtime versions.',
    'Length follows the feature list: about 200 to 300 words per core feature plus about 600 for ' +
      'the rest. With many features keep each criterion short rather than dropping any.',
  ],
  maxOutputTokens: 8_000,
};
