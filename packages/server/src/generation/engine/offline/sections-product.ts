import { choose, entityOf, isWrite } from './facts.ts';
import { blocks, bullets, code, numbered, table } from './markdown.ts';
import { laterScope, lead, lower, outcome, perform, type SectionWriter } from './phrases.ts';
import { capitalize, decapitalize, gerund, listing } from './words.ts';

const BENEFITS = [
  'nothing falls through the cracks',
  'I spend minutes on it instead of an evening',
  'everyone involved sees the same, current picture',
  'I can see progress over weeks rather than guessing',
  'I do not have to chase people in chat threads',
  'I can trust the numbers when I need them',
];

export const PRODUCT_SECTIONS: Record<string, SectionWriter> = {
  'product-requirements/Summary': (f) =>
    blocks(
      `This document turns the project brief for ${f.name} into testable requirements. ${f.description}`,
      'Requirements are numbered (FR for functional, NFR for non-functional) so that user stories, the architecture and the ' +
        'implementation plan can refer to them. "Must" items block the first release; "Should" items are planned for it but can slip.',
      bullets([
        `Audience: ${f.audience}`,
        `Platforms: ${listing(f.platforms)}`,
        `Tech stack: ${f.stack.join(', ')}`,
        `Business model: ${f.monetization}`,
      ]),
    ),

  'product-requirements/Personas': (f) =>
    blocks(
      ...f.personas.map(
        (persona, index) =>
          `**${persona.name}, ${persona.role}.** ` +
          (f.type === 'mcp'
            ? [
                `${persona.name} works with ${f.reading.assistant ?? 'an AI assistant'} every day and wants to ${lower(lead(f))} without leaving the conversation. They judge ${f.name} by whether the answer is right the first time.`,
                `${persona.name} installs ${f.name} for the team: adds it to each client, sets the credentials and decides which tools are enabled. They value clear errors and configuration that can be reviewed in a pull request.`,
                `${persona.name} approves new integrations. They read the tool list, check which tools can write and want an audit trail of every call, without argument values that may contain personal data.`,
              ]
            : [
                `${persona.name} is one of the ${f.audienceShort} ${f.name} is built for. They want to ${lower(lead(f))} in under a minute, usually between other tasks, and they give up on tools that ask for set-up first.`,
                `${persona.name} sets ${f.name} up for others: invites people, decides how ${f.main.plural} are organised and answers questions when something looks wrong. They value defaults that work and a clear audit trail.`,
                `${persona.name} checks in occasionally and wants a summary of what changed, without reading every ${f.main.label}. They care most about ${lower(f.features[f.features.length - 1] ?? f.features[0]!)}.`,
              ])[index],
      ),
      `Every requirement below names the persona it serves first; when two personas conflict, ${f.personas[0].name} wins.`,
    ),

  'product-requirements/Functional requirements': (f) =>
    blocks(
      `The functional requirements follow the core features settled for ${f.name}. Each is written so that a tester can decide whether it is met.`,
      table(
        ['ID', 'Requirement', 'Priority', 'Persona'],
        f.features.map((feature, index) => [
          `FR-${index + 1}`,
          f.actions.includes(feature)
            ? f.type === 'mcp'
              ? `The assistant can ${lower(feature)} with a single tool call and gets a structured result.`
              : `A signed-in user can ${lower(feature)} in at most three steps and sees the result immediately.`
            : `${f.name} provides ${lower(feature)}.`,
          index < 3 ? 'Must' : 'Should',
          f.personas[index % 3]!.name,
        ]),
      ),
      f.type === 'mcp'
        ? 'In addition, every tool call is logged with the tool name, the duration and the outcome, and every write returns a link to what it changed. ' +
            `Results that list ${f.main.plural} are sorted newest first and capped at 50 items.`
        : `In addition, every ${f.main.label} records who created it, who last changed it and when, and a user can undo their own ` +
            `last change for 30 seconds. Lists of ${f.main.plural} can be sorted, filtered and searched.`,
    ),

  'product-requirements/Non-functional requirements': (f) =>
    blocks(
      `Non-functional requirements apply to every feature of ${f.name}:`,
      table(
        ['ID', 'Area', 'Requirement'],
        [
          [
            'NFR-1',
            'Performance',
            f.type === 'mcp'
              ? 'p95 tool latency under 1 second, excluding upstream systems'
              : 'p95 interaction latency under 300 ms; first screen under 2 seconds',
          ],
          [
            'NFR-2',
            'Availability',
            f.type === 'mcp'
              ? 'The server restarts cleanly and holds no state a restart would lose'
              : '99.9% monthly availability for the API',
          ],
          [
            'NFR-3',
            'Security',
            'TLS everywhere, secrets in a managed store, least-privilege access',
          ],
          [
            'NFR-4',
            'Privacy',
            'Personal data can be exported and erased on request within 30 days',
          ],
          [
            'NFR-5',
            'Accessibility',
            f.type === 'mcp'
              ? 'Tool descriptions are plain language and readable in every client'
              : 'WCAG 2.2 AA; every action is reachable by keyboard or screen reader',
          ],
          ...f.constraints.map((constraint, index) => [
            `NFR-${index + 6}`,
            'Constraint',
            constraint,
          ]),
        ],
      ),
    ),

  'product-requirements/Out of scope': (f) =>
    blocks(
      `To keep the first release of ${f.name} focused, the following are explicitly out of scope:`,
      bullets([
        ...laterScope(f),
        'Custom reporting beyond the built-in summaries',
        f.type === 'mcp'
          ? 'Caching or copying upstream data beyond a single session'
          : 'Migration services for data held in other products (a CSV import is provided instead)',
      ]),
      `Any of these can return once the success metrics show that ${f.audienceShort} rely on ${f.name} every week.`,
    ),

  'product-requirements/Acceptance criteria': (f) =>
    blocks(
      `A requirement is accepted when its criteria pass in an automated test and in a review with someone from the ${f.audienceShort} ${f.name} serves.`,
      numbered(
        f.features
          .slice(0, 5)
          .map(
            (feature, index) =>
              `**FR-${index + 1} (${feature}):** given ${f.type === 'mcp' ? 'a configured client' : 'a signed-in user'} and at least ${entityOf(f, feature).a}, ` +
              `when they ${perform(f, feature)}, then ${outcome(f, feature)}.`,
          ),
      ),
      'Non-functional requirements are accepted through load tests, an accessibility review and a security review before release.',
    ),

  'user-stories/Epics': (f) =>
    blocks(
      `The stories for ${f.name} are grouped into epics that mirror its core features, plus one for getting started. ` +
        `Together they describe how ${f.audienceShort} ${f.purpose}.`,
      table(
        ['Epic', 'Outcome'],
        [
          [
            'E0 Getting started',
            f.type === 'mcp'
              ? `A developer installs ${f.name} and sees its tools in their client in five minutes`
              : `A new user understands ${f.name} and reaches a first useful result in five minutes`,
          ],
          ...f.features.map((feature, index) => [
            `E${index + 1} ${feature}`,
            `${f.personas[index % 3]!.name} can rely on ${decapitalize(gerund(feature))} without help`,
          ]),
        ],
      ),
    ),

  'user-stories/Stories': (f) =>
    blocks(
      'Stories use the familiar form and name the persona. Story points are relative and were estimated by the whole team.',
      table(
        ['ID', 'Story', 'Points'],
        [
          [
            'US-1',
            f.type === 'mcp'
              ? `As ${f.personas[1].name}, I want to add ${f.name} to my client with one command, so that I can try it before I configure anything else.`
              : `As a new user, I want to sign up and see an example ${f.main.label}, so that I understand ${f.name} before I add my own.`,
            '3',
          ],
          ...f.features.map((feature, index) => [
            `US-${index + 2}`,
            `As ${f.personas[index % 3]!.name} (${f.personas[index % 3]!.role}), I want ${f.actions.includes(feature) ? `to ${perform(f, feature)}` : lower(feature)}, so that ${choose(f, feature, BENEFITS)}.`,
            String([2, 3, 5, 8][index % 4]),
          ]),
          [
            `US-${f.features.length + 2}`,
            f.type === 'mcp'
              ? `As ${f.personas[2].name}, I want to see every tool call in a log, so that I can review what the assistant did.`
              : `As ${f.personas[1].name}, I want to export all ${f.main.plural}, so that I keep a copy outside ${f.name}.`,
            '2',
          ],
        ],
      ),
    ),

  'user-stories/Acceptance criteria': (f) => {
    const action = lead(f);
    const who = f.personas[0].name;
    const happy =
      f.type === 'mcp'
        ? [
            `    Given ${f.name} is configured in ${who}'s client`,
            `    And the upstream system holds at least ${f.main.a}`,
            `    When ${who} asks the assistant to ${lower(action)}`,
            `    Then the assistant calls the matching ${f.name} tool`,
            isWrite(action)
              ? '    And the client asks for confirmation before the change is made'
              : '    And the answer quotes the data it was built from',
          ]
        : [
            `    Given ${who} is signed in to ${f.name}`,
            `    And there is at least ${f.main.a}`,
            `    When ${who} chooses to ${lower(action)}`,
            isWrite(action)
              ? '    Then the change is saved'
              : '    Then the matching results are shown',
            '    And the history records their name and the time',
          ];
    return blocks(
      `Acceptance criteria are written as scenarios so they can become automated tests. The most important story for ${f.name}:`,
      code(
        'gherkin',
        [
          `Feature: ${action}`,
          `  Scenario: ${who} can ${lower(action)}`,
          ...happy,
          '',
          '  Scenario: the action fails without losing work',
          f.type === 'mcp'
            ? '    Given the upstream system does not answer'
            : `    Given ${who} has lost the connection`,
          `    When ${f.type === 'mcp' ? 'the assistant tries' : 'they try'} to ${lower(action)}`,
          '    Then the failure is explained in plain words',
          f.type === 'mcp'
            ? '    And nothing is changed upstream'
            : '    And their input is kept so they can retry',
        ].join('\n'),
      ),
      'Every other story follows the same pattern: one scenario for the happy path, one for the most likely failure, and one ' +
        `for permissions when ${f.personas[1].name} and ${f.personas[2].name} may do different things.`,
    );
  },

  'user-stories/Edge cases': (f) =>
    blocks(
      `Edge cases that the stories above must survive, collected from the way ${f.audienceShort} actually work:`,
      bullets(
        f.type === 'mcp'
          ? [
              `The assistant calls a tool with arguments that almost fit (a misspelt ${f.main.label} name): the tool suggests close matches instead of failing.`,
              `A result would exceed the client's context: ${f.name} returns the first 50 ${f.main.plural} and says how to narrow the request.`,
              'The same write is requested twice in one conversation: the second call detects the duplicate and returns the first result.',
              `Upstream returns text that contains instructions: ${f.name} passes it on as quoted data and never acts on it.`,
              'Credentials expire mid-session: the next call returns a clear error naming the variable to renew.',
              'Two clients use the HTTP transport at once: sessions are isolated and share no state.',
            ]
          : [
              `Two people change the same ${f.main.label} at the same moment: the second save shows what changed and asks before overwriting.`,
              `${capitalize(f.main.a)} is deleted while someone is viewing it: the view says so and offers to restore it for 30 days.`,
              `Someone loses access halfway through ${gerund(lower(lead(f)))}: their draft is kept, nothing is sent.`,
              `Time zones: dates are stored in UTC and shown in each viewer's zone, so ${f.main.plural} never appear on the wrong day.`,
              `Very long lists: more than 10,000 ${f.main.plural} stay fast thanks to pagination and server-side search.`,
              `Empty states: a brand-new account sees one example ${f.main.label} and a clear first step, never a blank page.`,
            ],
      ),
      'Each edge case becomes at least one automated test before the story is marked done.',
    ),
};
