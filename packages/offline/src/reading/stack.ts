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

/** The client libraries for the services an idea names, in the order it names them. */
function serviceApis(services: readonly string[]): string[] {
  return [
    ...new Set(
      services.flatMap((name) => {
        const api = SERVICE_APIS[name.toLowerCase()];
        return api ? [api] : [];
      }),
    ),
  ];
}

/**
 * The tech stack for a project of this type: web and mobile stacks chosen by the seed among
 * equivalent ones, an MCP server's always the official SDK plus its services' clients.
 *
 * @example
 * techStack('An iPhone app for runners', 'mobile', [], 'seed')[0]; // 'Swift'
 */
export function techStack(
  idea: string,
  type: ProjectType,
  services: readonly string[],
  seed: string,
): string[] {
  const text = idea.toLowerCase();
  const apis = serviceApis(services).filter(
    (api) => type === 'mcp' || !/^(?:PostgreSQL|SQLite)/.test(api),
  );
  if (type === 'web') {
    const stack = pick(
      [
        ['TypeScript', 'React', 'Vite', 'Node.js', 'Fastify', 'PostgreSQL'],
        ['TypeScript', 'React', 'Next.js', 'Node.js', 'PostgreSQL', 'Drizzle ORM'],
      ],
      `${seed}|web-stack`,
    );
    return [...stack, ...apis].slice(0, 10);
  }
  if (type === 'mobile') {
    const ios = /\b(iphone|ipad|ios|apple watch)\b/.test(text);
    const android = /\bandroid\b/.test(text);
    const native = /\breact native\b/.test(text)
      ? 'rn'
      : /\bflutter\b/.test(text)
        ? 'flutter'
        : ios && !android
          ? 'ios'
          : android && !ios
            ? 'android'
            : pick(['rn', 'native'] as const, `${seed}|mobile-stack`);
    const stacks: Record<string, string[]> = {
      ios: ['Swift', 'SwiftUI', 'SQLite (GRDB)', 'Node.js', 'PostgreSQL'],
      android: ['Kotlin', 'Jetpack Compose', 'SQLite (Room)', 'Node.js', 'PostgreSQL'],
      rn: ['React Native', 'TypeScript', 'Expo', 'SQLite (expo-sqlite)', 'Node.js', 'PostgreSQL'],
      flutter: ['Flutter', 'Dart', 'SQLite (drift)', 'Node.js', 'PostgreSQL'],
      native: ['Kotlin (Jetpack Compose)', 'Swift (SwiftUI)', 'SQLite', 'Node.js', 'PostgreSQL'],
    };
    return [...stacks[native]!, ...apis].slice(0, 10);
  }
  return ['TypeScript', '@modelcontextprotocol/sdk', 'Node.js', 'Zod', ...apis].slice(0, 10);
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
