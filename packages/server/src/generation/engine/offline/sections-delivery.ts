import { choose, isWrite } from './facts.ts';
import { blocks, bullets, code, ic, numbered, table } from './markdown.ts';
import type { SectionWriter } from './phrases.ts';
import { rationale } from './sections-architecture.ts';
import { decapitalize, listing } from './words.ts';

export const DELIVERY_SECTIONS: Record<string, SectionWriter> = {
  'implementation-plan/Milestones': (f) => {
    const weeks = choose(f, 'pace', [2, 3]);
    const rows = [
      [
        'M1 Foundations',
        `Repository, CI, ${f.stack.slice(0, 2).join(' and ')} skeleton, authentication`,
      ],
      ...f.features
        .slice(0, 3)
        .map((feature, i) => [`M${i + 2} ${feature}`, `FR-${i + 1} complete with tests`]),
      [
        `M${Math.min(f.features.length, 3) + 2} Hardening`,
        'NFR checks, accessibility audit, security review',
      ],
      [
        `M${Math.min(f.features.length, 3) + 3} Launch`,
        `First ${f.audienceShort} onboarded; metrics dashboard live`,
      ],
    ];
    return blocks(
      `${f.name} is delivered in ${rows.length} milestones of about ${weeks} weeks each, so the first release lands in roughly ${rows.length * weeks} weeks.`,
      numbered(
        rows.map(
          ([title, exit], i) =>
            `**${title}** (weeks ${i * weeks + 1}–${(i + 1) * weeks}): ${exit}.`,
        ),
      ),
      'A milestone is done when its exit criteria pass in staging, not when the code is merged.',
      `The team is small on purpose: one product lead who speaks with ${f.audienceShort} every week, two engineers who own the ` +
        `${f.stack[0]} code end to end, and a designer for the first three milestones. Demos at the end of each milestone are open to ` +
        'early users, whose feedback decides the order of the next one.',
    );
  },

  'implementation-plan/Tasks': (f) =>
    blocks(
      `Tasks for the first milestones, in the order they should be picked up:`,
      bullets([
        `Set up the ${f.stack[0]} project, linting, formatting and CI`,
        `Create the data model for ${f.entities.map((e) => e.plural).join(', ')} with migrations`,
        ...f.features.map(
          (feature, i) => `FR-${i + 1}: implement "${feature}" end to end, with tests`,
        ),
        'Add structured logging, metrics and error reporting',
        `Write the README and onboarding guide for ${f.audienceShort}`,
      ]).replace(/^- /gm, '- [ ] '),
      'Each task is small enough to finish in two days; larger ones are split before they start.',
      `Tasks that touch ${f.main.plural} go first because every other feature reads or writes them; work on ` +
        `${decapitalize(f.features[f.features.length - 1] ?? 'the last feature')} can start in parallel once the data model is merged.`,
    ),

  'implementation-plan/Dependencies': (f) =>
    blocks(
      `Internal dependencies decide the order of work; external ones need to be requested early.`,
      table(
        ['Item', 'Depends on', 'Lead time'],
        [
          ['Authentication', 'Repository and CI', 'None'],
          [`${f.features[0]}`, `Data model for ${f.main.plural}`, 'None'],
          ...(f.type === 'mcp'
            ? [
                [
                  'Upstream API access',
                  `Credentials for ${listing(f.stack.filter((t) => /API/.test(t))) || 'the upstream system'}`,
                  '1 week',
                ],
              ]
            : f.type === 'mobile'
              ? [
                  ['Store release', 'Developer accounts and review', '1–2 weeks'],
                  ['Push notifications', 'Certificates and keys', '2 days'],
                ]
              : [
                  ['Email notifications', 'Verified sending domain', '2 days'],
                  ['Billing', 'Payment provider account', '1 week'],
                ]),
        ],
      ),
    ),

  'implementation-plan/Testing strategy': (f) =>
    blocks(
      `Testing follows the risks: the core flows of ${f.name} get the most coverage.`,
      bullets([
        `Unit tests for pure logic (${f.type === 'mobile' && f.stack[0] === 'Swift' ? 'XCTest' : f.type === 'mobile' && f.stack[0] === 'Kotlin' ? 'JUnit' : 'Vitest'}), run on every commit.`,
        `Integration tests against a real PostgreSQL${f.type === 'mcp' ? ' or recorded upstream responses' : ''}, covering every FR.`,
        f.type === 'mcp'
          ? 'Protocol tests with the MCP Inspector and an in-memory client that lists and calls every tool.'
          : f.type === 'mobile'
            ? 'End-to-end tests with Maestro on one small and one large device, including airplane mode.'
            : 'End-to-end tests with Playwright for the three most important journeys.',
        'Accessibility checks in CI plus a manual screen-reader pass before each release.',
        'Load test at ten times the expected peak traffic, with realistic data volumes.',
      ]),
      `A change is done when it has tests at the right level, passes in CI, has been tried in staging by someone other than its ` +
        `author, and is covered by the acceptance criteria of its requirement. Flaky tests are fixed or removed the day they are noticed.`,
    ),

  'implementation-plan/Release checklist': (f) =>
    blocks(
      `Before ${f.name} goes to ${f.audienceShort}:`,
      bullets([
        'All Must requirements pass their acceptance criteria in staging',
        'Migrations rehearsed on a copy of production data',
        'Dashboards and alerts in place; on-call rota agreed',
        'Privacy policy and terms reviewed',
        f.type === 'mobile'
          ? 'Store listings, screenshots and review notes ready'
          : f.type === 'mcp'
            ? 'Package published and client configuration documented'
            : 'Status page and support inbox ready',
        `Success metrics (${decapitalize(f.metrics[0] ?? 'activation')}) instrumented`,
      ]).replace(/^- /gm, '- [ ] '),
    ),

  'readme/About': (f) =>
    blocks(
      f.description,
      `It is built for ${f.audienceShort} and runs on ${listing(f.platforms)}. This README explains what ${f.name} does, how to run it ` +
        'locally and how to contribute.',
      `Why it exists: ${f.audienceShort} told us that the tools they use today make it slow to ${f.purpose}. ${f.name} keeps ` +
        `${f.main.plural} in one place, makes the core actions one or two steps long, and records every change. ` +
        `Business model: ${decapitalize(f.monetization)}.`,
    ),

  'readme/Features': (f) =>
    blocks(
      bullets(
        f.features.map(
          (feature) =>
            `**${feature}**: ${
              f.type === 'mcp'
                ? f.actions.includes(feature)
                  ? `the ${ic(f.tools.find((t) => t.feature === feature)?.name ?? 'matching')} tool, ${isWrite(feature) ? 'disabled until writes are allowed' : 'read-only'}`
                  : choose(f, feature, [
                      'available in every client',
                      'documented in the tool catalogue',
                      'safe by default',
                    ])
                : choose(f, feature, [
                    'available from the first screen',
                    'works with the keyboard and screen readers',
                    'recorded in the history',
                    'respects roles and permissions',
                  ])
            }.`,
        ),
      ),
      `Each feature maps to a numbered requirement (FR-1 to FR-${f.features.length}) in the product requirements, and to an epic in the user stories.`,
    ),

  'readme/Tech stack': (f) =>
    blocks(
      table(
        ['Technology', 'Used for'],
        f.stack.map((tech) => [tech, rationale(f, tech)]),
      ),
    ),

  'readme/Getting started': (f) => {
    const clone = [`git clone https://github.com/${f.slug}/${f.slug}.git`, `cd ${f.slug}`];
    const project = f.name.replace(/\s+/g, '');
    const first = f.stack[0] ?? '';
    const lines =
      f.type === 'mcp'
        ? [
            ...clone,
            'npm install',
            'npm run build',
            'npx @modelcontextprotocol/inspector node dist/index.js',
          ]
        : f.type === 'mobile'
          ? first === 'Swift'
            ? [...clone, `open ${project}.xcodeproj`]
            : first === 'Kotlin'
              ? [...clone, './gradlew installDebug']
              : first.startsWith('Kotlin (')
                ? [
                    ...clone,
                    '(cd android && ./gradlew installDebug)',
                    `open ios/${project}.xcodeproj`,
                  ]
                : [...clone, 'npm install', 'npx expo start']
          : [
              ...clone,
              'npm install',
              'docker compose up -d postgres redis',
              'npm run db:migrate',
              'npm run dev',
            ];
    return blocks(
      `You need ${first === 'Swift' ? 'Xcode 16' : first === 'Kotlin' ? 'Android Studio and JDK 21' : first.startsWith('Kotlin (') ? 'Xcode 16, Android Studio and JDK 21' : 'Node.js 22 or later'}${f.type === 'web' ? ' and Docker' : ''}.`,
      code('bash', lines.join('\n')),
      f.type === 'mcp'
        ? `The inspector opens in your browser; list the tools and call ${ic(f.tools[0]?.name ?? 'a tool')} to check your configuration.`
        : `Sign in with the development account printed in the console, then ${decapitalize(f.actions[0] ?? 'open the app')} to check that everything works.`,
      f.type === 'mobile'
        ? `The app talks to the Sync API at the address in its build configuration; run the API with ${ic('npm run dev')} in ${ic('api/')} first.`
        : `Configuration comes from environment variables; the defaults work for local development. Run the tests with ${ic('npm test')}.`,
    );
  },

  'readme/Project structure': (f) => {
    const tree =
      f.type === 'mcp'
        ? [
            'src/',
            '  index.ts          entry point, transport selection',
            '  tools/            one file per tool',
            '  resources/        resource and template handlers',
            '  prompts/          prompt templates',
            '  upstream/         API clients',
            'test/',
          ]
        : f.type === 'mobile'
          ? [
              'app/',
              '  screens/          one folder per screen',
              '  sync/             local store and sync engine',
              '  notifications/    push handling',
              'api/                Sync API (Node.js)',
              'test/',
            ]
          : [
              'web/                React client',
              'api/',
              '  routes/           one folder per resource',
              '  jobs/             worker jobs',
              '  db/               schema and migrations',
              'test/',
            ];
    return blocks(
      `The repository of ${f.name} is organised by responsibility:`,
      code('text', tree.join('\n')),
    );
  },

  'readme/Contributing': (f) =>
    blocks(
      `Contributions to ${f.name} are welcome. Open an issue first for anything larger than a bug fix so we can agree on the approach.`,
      numbered([
        'Create a branch from main.',
        'Add tests for your change and run the whole suite.',
        'Open a pull request that explains the problem and the fix.',
      ]),
      code(
        'bash',
        f.type === 'mobile' && !/TypeScript/.test(f.stack.join(' '))
          ? 'make lint\nmake test'
          : 'npm run lint\nnpm test',
      ),
      `Please keep the audience in mind: every change should help ${f.audienceShort} ${f.purpose}. ` +
        'By taking part you agree to follow the code of conduct: be kind, assume good intent and keep discussions about the work.',
    ),
};
