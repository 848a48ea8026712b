import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for USER_STORIES.md: it defines the US IDs and ties each story to the
 * acceptance criteria (FR-n.m) that accept it.
 */
export const USER_STORIES: DocumentPrompt<'user-stories'> = {
  kind: 'user-stories',
  version: 2,
  reader:
    'The designers and engineers who build one story at a time, and the testers who check it ' +
    'against the acceptance criteria it cites. They need to know who wants what and why, and ' +
    'which criteria tell that it works.',
  purpose:
    "Express the requirements from the users' side: stories grouped into epics, each citing the " +
    'acceptance criteria of the product requirements that accept it (one set of criteria for ' +
    'the whole project, never a competing one), and the edge cases that would otherwise first ' +
    'be found in production.',
  sections: {
    Epics:
      'A table with columns Epic, Goal for the user, Stories, Requirements: usually one epic per ' +
      'core feature (merge two only when they are one user journey), named by what the user ' +
      'achieves ("Plan the week\'s meals"), never by a component. Stories lists the epic\'s US ' +
      'IDs; Requirements the FR IDs its stories serve. Epics get names, not IDs.',
    Stories:
      'In the order of the Epics table, each story is a heading `### US-n <short title> ' +
      '(Must|Should|Could)`, numbered from US-1 without gaps, then the sentence `As a <role>, I ' +
      'want <action>, so that <benefit>.` and then a line `Criteria: FR-3.1, FR-3.2` citing the ' +
      'acceptance criteria that accept the story (or the FR itself when every criterion of it ' +
      'applies). The role is a persona of the product requirements; the want is one action in ' +
      "the user's words, not a user interface element; the so-that is the benefit, not the want " +
      'restated. The priority is the highest of the FRs cited. Two to four stories per epic, each ' +
      'small enough to build and test within a few days; every Must FR is cited by at least one ' +
      'story.',
    'Edge cases':
      'A table with columns Edge case, Stories, Criteria, Expected behaviour: eight to fifteen ' +
      'rows specific to this product, naming the field, the limit or the object involved, and ' +
      'citing the criterion that decides the behaviour (write "not yet specified" and the open ' +
      'question it raises when no criterion does). Consider first use with no data; the largest ' +
      'input the requirements allow and one past it; duplicates and double submission; two ' +
      'people or two devices editing the same thing; a network lost halfway; an expired session; ' +
      "time zones; access revoked while in use; and the product's own risky cases.",
  },
  rules: [
    'Cite only IDs that appear in the product requirements (FR-n and FR-n.m), written in full, ' +
      'never as a range. Write no acceptance criteria of your own: a story is accepted by the ' +
      'criteria it cites.',
    'Stories belong to people. No technical stories ("As a developer, I want a database"): setup ' +
      'and infrastructure work belongs in the implementation plan.',
    'Fit the stories to the project type: for a mobile app, include the moments on the move (one ' +
      'hand, poor signal, an interruption, a notification tapped later); for an MCP server, the ' +
      "person is the one working with an AI assistant that calls the server's tools on their " +
      'behalf, so stories say what they ask the assistant to do and, for anything that writes, ' +
      'what they must be able to approve or undo (a read-only server writes nothing).',
    'Length follows the feature list: about 150 to 250 words per epic plus about 400 for the ' +
      'rest.',
  ],
  maxOutputTokens: 8_000,
};
