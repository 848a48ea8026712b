/**
 * The one stack decision every offline writer reads (docs/conventions.md): the pieces of the
 * definition's stack a document names in prose or commands (the server's database, the
 * phone's store, the runtime and its tools, the schema library), taken from the stack as the
 * house conventions left it. A piece the conventions forbid is never written: a required
 * technology of its category stands in, or the piece is named neutrally ("the database").
 */
import { namesTechnology } from '@pgs/contract';
import type { Conventions, DefinitionContext, ProjectDefinition } from '@pgs/contract/generation';
import { readIdeaOnce } from '../reading/reading-once.ts';
import {
  languageOf,
  languagesNamedIn,
  platforms as platformsOf,
  techStack as techStackFor,
} from '../reading/stack.ts';
import { listing } from '../text/words.ts';

/** A server-side database of the stack (the phone's store is not one). */
const SERVER_DATABASE =
  /^(?:PostgreSQL|MySQL|MariaDB|SQL Server|Oracle|MongoDB|DynamoDB|Firestore|Cassandra|Supabase|CockroachDB|Neon|PlanetScale)\b/;

/** A store on the phone. */
export const LOCAL_STORE = /^(?:SQLite|Realm|Core Data|SwiftData|Room|Hive|Isar|WatermelonDB)\b/;

/** A runtime the API or the MCP server runs on. */
const RUNTIME =
  /^(?:Node\.js|Bun|Deno|Python|Ruby|Java|Go|Rust|Elixir|PHP|\.NET|Kotlin \(server\))\b/;

/**
 * The commands of a runtime the engine knows: installing, running a script, running a package's
 * binary, fetching and running a published package (`npx -y`, `uvx`), the runtime's own binary,
 * and the commands the README's getting started and the MCP documents name.
 */
export interface RuntimeTools {
  install: string;
  run: string;
  exec: string;
  fetch: readonly string[];
  bin: string;
  /** What a developer installs to run it (`Python 3.12 or later and uv`); absent, the runtime. */
  needs?: string;
  /** Builds an MCP server before it runs; absent where nothing is built. */
  build?: string;
  /** The MCP Inspector, as a command a person runs. */
  inspector: string;
  /** The MCP Inspector opened on the built server. */
  inspect: string;
  /** Applies the database migrations of an API. */
  migrate: string;
  /** Starts the API (and a web client of the same runtime) in development. */
  dev: string;
  /** How the published package is named in the deployment. */
  package: string;
}

/** The commands of a JavaScript runtime, from its package manager and binaries. */
function javaScript(
  install: string,
  run: string,
  exec: string,
  fetch: readonly string[],
  bin: string,
): RuntimeTools {
  const inspector = `${exec} @modelcontextprotocol/inspector`;
  return {
    install,
    run,
    exec,
    fetch,
    bin,
    build: `${run} build`,
    inspector,
    inspect: `${inspector} ${bin} dist/index.js`,
    migrate: `${run} db:migrate`,
    dev: `${run} dev`,
    package: 'an npm package',
  };
}

const TOOLS: Record<string, RuntimeTools> = {
  'Node.js': javaScript('npm install', 'npm run', 'npx', ['npx', '-y'], 'node'),
  Bun: javaScript('bun install', 'bun run', 'bunx', ['bunx'], 'bun'),
  // uv for the environment and the lock file; the Python SDK's `mcp dev` opens the Inspector.
  Python: {
    install: 'uv sync',
    run: 'uv run',
    exec: 'uv run',
    fetch: ['uvx'],
    bin: 'python',
    needs: 'Python 3.12 or later and uv',
    inspector: 'uv run mcp dev src/server.py',
    inspect: 'uv run mcp dev src/server.py',
    migrate: 'uv run alembic upgrade head',
    dev: 'uv run fastapi dev src/main.py',
    package: 'a Python package on PyPI',
  },
};

