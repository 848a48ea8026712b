/**
 * The technologies and platforms the offline engine settles on: a choice per project type,
 * steered only by what the idea names (a platform, a toolkit, the services it works with).
 */
import type { ProjectType } from '@pgs/contract';
import { pick } from '../text/words.ts';

/** The API or client library each named service is reached through. */
const SERVICE_APIS: Record<string, string> = {
  confluence: 'Confluence REST API',
  jira: 'Jira REST API',
  github: 'GitHub REST API',
  gitlab: 'GitLab REST API',
  slack: 'Slack Web API',
  notion: 'Notion API',
  postgres: 'PostgreSQL (node-postgres)',
  postgresql: 'PostgreSQL (node-postgres)',
  linear: 'Linear GraphQL API',
  stripe: 'Stripe API',
  figma: 'Figma REST API',
  salesforce: 'Salesforce REST API',
  sqlite: 'SQLite (better-sqlite3)',
  zendesk: 'Zendesk REST API',
  kubernetes: 'Kubernetes API (@kubernetes/client-node)',
  aws: 'AWS SDK for JavaScript',
  gcp: 'Google Cloud client libraries',
  twilio: 'Twilio API',
  shopify: 'Shopify Admin API',
};

/**
 * The client libraries above that are JavaScript's own, as a stack in another language names
 * them: Python's where the engine knows them, otherwise the service alone.
 */
const CLIENTS_IN: Record<string, Record<string, string>> = {
  Python: {
    'PostgreSQL (node-postgres)': 'PostgreSQL (psycopg)',
    'SQLite (better-sqlite3)': 'SQLite (sqlite3)',
    'AWS SDK for JavaScript': 'AWS SDK for Python (boto3)',
    'Kubernetes API (@kubernetes/client-node)': 'Kubernetes API (kubernetes)',
  },
};

/** The client libraries for the services an idea names, in the order it names them. */
function serviceApis(services: readonly string[], language: string): string[] {
  const own = (api: string) =>
    language === 'TypeScript' || !/node-postgres|better-sqlite3|JavaScript|@kubernetes/.test(api)
      ? api
      : (CLIENTS_IN[language]?.[api] ?? api.replace(/ (?:for JavaScript|\(.+\))$/, ''));
  return [
    ...new Set(
      services.flatMap((name) => {
        const api = SERVICE_APIS[name.toLowerCase()];
        return api ? [own(api)] : [];
      }),
    ),
  ];
}

/**
 * An MCP server's stack in each language with an official MCP SDK: the language (and its
 * runtime), the SDK, and the library its tools' schemas are written with where the SDK has one.
 */
const MCP_STACKS: Record<string, readonly string[]> = {
  TypeScript: ['TypeScript', '@modelcontextprotocol/sdk', 'Node.js', 'Zod'],
  Python: ['Python', 'MCP Python SDK (mcp, FastMCP)', 'Pydantic', 'pytest'],
  Go: ['Go', 'MCP Go SDK'],
  Java: ['Java', 'MCP Java SDK'],
  Kotlin: ['Kotlin', 'MCP Kotlin SDK'],
  'C#': ['C#', '.NET', 'MCP C# SDK'],
  Ruby: ['Ruby', 'MCP Ruby SDK'],
  Rust: ['Rust', 'MCP Rust SDK (rmcp)'],
  Swift: ['Swift', 'MCP Swift SDK'],
  PHP: ['PHP', 'MCP PHP SDK'],
};

/**
 * The API's pieces in a server language other than Node.js: what takes the place of each
 * Node.js piece of the web and phone stacks (the runtime, its framework, its ORM).
 */
const SERVER_IN: Record<string, Record<string, readonly string[]>> = {
  Python: { 'Node.js': ['Python', 'FastAPI'], Fastify: [], 'Drizzle ORM': ['SQLAlchemy'] },
  Django: { 'Node.js': ['Python', 'Django'], Fastify: [], 'Drizzle ORM': [] },
  Flask: { 'Node.js': ['Python', 'Flask'], Fastify: [], 'Drizzle ORM': ['SQLAlchemy'] },
};

