import type { DocumentPrompt } from '../types.ts';

/** The prompt for IMPLEMENTATION_PLAN.md: milestones and tasks, with every FR covered by a task. */
export const IMPLEMENTATION_PLAN: DocumentPrompt = {
  kind: 'implementation-plan',
  version: 1,
  reader:
    'The team lead and engineers who build the first release: they schedule from it, pick tasks ' +
    'from its table and tick off its release checklist. A reviewer uses it to confirm that every ' +
    'requirement is planned.',
  purpose:
    'Turn the requirements and the design into an ordered plan: milestones with exit criteria, ' +
    'small tasks that each cite the requirements they deliver, the dependencies and the critical ' +
    'path, how the work is tested, and what must be true before release, with every FR covered ' +
    'by at least one task.',
  sections: {
    Milestones:
      "First the team the plan assumes (from the questionnaire's constraints; one full-time " +
      'engineer if they state none). Then a table with columns Milestone, Goal, Exit criterion, ' +
      'Duration: three to six milestones named M1, M2 and so on. M1 is a walking skeleton: one ' +
      'thin path through every component of the architecture, deployed to a production-like ' +
      'environment with CI. The middle milestones each deliver usable features in priority order ' +
      '(Must before Should before Could); the last hardens and releases. Exit criteria are ' +
      'demonstrable ("a member can book a class on staging and receives the confirmation"); ' +
      'durations are in weeks and add up to a total that meets any deadline in the constraints.',
    Tasks:
      'A table with columns ID, Task, Milestone, Requirements, Estimate, Depends on. Tasks are ' +
      "numbered T-1, T-2 and so on in the order they should start; each is one engineer's work " +
      'of half a day to three days (estimate in days), stated as an outcome with its component ' +
      '("API: list and create bookings with cursor pagination"), citing the FR and NFR IDs it ' +
      'delivers (and the US IDs, where user stories were given), and listing the task IDs it ' +
      'needs first. Include the work no FR names but the release needs: repository and CI setup, ' +
      'infrastructure, migrations, authentication, observability, store or registry publishing. ' +
      'Then a ### Coverage heading with one line per FR of the product requirements, in ID ' +
      'order, in the form `FR-1 → T-3, T-7`.',
    Dependencies:
      'The critical path as an ordered chain of task IDs with its total length in days, and ' +
      'which work can run in parallel. Then a table of external dependencies with columns ' +
      'Dependency, Needed by (task ID), Lead time, Owner: accounts, API keys and quotas, domains ' +
      'and certificates, app store or package registry accounts and their review times, legal or ' +
      'compliance sign-off, design assets, data from the customer. Name the two riskiest ' +
      'dependencies and the fallback for each.',
    'Testing strategy':
      'Per layer (unit, integration, end to end, and what the project type needs: contract tests ' +
      'against the API design for a web project, a device and OS version matrix for a mobile ' +
      'app, MCP Inspector sessions and evaluations of tool calls by a real model for an MCP ' +
      'server): the tools from the stack, what the layer covers, and a target (coverage or ' +
      'number of scenarios). How each NFR is verified (a load test at the stated load, an ' +
      'accessibility audit, security checks), citing the NFR IDs. What runs on every pull ' +
      'request and how long it may take.',
    'Release checklist':
      'A checklist of `- [ ]` items that must be true before the first release, grouped by area: ' +
      'every Must FR accepted against its acceptance criterion; NFR checks passed; security (no ' +
      'secrets in the repository, dependency audit clean, permissions and scopes reviewed); data ' +
      '(migrations applied, backups running, a restore tested); operations (alerts wired, a ' +
      'runbook for the three likeliest failures, rollback rehearsed); legal and listing (privacy ' +
      'policy, terms, the store or registry listing); communication (README, changelog, support ' +
      'contact). Each item specific to this project.',
  },
  rules: [
    'Cite only IDs that appear in the documents you were given: FR and NFR from the product ' +
      'requirements, US from the user stories when they were given. Write each ID in full, never ' +
      'as a range. Task IDs T-1, T-2 and so on are the only new IDs this document defines.',
    'Coverage is checked mechanically: every FR of the product requirements must appear in the ' +
      'Coverage list and in the Requirements cell of at least one task, and every ID cited must ' +
      'exist. Go through the FR list once more before finishing.',
    'Follow the architecture and the design documents: tasks name their components, endpoints, ' +
      'tables, screens or tools and use their technologies; plan no work for things they leave ' +
      'out.',
    'Estimates add up: the task estimates in a milestone fit its duration for the team assumed.',
    'About 1,500 words plus about 60 words per FR; with many FRs keep task descriptions short, ' +
      'so that the Release checklist is still written.',
  ],
  maxOutputTokens: 8_000,
};