/** What a Python web framework other than FastAPI changes of Python's commands. */
const FRAMEWORK_TOOLS: Record<string, Pick<RuntimeTools, 'migrate' | 'dev'>> = {
  Django: {
    migrate: 'uv run python manage.py migrate',
    dev: 'uv run python manage.py runserver',
  },
  Flask: { migrate: 'uv run flask db upgrade', dev: 'uv run flask --app src/app run --debug' },
};

/** A runtime's commands with its framework's in place (Django's manage.py). */
function withFramework(tools: RuntimeTools | undefined, stack: readonly string[]) {
  const framework = stack.find((tech) => FRAMEWORK_TOOLS[tech] !== undefined);
  return tools && framework ? { ...tools, ...FRAMEWORK_TOOLS[framework] } : tools;
}

/** The stack pieces the documents name, each as the stack has it or undefined. */
export interface StackChoice {
  /** The server's database (`PostgreSQL`, `MySQL`), or undefined: named neutrally. */
  database: string | undefined;
  /** The phone's store (`SQLite (GRDB)`), or undefined: named neutrally. */
  localStore: string | undefined;
  /** The runtime of the API or the MCP server (`Node.js`, `Bun`), or undefined. */
  runtime: string | undefined;
  /** Its commands, when the engine knows them (Node.js, Bun, Python); otherwise steps are prose. */
  tools: RuntimeTools | undefined;
  /** The schema library of an MCP server's tools (`Zod`, `Pydantic`), or undefined. */
  validation: string | undefined;
  /** The technologies the house conventions require. */
  required: readonly string[];
  /** Whether the house conventions let a document name a technology (Docker, Expo…). */
  allows: (name: string) => boolean;
}

/**
 * The stack decision of a definition under the conventions.
 *
 * @example
 * stackChoice(definition, { stack: { forbidden: ['PostgreSQL'] } }).database; // undefined
 */
export function stackChoice(
  definition: ProjectDefinition,
  conventions: Conventions | undefined,
): StackChoice {
  const stack = definition.questionnaire.techStack;
  const forbidden = conventions?.stack?.forbidden ?? [];
  const allows = (name: string) => !forbidden.some((banned) => namesTechnology(name, banned));
  const find = (pattern: RegExp) => stack.find((tech) => pattern.test(tech) && allows(tech));
  const runtime = find(RUNTIME);
  return {
    database: find(SERVER_DATABASE),
    localStore: find(LOCAL_STORE),
    runtime,
    tools: runtime === undefined ? undefined : withFramework(TOOLS[runtime], stack),
    validation: find(/^(?:Zod|Pydantic)$/),
    required: conventions?.stack?.required ?? [],
    allows,
  };
}

/**
 * The toolkit or framework that comes with a required language in the stack the engine built
 * for it (`forLanguage`): the API's framework with Python, the UI toolkit with Kotlin or
 * Swift. `applyConventions` counts them the language's rivals (one family), so they are put
 * back after it; a required framework of the same family (Django) keeps them out.
 */
const COMPANIONS: readonly [RegExp, string][] = [
  [/^(?:python|fastapi)$/i, 'FastAPI'],
  [/^(?:kotlin|jetpack compose)$/i, 'Jetpack Compose'],
  [/^(?:swift|swiftui)$/i, 'SwiftUI'],
];

/** A framework or toolkit a team may require besides a language, which then replaces ours. */
const FRAMEWORK =
  /^(?:Django|Flask|Express|Fastify|NestJS|Rails|Ruby on Rails|Spring(?: Boot)?|Laravel|Phoenix|React Native|Flutter)$/i;

/** `after` with the companions of the required languages the conventions dropped from `before`. */
function withCompanions(
  before: readonly string[],
  after: readonly string[],
  required: readonly string[],
  allowed: (name: string) => boolean,
): string[] {
  const out = [...after];
  if (required.some((name) => FRAMEWORK.test(name.trim()))) return out;
  for (const name of required)
    for (const [language, companion] of COMPANIONS) {
      if (!language.test(name.trim()) || !before.includes(companion)) continue;
      if (out.includes(companion) || !allowed(companion)) continue;
      const at = out.findIndex((tech) => namesTechnology(tech, name));
      out.splice(at + 1, 0, companion);
    }
  return out;
}

