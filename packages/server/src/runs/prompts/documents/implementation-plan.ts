import type { DocumentPrompt } from '../types.ts';

/**
 * The prompt for IMPLEMENTATION_PLAN.md: vertical slices of tasks (T-n) that cite the
 * requirements and criteria they implement and the tasks they depend on, tests first.
 */
export const IMPLEMENTATION_PLAN: DocumentPrompt<'implementation-plan'> = {
  kind: 'implementation-plan',
  version: 2,
  reader:
    'The team lead and engineers who build the first release, and the coding agents they hand ' +
    'tasks to: they take one task at a time, in order, and need to know what it implements, what ' +
    'it waits for and how to tell it is done. A reviewer uses it to confirm that every ' +
    'requirement is planned.',
  purpose:
    'Turn the requirements, the stories and the design into an ordered plan of vertical slices: ' +
    'each slice delivers stories end to end and ends at a checkpoint that can be demonstrated; ' +
    'each task cites the requirements or criteria it implements and the tasks it depends on; ' +
    'tests are written before the code they check; and every risk of high impact is tested by a ' +
    'spike before the work it threatens.',
  sections: {
    Milestones:
      "First the team the plan assumes (from the questionnaire's constraints; one full-time " +
      'engineer if they state none, recorded as an assumption). Then a table with columns ' +
      'Milestone, Stories, Checkpoint, Duration: M1 is a walking skeleton (one thin path through ' +
      'every component of the architecture, deployed with CI); then one slice per group of ' +
      'stories by priority (the Must stories first, split into two or three slices when they are ' +
      'many, then Should, then Could); the last hardens and releases. Each checkpoint is ' +
      'demonstrable ("an owner receives the vaccine reminder SMS on staging"); durations are in ' +
      'weeks and meet any deadline in the constraints.',
    Tasks:
      'Under a ### heading per milestone, a table with columns ID, Task, Implements, Depends on, ' +
      'Estimate. Tasks are numbered T-1, T-2 and so on across the whole plan, in the order they ' +
      "should start; each is one engineer's work of half a day to three days, stated as an " +
      'outcome with its component ("API: list and create bookings with cursor pagination"). ' +
      'Implements cites the FR-n.m criteria (or whole FR-n, and NFR-n) the task delivers, and US-n ' +
      'where it completes a story; Depends on lists the task IDs it needs first, or "none". For ' +
      'each feature, the task that writes the tests for its criteria comes first and the task ' +
      'that implements them depends on it. Each risk of High impact in the brief (R-n) gets a ' +
      'spike task, citing the risk, before the first task it threatens. Include the work no FR ' +
      'names but the release needs (repository and CI, infrastructure, migrations, ' +
      'authentication, observability, store or registry publishing). Every FR is implemented by ' +
      'at least one task here, and the dependencies form no cycle.',
    Dependencies:
      'The critical path as an ordered chain of task IDs with its total length in days, and ' +
      'which work can run in parallel. Then a table of external dependencies with columns ' +
      'Dependency, Needed by (task ID), Lead time, Owner: accounts, API keys and quotas of the ' +
      'integrations, domains and certificates, app store or package registry accounts and their ' +
      'review times, design assets, data from the client. Name the two riskiest and the fallback ' +
      'for each.',
    'Testing strategy':
      'Per layer (unit, integration, end to end, and what the project type needs: contract tests ' +
      'against the API design for a web project, a device and OS version matrix for a mobile ' +
      'app, MCP Inspector sessions and evaluations of tool calls by a real model for an MCP ' +
      'server): the tools from the stack, what the layer covers, and how the acceptance criteria ' +
      'map onto tests (each FR-n.m becomes at least one automated test, named after it). How each ' +
      'NFR is verified, citing its ID. What runs on every pull request and how long it may take.',
    'Release checklist':
      'A checklist of `- [ ]` items that must be true before the first release, grouped by area: ' +
      "every Must FR's criteria pass; NFR checks passed; security (no secrets in the repository, " +
      'dependency audit clean, permissions and scopes reviewed); data (migrations applied, ' +
      'backups running, a restore tested); operations (alerts wired, a runbook for the three ' +
      'likeliest failures, rollback rehearsed); listing and legal where they apply; and the open ' +
      'questions (Q-n) answered or their defaults confirmed. Each item specific to this project.',
  },
  rules: [
    'Cite only IDs that appear in the documents you were given, written in full and never as a ' +
      'range. Task IDs T-1, T-2 and so on are the only new IDs this document defines, each in the ' +
      'ID column of its row.',
    'Coverage is checked mechanically from the Tasks tables alone: every FR must be cited (as ' +
      'FR-n or one of its criteria) in the Implements cell of at least one task, and every ' +
      'Depends on cell must name tasks that exist, without a cycle. A mention elsewhere (the ' +
      'release checklist) does not count. Go through the FR list once more before finishing.',
    'Follow the architecture and the design documents: tasks name their components, endpoints, ' +
      'tables, screens or tools and use their technologies; plan no work for things they leave ' +
      'out.',
    'Estimates add up: the task estimates in a milestone fit its duration for the team assumed.',
    'About 1,500 words plus about 80 words per FR; with many FRs keep task descriptions short, ' +
      'so that the Release checklist is still written.',
  ],
  maxOutputTokens: 8_000,
};
