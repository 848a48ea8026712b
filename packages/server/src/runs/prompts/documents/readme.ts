import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for README.md: what the project is and how to get it running, with commands that
 * match the stack.
 */
export const README: DocumentPrompt<'readme'> = {
  kind: 'readme',
  version: 2,
  reader:
    'A developer opening the repository for the first time, who wants to know in a minute what ' +
    'the project is and to have it running on their machine within ten.',
  purpose:
    'Introduce the project and take a developer from the repository root to a running, tested ' +
    'build with commands that match the chosen stack, then show how the code is organised and ' +
    'how to contribute.',
  sections: {
    About:
      "Two or three sentences, the project's name in the first: what it is, who it is for, and " +
      'the problem it solves. Then one line on its status: the first release, in development.',
    Features:
      "A bulleted list of the first release's features, one line each in the user's terms and " +
      'with the qualifiers of the idea, Must features first, each citing its FR ID in parentheses ' +
      'so a contributor can find the requirement. Then one line pointing to the implementation ' +
      "plan's first milestone as the place to start. Nothing the requirements leave out of scope.",
    'Tech stack':
      "A table with columns Layer, Technology, Version: the technologies of the architecture's " +
      'technology choices, with major versions, and nothing else.',
    'Getting started':
      'Prerequisites with minimum versions (runtime, package manager, database, Docker, mobile ' +
      'SDKs and simulators, an MCP client, whatever the architecture needs). Then numbered ' +
      'steps, each with a bash code block run from the repository root: install dependencies; ' +
      'configure the environment, with a table of environment variables (name, purpose, an ' +
      'example value that is plainly not a secret); prepare the database or services; start in ' +
      "development; run the tests. Commands are the real commands of the stack's tools (`npm " +
      'install`, `pnpm dev`, `uv sync`, `docker compose up`, `npx expo start`, `./gradlew ' +
      'assembleDebug` and the like), consistent with the project structure below. For an MCP ' +
      'server, end by connecting one client with a configuration snippet and checking that the ' +
      'tools are listed.',
    'Project structure':
      "The repository's directory tree as the architecture implies it, in a text code block two " +
      'or three levels deep, each directory with a short comment naming what lives there (which ' +
      'component). Only what a contributor needs to find their way.',
    Contributing:
      'How to work on the project: branch naming, the commit message convention, the commands to ' +
      'run before opening a pull request (lint, format, type check, tests: the same ones CI ' +
      'runs), what a pull request must contain (tests, updated documents, the FR or US IDs it ' +
      'implements), and how to report a bug or propose a feature. Add a licence line only if an ' +
      'earlier document or the questionnaire names a licence.',
  },
  rules: [
    'No invented URLs: no repository, documentation site, badge, demo, issue tracker or contact ' +
      'address unless an earlier document gives it. Start from the repository root rather than a ' +
      'clone command; local addresses such as `http://localhost:3000` are fine where the ' +
      'architecture implies them.',
    "Every command, tool and version agrees with the architecture's technology choices and the " +
      "questionnaire's tech stack.",
    'Cite FR, US and T IDs only where they help and only those in the documents you were ' +
      'given, written in full; introduce no IDs of your own.',
    'The project structure and the getting-started steps follow the implementation plan and the ' +
      'design documents you were given: the same components, the same order of setup.',
    'About 500 to 1,000 words: a README is scanned, so prefer commands and tables to prose.',
  ],
  maxOutputTokens: 3_500,
};
