import type { Facts } from './facts.ts';
import { blocks, bullets, ic, numbered, table } from './markdown.ts';
import type { SectionWriter } from './phrases.ts';
import { decapitalize, listing } from './words.ts';

const RATIONALE: Record<string, string> = {
  TypeScript:
    'one typed language across the codebase; shared types catch contract drift at build time',
  React: 'a component model the team knows, with mature accessible UI libraries',
  Vite: 'fast local feedback and small production bundles',
  'Next.js': 'server rendering for fast first loads and file-based routing',
  'Node.js': 'runs the API and background jobs with the same TypeScript code',
  Fastify: 'schema-first routes, request validation and low overhead per request',
  PostgreSQL: 'relational integrity for the data model, with JSONB where flexibility helps',
  'Drizzle ORM': 'typed SQL without hiding the queries that run',
  Redis: 'sessions, rate limits and the background job queue',
  WebSockets: 'pushes changes to everyone who is looking at the same data',
  Swift: 'native performance and first-class access to iOS APIs',
  SwiftUI: 'declarative screens with built-in accessibility and Dynamic Type',
  'SQLite (GRDB)': 'a local database that keeps the app useful offline',
  'Apple Push Notification service': 'timely reminders without keeping the app open',
  Kotlin: 'the modern, null-safe language for Android',
  'Jetpack Compose': 'declarative Android UI with accessibility semantics',
  'SQLite (Room)': 'a typed local database that keeps the app useful offline',
  'Firebase Cloud Messaging': 'reliable push delivery on Android',
  'React Native': 'one codebase for iOS and Android with native components',
  Expo: 'managed builds, over-the-air updates and device APIs',
  'SQLite (expo-sqlite)': 'a local database that keeps the app useful offline',
  'Expo push notifications': 'one push API for both platforms',
  'Kotlin (Jetpack Compose)': 'the native Android app, with declarative UI',
  'Swift (SwiftUI)': 'the native iOS app, with declarative UI',
  SQLite: 'the on-device store on both platforms, so the core flow works offline',
  'Push notifications (APNs and FCM)': 'timely reminders on both platforms',
  '@modelcontextprotocol/sdk':
    'the official MCP implementation: protocol handshake, tools, resources and prompts',
  Zod: 'input schemas that validate arguments and generate the JSON Schema clients see',
  'stdio and Streamable HTTP transports':
    'stdio for local clients, Streamable HTTP for remote and shared use',
};

/** Why a technology of the stack is there, for tables in the architecture and the README. */
export function rationale(f: Facts, tech: string): string {
  if (f.type === 'mcp' && tech === 'Node.js')
    return 'runs the server process, started by the client or as a container';
  if (RATIONALE[tech]) return RATIONALE[tech];
  if (/API/.test(tech)) return `the upstream system the tools of ${f.name} read from and write to`;
  if (/node-postgres|better-sqlite3/.test(tech))
    return `the database the tools of ${f.name} query, through a role limited to what each tool needs`;
  return `chosen for ${f.name} when the project was defined; it suits ${f.aLabel}`;
}

/** The systems an MCP server's tools talk to, as named in the stack. */
function upstreams(f: Facts): string[] {
  return f.stack.filter((t) => /API|postgres|sqlite/i.test(t));
}