/**
 * How a web or phone idea names the language or framework of its server: Django, FastAPI, or
 * Flask and Python only where they can be nothing else ("built with Flask", "a Python
 * backend"; a lab flask or an app that teaches Python chooses nothing).
 */
const SERVER_WORDS: readonly (readonly [RegExp, string])[] = [
  [/\bDjango\b/i, 'Django'],
  [/\bFastAPI\b/i, 'Python'],
  [/\b(?:in|with|using|on)\s+Flask\b|\bFlask\s+(?:app|api|backend|server)\b/, 'Flask'],
  [/\b(?:in|with|using|on)\s+Python\b|\bPython\s+(?:api|backend|server)\b/i, 'Python'],
];

/**
 * The server language or framework a web or phone idea names itself (`SERVER_IN`'s keys), or
 * undefined: then the API is Node.js.
 *
 * @example
 * serverNamedIn('A lab inventory built with Django'); // 'Django'
 * serverNamedIn('An app that teaches Python to kids'); // undefined
 */
export function serverNamedIn(idea: string): string | undefined {
  return SERVER_WORDS.find(([pattern]) => pattern.test(idea))?.[1];
}

/** The phone toolkits, each the stack the engine builds for it. */
type Toolkit = 'ios' | 'android' | 'rn' | 'flutter' | 'native';

/** The toolkit a language or toolkit name stands for in a phone app. */
const TOOLKITS: readonly (readonly [RegExp, Toolkit])[] = [
  [/^(?:kotlin|jetpack compose)$/i, 'android'],
  [/^(?:swift|swiftui)$/i, 'ios'],
  [/^(?:react native|expo|typescript)$/i, 'rn'],
  [/^(?:flutter|dart)$/i, 'flutter'],
];

/** Each toolkit by the name `languageOf` gives it. */
const TOOLKIT_NAMES: Record<Toolkit, string> = {
  android: 'Kotlin',
  ios: 'Swift',
  rn: 'React Native',
  flutter: 'Flutter',
  native: 'Kotlin',
};