/** What the engine puts in place of a default the conventions forbid, in the same category. */
const EQUIVALENTS: readonly [RegExp, readonly string[]][] = [
  [SERVER_DATABASE, ['PostgreSQL', 'MySQL', 'MariaDB']],
];

/**
 * The definition's stack with each category the conventions emptied (its default forbidden,
 * no required one of the category) given the first allowed equivalent, where it stood; a
 * category without one stays empty and the documents name it neutrally. A required language
 * keeps the toolkit the engine chose with it (`withCompanions`). `before` is the stack the
 * engine chose, `after` the one the conventions left.
 *
 * @example
 * withEquivalents(['TypeScript', 'PostgreSQL'], ['TypeScript'], { stack: { forbidden: ['PostgreSQL'] } });
 * // ['TypeScript', 'MySQL']
 */
export function withEquivalents(
  before: readonly string[],
  after: readonly string[],
  conventions: Conventions | undefined,
): string[] {
  const forbidden = conventions?.stack?.forbidden ?? [];
  const allowed = (name: string) => !forbidden.some((banned) => namesTechnology(name, banned));
  const out = withCompanions(before, after, conventions?.stack?.required ?? [], allowed);
  if (forbidden.length === 0) return out;
  for (const [category, equivalents] of EQUIVALENTS) {
    const at = before.findIndex((tech) => category.test(tech));
    if (at === -1 || out.some((tech) => category.test(tech))) continue;
    const stand = equivalents.find(allowed);
    if (stand !== undefined) out.splice(Math.min(at, out.length), 0, stand);
  }
  return out;
}

/**
 * The stack of a phone app whose platforms were answered: when the answer names both iOS and
 * Android and the engine chose one phone's toolkit (Swift, Kotlin) from the idea's words, the
 * stack it chooses for an app on both (as for an idea naming both); otherwise the stack as it
 * is. An idea that names its toolkit keeps it: the idea's choice, as with the conventions.
 *
 * @example
 * forPlatforms(definition, 'An iPhone app for runners').questionnaire.techStack[0]; // 'React Native'
 */
export function forPlatforms(definition: ProjectDefinition, idea: string): ProjectDefinition {
  const q = definition.questionnaire;
  const both =
    q.platforms.some((p) => /\b(?:ios|iphone|ipad)\b/i.test(p)) &&
    q.platforms.some((p) => /\bandroid\b/i.test(p));
  const single = q.techStack[0] === 'Swift' || q.techStack[0] === 'Kotlin';
  if (definition.type !== 'mobile' || !both || !single || /\b(?:swift|kotlin)/i.test(idea))
    return definition;
  const reading = readIdeaOnce(idea);
  const techStack = techStackFor(
    `${reading.text} (iOS and Android)`,
    'mobile',
    reading.integrations,
    `mobile|${reading.text}`,
  );
  return { ...definition, questionnaire: { ...q, techStack } };
}

/**
 * The stack of a project whose house conventions require a language the engine builds in (an
 * MCP server in Python, a phone app in Kotlin, an API in Python): the stack the engine chooses
 * for that language, its SDK, schema library, framework and service clients, rather than the
 * TypeScript default with the language put first. The idea's own choice of another language
 * stays (the conventions report it); a grounded project keeps its codebase's stack; a phone
 * app in one phone's toolkit (Kotlin, Swift) runs on that phone unless the platforms were
 * answered.
 *
 * @example
 * forLanguage(definition, { idea, conventions: { stack: { required: ['Python'] } } })
 *   .questionnaire.techStack; // ['Python', 'MCP Python SDK (mcp, FastMCP)', 'Pydantic', 'pytest', …]
 */
