/**
 * The one stack decision every offline writer reads (docs/conventions.md): the pieces of the
 * definition's stack a document names in prose or commands (the server's database, the
 * phone's store, the runtime and its tools, the schema library), taken from the stack as the
 * house conventions left it. A piece the conventions forbid is never written: a required
 * technology of its category stands in, or the piece is named neutrally ("the database").
 */
import { namesTechnology } from '@pgs/contract';
import type { Conventions, ProjectDefinition } from '@pgs/contract/generation';
import { readIdeaOnce } from '../reading/reading-once.ts';
import { techStack as techStackFor } from '../reading/stack.ts';

/** A server-side database of the stack (the phone's store is not one). */
const SERVER_DATABASE =
  /^(?:PostgreSQL|MySQL|MariaDB|SQL Server|Oracle|MongoDB|DynamoDB|Firestore|Cassandra|Supabase|CockroachDB|Neon|PlanetScale)\b/;

/** A store on the phone. */
export const LOCAL_STORE = /^(?:SQLite|Realm|Core Data|SwiftData|Room|Hive|Isar|WatermelonDB)\b/;

/** A runtime the API or the MCP server runs on. */
const RUNTIME =
  /^(?:Node\.js|Bun|Deno|Python|Ruby|Java|Go|Rust|Elixir|PHP|\.NET|Kotlin \(server\))\b/;

/**
 * The commands of a JavaScript runtime: installing, running a script, running a package's
 * binary, fetching and running a published package (`npx -y`), and the runtime's own binary.
 */
export interface RuntimeTools {
  install: string;
  run: string;
  exec: string;
  fetch: readonly string[];
  bin: string;
}

const TOOLS: Record<string, RuntimeTools> = {
  'Node.js': {
    install: 'npm install',
    run: 'npm run',
    exec: 'npx',
    fetch: ['npx', '-y'],
    bin: 'node',
  },
  Bun: { install: 'bun install', run: 'bun run', exec: 'bunx', fetch: ['bunx'], bin: 'bun' },
};

/** The stack pieces the documents name, each as the stack has it or undefined. */
export interface StackChoice {
  /** The server's database (`PostgreSQL`, `MySQL`), or undefined: named neutrally. */
  database: string | undefined;
  /** The phone's store (`SQLite (GRDB)`), or undefined: named neutrally. */
  localStore: string | undefined;
  /** The runtime of the API or the MCP server (`Node.js`, `Bun`), or undefined. */
  runtime: string | undefined;
  /** Its commands, when the engine knows them (Node.js, Bun); otherwise steps are prose. */
  tools: RuntimeTools | undefined;
  /** The schema library of an MCP server's tools (`Zod`), or undefined. */
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
    tools: runtime === undefined ? undefined : TOOLS[runtime],
    validation: find(/^Zod$/),
    required: conventions?.stack?.required ?? [],
    allows,
  };
}

/** What the engine puts in place of a default the conventions forbid, in the same category. */
const EQUIVALENTS: readonly [RegExp, readonly string[]][] = [
  [SERVER_DATABASE, ['PostgreSQL', 'MySQL', 'MariaDB']],
];

/**
 * The definition's stack with each category the conventions emptied (its default forbidden,
 * no required one of the category) given the first allowed equivalent, where it stood; a
 * category without one stays empty and the documents name it neutrally. `before` is the stack
 * the engine chose, `after` the one the conventions left.
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
  if (forbidden.length === 0) return [...after];
  const allowed = (name: string) => !forbidden.some((banned) => namesTechnology(name, banned));
  const out = [...after];
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