function components(f: Facts): string[][] {
  const db = f.stack.find((t) => /PostgreSQL/.test(t)) ?? 'PostgreSQL';
  if (f.type === 'web')
    return [
      [
        'Web client',
        `${listing(f.stack.filter((t) => ['React', 'Vite', 'Next.js'].includes(t)))} single-page app`,
        `Screens for ${listing(f.features.slice(0, 3).map(decapitalize))}`,
      ],
      [
        'API server',
        `Node.js${f.stack.includes('Fastify') ? ' with Fastify' : ''}`,
        `REST endpoints for ${f.main.plural} and the other resources, authentication, validation`,
      ],
      [
        'Worker',
        'Node.js process reading the Redis queue',
        'Notifications, exports, weekly summaries',
      ],
      ['Database', db, `${f.entities.map((e) => e.plural).join(', ')}, users and workspaces`],
      ['Cache and queue', 'Redis', 'Sessions, rate limits, background jobs'],
    ];
  if (f.type === 'mobile')
    return [
      [
        'Mobile app',
        listing(f.stack.slice(0, 2)),
        `Screens, local store of ${f.main.plural}, sync engine`,
      ],
      [
        'Local store',
        f.stack.find((t) => /SQLite/.test(t)) ?? 'SQLite',
        `Offline copy of ${f.entities.map((e) => e.plural).join(', ')} and a queue of pending changes`,
      ],
      ['Sync API', 'Node.js', 'Authentication, change feed, conflict resolution'],
      ['Database', db, 'The source of truth shared across devices'],
      [
        'Push',
        f.stack.find((t) => /[Pp]ush|APNs|FCM|Messaging/.test(t)) ?? 'Push notifications',
        'Reminders and updates',
      ],
    ];
  return [
    [
      'Transport layer',
      'stdio and Streamable HTTP',
      'Accepts client connections and routes JSON-RPC messages',
    ],
    [
      'Tool handlers',
      '@modelcontextprotocol/sdk with Zod schemas',
      `One handler per tool: ${f.tools.map((t) => t.name).join(', ')}`,
    ],
    [
      'Resources and prompts',
      '@modelcontextprotocol/sdk',
      `Read-only views of ${f.main.plural} and reusable prompt templates`,
    ],
    [
      'Upstream clients',
      listing(f.stack.filter((t) => /API|postgres|sqlite/i.test(t))) || 'HTTPS clients',
      'Talk to the systems that hold the data, with retries and time-outs',
    ],
    [
      'Configuration',
      'Environment variables validated at start-up',
      'Credentials, base URLs and per-tool permissions',
    ],
  ];
}

