import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for PRODUCT_REQUIREMENTS.md: it defines the FR and NFR IDs every later document
 * cites.
 */
export const PRODUCT_REQUIREMENTS: DocumentPrompt = {
  kind: 'product-requirements',
  version: 1,
  reader:
    'The engineers, designers and testers who build the first release, and the product lead who ' +
    'signs it off. They look requirements up by ID while designing, estimating and testing, and ' +
    'treat this document as the contract for what "done" means.',
  purpose:
    "Turn the brief's scope into numbered, testable requirements: what the product must do (FR) " +
    'and how well it must do it (NFR), each with a priority and a way to check it, so that the ' +
    'stories, the design documents and the implementation plan can cite them and a tester can ' +
    'tell whether each one is met.',
  sections: {
    Summary:
      "One paragraph: what the first release delivers, for whom, and which of the brief's goals " +
      'it serves. Then one line counting the requirements: how many FRs are Must, Should and ' +
      'Could, and how many NFRs there are.',
    Personas:
      "Two to four personas drawn from the brief's target audience, the primary one first. For " +
      'each, a ### heading with a first name and a role, then short lines for: their goal with ' +
      'the product, the situation they use it in (device, place, time pressure, how often), what ' +
      'they use today, their comfort with technology, and the one thing that would make them ' +
      'give up on the product. The stories will be written "As a" followed by the role, so make ' +
      'each role a short noun phrase that reads well there.',
    'Functional requirements':
      'Every behaviour the release must have, grouped under a ### heading per core feature of ' +
      "the questionnaire, in the questionnaire's order, plus one group for cross-cutting " +
      'behaviour (accounts, settings, notifications, billing) when the product needs it. Each ' +
      'requirement is a paragraph of one or two sentences, separated from the next by a blank ' +
      'line (not a bullet, not a table row), starting with its bold ID and its priority: ' +
      '`**FR-1** (Must) A signed-in user can …`. One observable behaviour per requirement: who ' +
      'acts, what they can do or what the system does, under which condition, with the numbers ' +
      'that make it testable (limits, sizes, time windows, counts, formats). Two to five FRs per ' +
      'feature, numbered from FR-1 without gaps across the groups. Priority is Must (the release ' +
      'fails without it), Should (expected; may slip one iteration) or Could (only if time ' +
      'allows); every core feature has at least one Must, and at least half of all FRs are Must.',
    'Non-functional requirements':
      'Six to ten NFRs, each a paragraph of its own starting with its bold ID and its category: ' +
      '`**NFR-1** (Performance) …`. Cover performance (a latency percentile for a named ' +
      'operation at a stated load), availability (a monthly percentage and what it excludes), ' +
      'security (authentication strength, encryption in transit and at rest, secret handling), ' +
      'privacy (which personal data is held, for how long, deletion on request), accessibility ' +
      '(the WCAG 2.2 level and where it applies), compatibility (browsers, operating system, ' +
      'client or runtime versions by number), capacity (users, records or requests the release ' +
      'must handle) and every constraint the questionnaire names (budget, regulation, deadline, ' +
      'hosting region). Each NFR states a number, the condition it holds under and how it is ' +
      'measured.',
    'Out of scope':
      'A bulleted list of what this release will not do, each with the reason and, where it ' +
      "applies, the condition for reconsidering it. Start from the brief's list of what is not " +
      'in the first release, then add the near neighbours a reader would otherwise assume are ' +
      'included (a second platform, an admin console, bulk import, localisation, offline use, ' +
      'integrations) whenever they are not. Nothing here may contradict a requirement above.',
    'Acceptance criteria':
      'A table with one row per FR, in ID order and with every FR present, columns Requirement, ' +
      'Acceptance criterion, Verified by. The criterion is a concrete check with values, in the ' +
      'form Given a precondition, When an action, Then an observable result (the data shown or ' +
      'stored, the message, the state, the time limit). Verified by is one of unit test, ' +
      'integration test, end-to-end test, manual check. After the table, one line per NFR saying ' +
      'how it is measured before release: the tool or method and the pass threshold. Refer to ' +
      'requirements here by their plain ID; they are defined above.',
  },
  rules: [
    'This document defines the requirement IDs that every later document cites: define each FR ' +
      'and NFR exactly once, in bold only at its definition, and never skip or reuse a number.',
    'Every core feature of the questionnaire is covered by at least one FR; add no feature the ' +
      'brief leaves out of scope.',
    'Write testable sentences: name the actor, the action and the observable outcome. Replace ' +
      'words such as fast, easy, intuitive, secure, scalable or seamless with the number or the ' +
      'behaviour that would prove them.',
    'Fit the NFRs to the project type: for a web application, supported browsers, page load ' +
      '(Largest Contentful Paint) and API latency; for a mobile app, minimum iOS and Android ' +
      'versions, cold start time, download size, battery and data use; for an MCP server, tool ' +
      'call latency, the protocol revision and the clients supported, result size limits and ' +
      'runtime versions.',
    'Length follows the feature list: about 150 to 250 words per core feature plus about 600 for ' +
      'the rest. With many features keep each requirement short rather than dropping any; the ' +
      'document must end with the complete Acceptance criteria table.',
  ],
  maxOutputTokens: 8_000,
};