/** The languages the engine builds an MCP server or an API in, as a required name spells them. */
const LANGUAGE_NAMES: readonly (readonly [RegExp, string])[] = [
  [/^(?:python|fastapi)$/i, 'Python'],
  [/^(?:typescript|node\.js|javascript)$/i, 'TypeScript'],
  [/^(?:go|golang)$/i, 'Go'],
  [/^java$/i, 'Java'],
  [/^kotlin$/i, 'Kotlin'],
  [/^(?:c#|\.net)$/i, 'C#'],
  [/^ruby$/i, 'Ruby'],
  [/^rust$/i, 'Rust'],
  [/^swift$/i, 'Swift'],
  [/^php$/i, 'PHP'],
];

/**
 * The language (or a phone app's toolkit) a technology the house conventions require stands
 * for in a project of this type, when the engine builds in it: `Python` for an MCP server or
 * an API, `Kotlin` for a phone app; undefined for anything else (a database, a cloud).
 *
 * @example
 * languageOf('FastAPI', 'web'); // 'Python'
 * languageOf('Jetpack Compose', 'mobile'); // 'Kotlin'
 */
export function languageOf(name: string, type: ProjectType): string | undefined {
  const trimmed = name.trim();
  if (type === 'mobile') {
    const toolkit = TOOLKITS.find(([pattern]) => pattern.test(trimmed))?.[1];
    if (toolkit !== undefined) return TOOLKIT_NAMES[toolkit];
    return /^(?:python|fastapi)$/i.test(trimmed) ? 'Python' : undefined;
  }
  const language = LANGUAGE_NAMES.find(([pattern]) => pattern.test(trimmed))?.[1];
  if (type === 'mcp') return language;
  return language === 'Python' || language === 'TypeScript' ? language : undefined;
}

/**
 * How an MCP server's idea names a language with an official SDK ("an MCP server in Python",
 * "written in Go"): Go only after "in" or as Golang, since "go" is a verb; Swift capitalised.
 */
const MCP_LANGUAGE_WORDS: readonly (readonly [RegExp, string])[] = [
  [/\bpython\b/i, 'Python'],
  [/\b(?:golang|in go)\b/i, 'Go'],
  [/\bjava\b(?!\s*script)/i, 'Java'],
  [/\bkotlin\b/i, 'Kotlin'],
  [/(?<![\w.])(?:c#|\.net)(?!\w)/i, 'C#'],
  [/\bin ruby\b/i, 'Ruby'],
  [/\brust\b/i, 'Rust'],
  [/\bSwift\b/, 'Swift'],
  [/\bphp\b/i, 'PHP'],
];

/** A language, a phone toolkit or a server framework, as an idea names one. */
const NAMED_LANGUAGE =
  /\b(?:typescript|javascript|node\.js|python|fastapi|django|flask|golang|java|kotlin|jetpack compose|swiftui|ruby|rails|rust|php|laravel|react native|flutter|dart)\b|(?<![\w.])(?:c#|\.net)(?!\w)/gi;

/**
 * The languages and toolkits the idea names itself, each as `languageOf` names it (`Kotlin` for
 * "Jetpack Compose" in a phone app), or as written when the engine does not build in it: the
 * idea's choice, which the house conventions never overrule.
 *
 * @example
 * languagesNamedIn('A Jetpack Compose app for runners', 'mobile'); // ['Kotlin']
 */
export function languagesNamedIn(idea: string, type: ProjectType): string[] {
  const names = [...idea.matchAll(NAMED_LANGUAGE)].map((m) => m[0]);
  if (type === 'mobile' && /\bSwift\b/.test(idea)) names.push('Swift');
  if (type === 'mcp')
    for (const [pattern, language] of MCP_LANGUAGE_WORDS)
      if (pattern.test(idea)) names.push(language);
  return [...new Set(names.map((name) => languageOf(name, type) ?? name.toLowerCase()))];
}

/** The language an MCP server's idea names, if it has an official SDK; else TypeScript. */
const namedLanguage = (idea: string) =>
  MCP_LANGUAGE_WORDS.find(([pattern]) => pattern.test(idea))?.[1] ?? 'TypeScript';

/**
 * The phone toolkit the idea's words choose, or the one the seed picks among equivalents. A
 * toolkit the idea names is the idea's choice ("Swift" as the language: capitalised, not
 * opening a sentence, so "a swift reply" is no toolkit); with both phones named, each has its
 * own native app.
 */
function toolkitOf(idea: string, seed: string, language: string | undefined): Toolkit {
  const named = language && TOOLKITS.find(([pattern]) => pattern.test(language))?.[1];
  if (named) return named;
  const text = idea.toLowerCase();
  const ios = /\b(iphone|ipad|ios|apple watch)\b/.test(text);
  const android = /\bandroid\b/.test(text);
  if (/\breact native\b/.test(text)) return 'rn';
  if (/\bflutter\b/.test(text)) return 'flutter';
  const kotlin = /\b(?:kotlin|jetpack compose)\b/.test(text);
  const swift = /\bSwiftUI\b|(?<![.!?]\s*|^)\bSwift\b/.test(idea.trim());
  if (kotlin && swift) return 'native';
  if (kotlin || swift) return ios && android ? 'native' : kotlin ? 'android' : 'ios';
  if (ios && !android) return 'ios';
  if (android && !ios) return 'android';
  return pick(['rn', 'native'] as const, `${seed}|mobile-stack`);
}

/** A web or phone stack with its Node.js API in another server language, where the engine knows one. */
function serverIn(stack: readonly string[], language: string | undefined): string[] {
  const pieces = language === undefined ? undefined : SERVER_IN[language];
  if (pieces === undefined) return [...stack];
  return stack.flatMap((tech) => pieces[tech] ?? [tech]);
}

/**
 * The tech stack for a project of this type: web and mobile stacks chosen by the seed among
 * equivalent ones, an MCP server's always its language's official SDK plus its services'
 * clients. `language` is one the house conventions require (`languageOf`); absent, the idea's
 * words choose (a phone toolkit, an MCP server in Python), else TypeScript.
 *
 * @example
 * techStack('An iPhone app for runners', 'mobile', [], 'seed')[0]; // 'Swift'
 * techStack('A server for our wiki', 'mcp', [], 'seed', 'Python')[1]; // 'MCP Python SDK (mcp, FastMCP)'
 */
export function techStack(
  idea: string,
  type: ProjectType,
  services: readonly string[],
  seed: string,
  language?: string,
): string[] {
  if (type === 'mcp') {
    const chosen = language ?? namedLanguage(idea);
    const own = MCP_STACKS[chosen] ?? MCP_STACKS.TypeScript!;
    return [...own, ...serviceApis(services, chosen)].slice(0, 10);
  }
  // The server the conventions require, else the one the idea names (then a toolkit language
  // the conventions require still chooses the phone's toolkit below).
  const serverKey = SERVER_IN[language ?? ''] ? language : serverNamedIn(idea);
  const server = serverKey === undefined ? 'TypeScript' : 'Python';
  const apis = serviceApis(services, server).filter((api) => !/^(?:PostgreSQL|SQLite)/.test(api));
  if (type === 'web') {
    const stack = pick(
      [
        ['TypeScript', 'React', 'Vite', 'Node.js', 'Fastify', 'PostgreSQL'],
        ['TypeScript', 'React', 'Next.js', 'Node.js', 'PostgreSQL', 'Drizzle ORM'],
      ],
      `${seed}|web-stack`,
    );
    return [...serverIn(stack, serverKey), ...apis].slice(0, 10);
  }
  const stacks: Record<Toolkit, string[]> = {
    ios: ['Swift', 'SwiftUI', 'SQLite (GRDB)', 'Node.js', 'PostgreSQL'],
    android: ['Kotlin', 'Jetpack Compose', 'SQLite (Room)', 'Node.js', 'PostgreSQL'],
    rn: ['React Native', 'TypeScript', 'Expo', 'SQLite (expo-sqlite)', 'Node.js', 'PostgreSQL'],
    flutter: ['Flutter', 'Dart', 'SQLite (drift)', 'Node.js', 'PostgreSQL'],
    native: ['Kotlin (Jetpack Compose)', 'Swift (SwiftUI)', 'SQLite', 'Node.js', 'PostgreSQL'],
  };
  const toolkit = toolkitOf(idea, seed, SERVER_IN[language ?? ''] ? undefined : language);
  return [...serverIn(stacks[toolkit], serverKey), ...apis].slice(0, 10);
}

/**
 * Where it runs: the browsers, the phone platforms the stack targets, or the MCP clients (the
 * one the idea names first).
 *
 * @example
 * platforms('mobile', ['Swift', 'SwiftUI'], undefined, 'An iPhone app'); // ['iOS']
 */
export function platforms(
  type: ProjectType,
  stack: readonly string[],
  assistant: string | undefined,
  idea: string,
): string[] {
  if (type === 'web') return ['Web (desktop and mobile browsers)'];
  if (type === 'mobile') {
    if (stack[0] === 'Swift') return /\bipad\b/i.test(idea) ? ['iOS', 'iPadOS'] : ['iOS'];
    if (stack[0] === 'Kotlin') return ['Android'];
    return ['iOS', 'Android'];
  }
  const clients = [
    'Claude Desktop',
    'Claude Code',
    'Cursor',
    'VS Code (GitHub Copilot agent mode)',
  ];
  const named = assistant
    ? clients.filter((client) => client.toLowerCase().includes(assistant.toLowerCase()))
    : [];
  return [...new Set([...named, ...clients])];
}