export function forLanguage(
  definition: ProjectDefinition,
  request: Pick<DefinitionContext, 'idea' | 'repository' | 'conventions' | 'answers'>,
): ProjectDefinition {
  const { type } = definition;
  const required = request.conventions?.stack?.required ?? [];
  const language = required
    .map((name) => languageOf(name, type))
    .find((known) => known !== undefined);
  if (language === undefined || request.repository !== undefined) return definition;
  if (languagesNamedIn(request.idea, type).some((named) => named !== language)) return definition;
  const reading = readIdeaOnce(request.idea);
  const q = definition.questionnaire;
  const seed = `${type}|${reading.text}`;
  const techStack = techStackFor(reading.text, type, reading.integrations, seed, language);
  // One phone's toolkit runs on that phone only; a cross-platform one keeps the platforms.
  const answered = (request.answers ?? []).some((a) => a.question.trim() === 'platforms');
  const single = techStack[0] === 'Swift' || techStack[0] === 'Kotlin';
  const platforms =
    type === 'mobile' && single && !answered
      ? platformsOf(type, techStack, reading.assistant, reading.text)
      : q.platforms;
  return { ...definition, questionnaire: { ...q, techStack, platforms } };
}

/**
 * The phones' browsers a web project runs in, as `onPhones` names them.
 *
 * @example
 * phoneBrowsers(['Safari on iOS', 'Web']); // ['Safari on iOS']
 */
export const phoneBrowsers = (platforms: readonly string[]) =>
  platforms.filter((p) => /^(?:Safari|Chrome) on (?:iOS|Android)$/.test(p));

/** Where a project runs and what bounds it there: the members a platforms answer changes. */
export interface Placement {
  platforms: string[];
  constraints: string[];
  nonGoals: string[];
}

/** The engine's default constraint and non-goal of a web project (reading/define-members.ts). */
const BROWSERS = 'Runs in the current versions of Chrome, Firefox, Safari and Edge';
const NO_NATIVE = /^Native mobile apps: /;

/**
 * A web project answered for phones ("iOS and Android"): the project stays a web app, the
 * type being the team's choice, built mobile-first for the phones' browsers and installable
 * as a progressive web app; native apps stay out, as a mobile project's. Each phone platform
 * becomes its browser (`Safari on iOS`, `Chrome on Android`), the browsers' constraint says
 * so, and the non-goal on native apps says why. Anything else is returned as it is.
 *
 * @example
 * onPhones('web', { platforms: ['iOS', 'Android'], constraints, nonGoals }).platforms;
 * // ['Safari on iOS', 'Chrome on Android']
 */
export function onPhones(type: string, placement: Placement): Placement {
  const phone = (p: string) => /\b(?:ios|iphone|ipad|ipados|android)\b/i.test(p);
  if (type !== 'web' || !placement.platforms.some(phone)) return placement;
  const platforms = [
    ...new Set(
      placement.platforms.map((p) =>
        !phone(p) ? p : /\bandroid\b/i.test(p) ? 'Chrome on Android' : 'Safari on iOS',
      ),
    ),
  ];
  const browsers = phoneBrowsers(platforms);
  const desktop = platforms.some((p) => /\b(?:web|browsers?|desktop)\b/i.test(p));
  const pwa = 'installs to the home screen as a progressive web app';
  const constraints = placement.constraints.map((c) =>
    c !== BROWSERS
      ? c
      : desktop
        ? `${BROWSERS}; mobile-first in ${listing(browsers)}, and ${pwa}`
        : `Runs in ${listing(browsers)} (their current versions), mobile-first, and ${pwa}`,
  );
  const nonGoals = placement.nonGoals.map((goal) =>
    NO_NATIVE.test(goal)
      ? `Native ${listing(browsers.map((b) => b.replace(/^.+ on /, '')))} apps: the first release is a web app that installs to the home screen as a progressive web app; native apps would be a mobile project`
      : goal,
  );
  return { platforms, constraints, nonGoals };
}