export const ARCHITECTURE_SECTIONS: Record<string, SectionWriter> = {
  'architecture/Context': (f) =>
    blocks(
      `${f.name} is ${f.aLabel} for ${f.audienceShort}; its job is to let them ${f.purpose}. This document describes how it is built ` +
        `so that the requirements (FR and NFR numbers) can be met and changed safely.`,
      f.type === 'mcp'
        ? `${f.name} sits between an MCP client such as ${listing(f.platforms.slice(0, 2), 'or')} and the systems that hold the data. The assistant decides when to call a tool; ${f.name} decides what the tool may do.`
        : `Users reach ${f.name} through ${listing(f.platforms)}. Everything they see comes from one API, which is the only component that talks to the database.`,
      bullets([
        `Actors: ${listing(f.personas.map((p) => `${p.name} (${p.role})`))}`,
        `External systems: ${f.type === 'mcp' ? listing(upstreams(f)) || 'the upstream service' : 'email delivery, push delivery and payment provider'}`,
        `Key constraint: ${f.constraints[0] ?? 'least-privilege access'}`,
      ]),
    ),

  'architecture/Components': (f) =>
    blocks(
      `The system is deliberately small: each component has one responsibility and can be tested on its own.`,
      table(['Component', 'Technology', 'Responsibility'], components(f)),
      `Components communicate over ${f.type === 'mcp' ? 'JSON-RPC inside the process and HTTPS to upstream systems' : 'HTTPS with JSON bodies; the worker and the API share the database and the queue, nothing else'}. ` +
        `No component reaches into another's storage.`,
    ),

  'architecture/Technology choices': (f) =>
    blocks(
      `The tech stack was settled when ${f.name} was defined. Each choice and the reason for it:`,
      table(
        ['Technology', 'Why'],
        f.stack.map((tech) => [tech, rationale(f, tech)]),
      ),
      `Alternatives were considered and rejected where they added operational weight without serving ${f.audienceShort}; ` +
        `a choice is revisited only when a measured requirement fails.`,
    ),

  'architecture/Data flow': (f) => {
    const action = decapitalize(f.actions[0] ?? f.features[0]!);
    const steps =
      f.type === 'mcp'
        ? [
            `The user asks their assistant to ${action}.`,
            `The client lists the tools of ${f.name} and calls ${ic(f.tools[0]?.name ?? 'the tool')} with arguments.`,
            'The handler validates the arguments against its Zod schema and checks the tool is allowed by configuration.',
            `The upstream client calls ${listing(upstreams(f)) || 'the upstream system'} with a time-out of 10 seconds and one retry for network errors.`,
            'The handler returns structured content plus a short text summary; errors come back as tool errors, not protocol errors.',
          ]
        : f.type === 'mobile'
          ? [
              `${f.personas[0].name} chooses to ${action}; the app writes the change to the local store at once.`,
              'The change joins the outgoing queue with a client-generated id, so retries are idempotent.',
              'When online, the sync engine sends the queue to the Sync API and pulls the change feed since its last cursor.',
              'The API applies changes in a transaction, resolves conflicts per field and records the history.',
              'Other devices receive a silent push and pull the change feed; the UI updates without a refresh.',
            ]
          : [
              `${f.personas[0].name} chooses to ${action} in the web client.`,
              `The client sends a request to the API with an idempotency key.`,
              'The API validates the body, checks the workspace role and writes the change and a history row in one transaction.',
              'A job is queued in Redis for notifications; the worker sends them and records delivery.',
              `Everyone viewing the same ${f.main.label} receives the update${f.stack.includes('WebSockets') ? ' over WebSockets' : ' on their next poll'}.`,
            ];
    return blocks(
      `The most important flow is the one behind "${f.actions[0] ?? f.features[0]}":`,
      numbered(steps),
      f.type === 'mcp'
        ? 'Every other tool follows the same shape: validate, check permissions, call upstream once, then summarise.'
        : 'Every other flow follows the same shape: validate, authorise, write once, then notify.',
    );
  },

  'architecture/Security': (f) =>
    blocks(
      `Security in ${f.name} starts from its constraints: ${listing(f.constraints.map(decapitalize))}.`,
      bullets(
        f.type === 'mcp'
          ? [
              'Credentials for upstream systems are read from the environment at start-up and never returned in tool results.',
              'Each tool declares whether it reads or writes; write tools are disabled unless configured and ask the client for confirmation.',
              'Tool output is treated as untrusted data; it is never executed or used to choose other tools automatically.',
              'The HTTP transport requires a bearer token and validates the Origin header to prevent DNS rebinding.',
            ]
          : [
              'Passwords are never stored: sign-in uses magic links or OAuth; sessions are short-lived and rotated.',
              'Every request is authorised against the workspace role (owner, member, viewer).',
              'Data is encrypted in transit with TLS 1.3 and at rest by the database provider.',
              'Rate limits protect sign-in and write endpoints; audit events record every change.',
            ],
      ),
      'Dependencies are scanned on every build and critical updates are applied within seven days.',
    ),

  'architecture/Deployment': (f) =>
    blocks(
      f.type === 'mcp'
        ? `${f.name} is published as an npm package that clients start over stdio, and as a container image for the Streamable HTTP transport.`
        : f.type === 'mobile'
          ? `The app ships through ${listing(f.platforms.map((p) => (p === 'Android' ? 'Google Play' : 'the App Store')).filter((v, i, a) => a.indexOf(v) === i))}; the Sync API runs as a container on a managed platform next to a managed PostgreSQL.`
          : `${f.name} runs as containers on a managed platform: the API and worker scale horizontally, PostgreSQL and Redis are managed services.`,
      bullets([
        'Environments: development, staging (production-like data volume, anonymised), production.',
        'Continuous integration runs type checks, tests and a build on every pull request.',
        f.type === 'mcp'
          ? 'Releases follow semantic versioning; a tool rename or removal is a major version.'
          : 'Releases are tagged; database migrations run before the new version receives traffic.',
        f.type === 'mcp'
          ? 'Rollback is pinning the previous version in the client configuration or redeploying the previous image.'
          : 'Rollback is a redeploy of the previous tag; migrations are backwards compatible for one release.',
      ]),
    ),

  'architecture/Observability': (f) =>
    blocks(
      `We need to know that ${f.audienceShort} can ${f.purpose}, not just that servers are up.`,
      table(
        ['Signal', 'What we track'],
        [
          ['Logs', 'Structured JSON with a request id; no personal data in messages'],
          [
            'Metrics',
            f.type === 'mcp'
              ? 'Calls, errors and latency per tool'
              : 'Request rate, error rate and p95 latency per endpoint',
          ],
          [
            'Traces',
            f.type === 'mcp'
              ? 'OpenTelemetry spans across tool handlers and upstream calls'
              : 'OpenTelemetry spans across API, worker and database calls',
          ],
          ['Product events', `${f.metrics[0] ?? 'Activation'}, tracked without personal data`],
        ],
      ),
      'Alerts page the on-call person only for user-visible symptoms: error rate above 2% for five minutes or latency above the NFR targets.',
    ),
};
