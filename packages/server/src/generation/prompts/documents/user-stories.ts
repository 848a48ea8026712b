import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for USER_STORIES.md: it defines the US IDs and ties each story to the FRs it
 * serves.
 */
export const USER_STORIES: DocumentPrompt = {
  kind: 'user-stories',
  version: 1,
  reader:
    'The designers and engineers who build one story at a time, and the testers who turn its ' +
    'acceptance criteria into tests. They need to know who wants what and why, which ' +
    'requirements a story delivers, and how to tell that it works.',
  purpose:
    "Express the requirements from the users' side: stories grouped into epics, each tracing to " +
    'the FRs it serves, with acceptance criteria concrete enough to become tests, and the edge ' +
    'cases that would otherwise first be found in production.',
  sections: {
    Epics:
      'A table with one row per epic, columns Epic, Goal for the user, Stories, Requirements. ' +
      'Usually one epic per core feature of the questionnaire (merge two only when they are one ' +
      'user journey), named by what the user achieves ("Plan the week\'s meals"), never by a ' +
      'component ("Meal service"). Stories lists the epic\'s US IDs; Requirements lists the FR ' +
      'IDs its stories serve. Epics get names, not IDs.',
    Stories:
      'Under a ### heading per epic, in the order of the Epics table, each story is a paragraph ' +
      'of its own, separated from the next by a blank line, starting with its bold ID: `**US-1** ' +
      'As a …, I want …, so that … (FR-2, FR-3; Must)`. The role is one of the personas of the ' +
      "product requirements (or a group from the brief's audience); the want is one action in " +
      "the user's words, not a user interface element; the so-that is the benefit to the user, " +
      'not the want restated. Close with the FRs the story serves and its priority (the highest ' +
      'priority among those FRs). Number from US-1 without gaps. Two to four stories per epic, ' +
      'each small enough to build and test within a few days.',
    'Acceptance criteria':
      'For every story, a ### heading with its ID and a short title (`### US-1: Save a draft`), ' +
      'then two to four scenarios as a bulleted list, each in the form Given …, When …, Then … ' +
      'with concrete values (names, amounts, dates, limits). The happy path first, then the most ' +
      'likely failure (invalid input, missing permission, lost connection, a limit reached) with ' +
      'the exact message or state the user sees. Every scenario checks something observable; ' +
      'none restates the story.',
    'Edge cases':
      'A table with columns Edge case, Stories, Expected behaviour: ten to fifteen rows specific ' +
      'to this product, naming the field, the limit or the object involved. Consider first use ' +
      'with no data; the largest input the requirements allow and one past it; duplicates and ' +
      'double submission; two people or two devices editing the same thing; a network lost ' +
      'halfway; an expired session; time zones and daylight saving; an item deleted or access ' +
      "revoked while someone else is using it; and the product's own risky cases (money, " +
      'bookings, messages sent, data shared).',
  },
  rules: [
    'The product requirements define the FR IDs: cite only FR IDs that appear in them, written ' +
      'in full (FR-3, FR-4, FR-5, never a range), and make sure every Must FR is served by at ' +
      'least one story.',
    'Stories belong to people. No technical stories ("As a developer, I want a database"): setup ' +
      'and infrastructure work belongs in the implementation plan.',
    'Fit the stories to the project type: for a mobile app, include the moments on the move (one ' +
      'hand, poor signal, an interruption, a notification tapped later); for an MCP server, the ' +
      "person is the one working with an AI assistant that calls the server's tools on their " +
      'behalf, so stories say what they ask the assistant to do and what they must be able to ' +
      'approve or undo.',
    'Length follows the feature list: about 250 to 350 words per epic plus about 400 for the ' +
      'rest. With many features keep scenarios short rather than dropping stories; the document ' +
      'must end with the complete Edge cases table.',
  ],
  maxOutputTokens: 8_000,
};
