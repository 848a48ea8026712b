import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for CODEBASE_OVERVIEW.md, written only for a grounded project: the codebase as
 * its digest shows it, before any change, which the architecture and the plan build on.
 */
export const CODEBASE_OVERVIEW: DocumentPrompt<'codebase-overview'> = {
  kind: 'codebase-overview',
  version: 1,
  reader:
    'The architect who writes the architecture and the plan of the change from it, the ' +
    'engineers and coding agents who take the tasks, and a reviewer checking that the ' +
    'documents describe the code that exists. They come to it to learn where things live and ' +
    'what the code already does, before they read the code itself.',
  purpose:
    'A faithful map of the codebase as the digest shows it, before the change: what it is ' +
    'built with, its parts and where they live, what it stores and calls, where requests ' +
    'enter, how it is tested, and where the idea will land. Every later document takes its ' +
    'facts about the existing system from here, so each fact carries the path that shows it, ' +
    'and a fact the digest does not show is not written.',
  sections: {
    Summary:
      'Three to five sentences: what the system is and does, for whom, as its README and code ' +
      'show it; its main language and framework; the repository name and, when given, the ' +
      'commit read. Then one sentence on what the idea changes in it.',
    Stack:
      'A table with columns Layer, Technology, Version, Evidence: each language, runtime, ' +
      'framework, data store client, library that shapes the code (validation, ORM, HTTP ' +
      'client), test tool and build tool found, the version its manifest asks for ("not ' +
      'pinned" when none), and the file that shows it.',
    Components:
      'A table with columns Component, Path, Role, Main files: each folder or file with one ' +
      'role (routes or handlers, services, data access, middleware, background jobs, clients ' +
      'of other services, UI), its path, what it does in one sentence, and its main files.',
    'Data stores and external services':
      'Each database, cache, queue and third-party service the code uses: what it is, how the ' +
      'code reaches it (the client library and the file that connects to it or calls it) and ' +
      'the settings it reads (environment variables by name, never a value).',
    'Entry points and routes':
      'The files a process starts from and what each starts; then the HTTP routes as a table ' +
      'with columns Method, Path, File (prefixes joined into the full path), or the commands, ' +
      'jobs or tools the system exposes instead.',
    'Data model':
      'The tables or models found in schemas, migrations and ORM models: a table with columns ' +
      'Entity, Defined in, Main columns, Related to. "Not in the digest" when it shows no ' +
      'schema.',
    'Tests and conventions':
      'The test framework, where the tests live and the command that runs them (from the ' +
      'manifests); then the conventions the code keeps and a change should follow: module ' +
      'layout, how input is validated, how errors are handled and reported, naming, linting ' +
      'and formatting.',
    'Where a change lands':
      'For the idea, the files and modules a change is most likely to touch, each with why, as ' +
      'a table with columns Path, Why it is touched; then what will likely have to be new and ' +
      "where it would live by the codebase's own layout; then the existing behaviour most at " +
      'risk of breaking. A reading of the code, not a plan: no tasks, no estimates.',
  },
  rules: [
    'Only what the digest shows. For a section the digest has nothing for, write "Not in the ' +
      'digest." and the files you looked for (for example "no schema, migration or ORM model ' +
      'among the files"); never fill it from what such a project usually has.',
    'Paths exactly as the digest writes them, in backticks, so a reader can open each one. ' +
      'Name technologies as their manifests do, with the version they pin.',
    'Cite no IDs (FR-n, US-n, T-n and the others): none exist yet when this is written.',
    'Quote code only where a few lines say more than prose (a route table, a schema), in a ' +
      'fenced block with its language, and never a line holding a [redacted:…] marker.',
    'Judge quality only where the change will meet a concrete problem the code shows (a ' +
      'module without tests that the change touches, a missing index on a column it will ' +
      'query), naming the file.',
    'About 800 to 1,500 words: a map, not a tour. Prefer tables to prose.',
  ],
  maxOutputTokens: 6_000,
};
