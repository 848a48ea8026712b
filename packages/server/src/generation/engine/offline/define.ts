import type { ProjectType } from '@pgs/contract';
import { inferProjectType } from '../../catalogue.ts';
import type { ProjectDefinition } from '../context.ts';
import { audienceInSentence, describeAudience } from './audience.ts';
import { type IdeaReading, readIdea } from './idea.ts';
import {
  article,
  between,
  capitalize,
  clip,
  decapitalize,
  gerund,
  listing,
  pascal,
  pick,
  plural,
  shuffled,
  VERBS,
} from './words.ts';

/** How each project type is named in prose. */
export const TYPE_LABEL: Record<ProjectType, string> = {
  web: 'web application',
  mobile: 'mobile app',
  mcp: 'MCP server',
};

const FALLBACK_NAMES = [
  'Atlas',
  'Beacon',
  'Compass',
  'Harbor',
  'Lumen',
  'Orbit',
  'Meridian',
  'Keystone',
];

const NAME_PATTERNS: Record<ProjectType, readonly ((noun: string) => string)[]> = {
  web: [
    (n) => `${n}Hub`,
    (n) => `${n}Board`,
    (n) => `${n}Loop`,
    (n) => `${n}Pilot`,
    (n) => `${n}Flow`,
  ],
  mobile: [
    (n) => `${n}Pocket`,
    (n) => `${n}Go`,
    (n) => `${n}Mate`,
    (n) => `${n}Buddy`,
    (n) => `${n}Pal`,
  ],
  mcp: [(n) => `${n}Bridge`, (n) => `${n}Link`, (n) => `${n} MCP`, (n) => `${n}Relay`],
};

/** The noun a name and the main entity are built from. */
export function mainNoun(reading: IdeaReading): string | undefined {
  const productNouns = reading.product
    .split(' ')
    .map((word) => word.toLowerCase())
    .filter((word) => reading.nouns.includes(word));
  return (
    productNouns[0] ?? reading.nouns.find((noun) => noun === noun.toLowerCase()) ?? reading.nouns[0]
  );
}

function chooseName(reading: IdeaReading, type: ProjectType, seed: string): string {
  const noun = mainNoun(reading);
  const candidates: string[] = [];
  const firstAction = reading.actions[0]?.split(' ');
  if (firstAction?.length === 2 && firstAction[0]!.length <= 6) {
    const object = firstAction[1]!.replace(/s$/, '');
    if (object.length >= 3 && object.length <= 9)
      candidates.push(pascal(`${object} ${firstAction[0]}`));
  }
  if (noun) for (const pattern of NAME_PATTERNS[type]) candidates.push(pattern(pascal(noun)));
  if (candidates.length === 0)
    candidates.push(`${pick(FALLBACK_NAMES, seed)} ${pascal(reading.product)}`);
  return clip(pick(candidates, `${seed}|name`), 80);
}

function techStack(reading: IdeaReading, type: ProjectType, seed: string): string[] {
  const idea = reading.text.toLowerCase();
  const realtime = /\b(real-?time|live|chat|collaborat\w*|together|multiplayer)\b/.test(idea);
  if (type === 'web') {
    const stack = pick(
      [
        ['TypeScript', 'React', 'Vite', 'Node.js', 'Fastify', 'PostgreSQL'],
        ['TypeScript', 'React', 'Next.js', 'Node.js', 'PostgreSQL', 'Drizzle ORM'],
      ],
      `${seed}|web-stack`,
    );
    return realtime ? [...stack, 'WebSockets', 'Redis'] : [...stack, 'Redis'];
  }
  if (type === 'mobile') {
    const ios = /\b(iphone|ipad|ios|apple watch)\b/.test(idea);
    const android = /\bandroid\b/.test(idea);
    if (ios && !android)
      return [
        'Swift',
        'SwiftUI',
        'SQLite (GRDB)',
        'Apple Push Notification service',
        'Node.js',
        'PostgreSQL',
      ];
    if (android && !ios)
      return [
        'Kotlin',
        'Jetpack Compose',
        'SQLite (Room)',
        'Firebase Cloud Messaging',
        'Node.js',
        'PostgreSQL',
      ];
    return pick(
      [
        [
          'React Native',
          'TypeScript',
          'Expo',
          'SQLite (expo-sqlite)',
          'Expo push notifications',
          'Node.js',
          'PostgreSQL',
        ],
        [
          'Kotlin (Jetpack Compose)',
          'Swift (SwiftUI)',
          'SQLite',
          'Push notifications (APNs and FCM)',
          'Node.js',
          'PostgreSQL',
        ],
      ],
      `${seed}|mobile-stack`,
    );
  }
  const integrations: Record<string, string> = {
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
  };
  const extra = [
    ...new Set(
      Object.entries(integrations)
        .filter(([word]) => new RegExp(`\\b${word}\\b`).test(idea))
        .map(([, api]) => api),
    ),
  ];
  return [
    'TypeScript',
    '@modelcontextprotocol/sdk',
    'Node.js',
    'Zod',
    'stdio and Streamable HTTP transports',
    ...extra,
  ];
}

function platforms(reading: IdeaReading, type: ProjectType, stack: readonly string[]): string[] {
  if (type === 'web') return ['Web (desktop and mobile browsers)'];
  if (type === 'mobile') {
    if (stack[0] === 'Swift') return /\bipad\b/i.test(reading.text) ? ['iOS', 'iPadOS'] : ['iOS'];
    if (stack[0] === 'Kotlin') return ['Android'];
    return ['iOS', 'Android'];
  }
  return ['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code (GitHub Copilot agent mode)'];
}

const EXTRA_FEATURES: Record<ProjectType, readonly ((noun: string, nouns: string) => string)[]> = {
  web: [
    (n) => `Shared ${n} dashboard with weekly summaries`,
    () => 'Team invitations with owner, member and viewer roles',
    (_n, ns) => `Filters and full-text search across ${ns}`,
    () => 'Email and in-app notifications',
    (_n, ns) => `CSV export of ${ns}`,
    (n) => `Activity history for every ${n}`,
  ],
  mobile: [
    (_n, ns) => `Offline capture of ${ns} with background sync`,
    () => 'Push reminders at times the user chooses',
    (n) => `Home-screen widget showing today's ${n} status`,
    (n) => `Photo attachments on each ${n}`,
    (_n, ns) => `Streaks and trends for ${ns}`,
    () => 'Apple and Google sign-in',
  ],
  mcp: [
    (_n, ns) => `List recent ${ns}`,
    (n) => `Summarize ${article(n)} ${n} for the assistant`,
    (_n, ns) => `Read-only resources exposing ${ns}`,
    (n) => `Prompt templates for common ${n} tasks`,
    () => 'Tool-call audit log',
    () => 'Confirmation step before any write',
  ],
};

function coreFeatures(reading: IdeaReading, type: ProjectType, seed: string): string[] {
  const fromIdea = reading.actions.slice(0, 4).map((action) => capitalize(action));
  const noun = mainNoun(reading) ?? reading.product;
  const second = reading.nouns.find((other) => other !== noun && other === other.toLowerCase());
  const nouns = second ? `${plural(noun)} and ${plural(second)}` : plural(noun);
  const extra = shuffled(EXTRA_FEATURES[type], `${seed}|features`).map((make) => make(noun, nouns));
  return [...fromIdea, ...extra].slice(0, Math.max(5, Math.min(fromIdea.length + 2, 6)));
}

function constraints(reading: IdeaReading, type: ProjectType): string[] {
  const idea = reading.text.toLowerCase();
  const list: string[] = [];
  if (/\b(nurse|patient|health|medical|clinic|hospital|therapy|doctor|care)\w*/.test(idea))
    list.push(
      'No patient-identifiable health data is stored; HIPAA and GDPR special-category rules apply',
    );
  if (/\b(pay|payment|money|invoice|bank|budget|finance|expense|salary|billing)\w*/.test(idea))
    list.push('Card data never touches our servers (PCI DSS SAQ A via the payment provider)');
  if (/\b(kid|kids|child|children|student|students|school|teen)\w*/.test(idea))
    list.push(
      'Data of minors handled under COPPA and GDPR-K: no ads, parental consent where required',
    );
  if (/\b(location|gps|map|nearby|route|climb|run|ride|hike)\w*/.test(idea))
    list.push('Location is used only while the feature is in use and is never sold or shared');
  if (type === 'web')
    list.push(
      'WCAG 2.2 AA accessibility',
      'p95 page load under 2 seconds on a mid-range laptop',
      'GDPR-compliant data export and deletion',
    );
  if (type === 'mobile') {
    const ios = /\b(iphone|ipad|ios)\b/.test(idea);
    const android = /\bandroid\b/.test(idea);
    const minimum =
      ios && !android ? 'iOS 16' : android && !ios ? 'Android 10' : 'iOS 16 and Android 10';
    list.push(
      'Works offline for the core flow',
      'Cold start under 2 seconds on a three-year-old phone',
      `Minimum OS: ${minimum}`,
    );
  }
  if (type === 'mcp')
    list.push(
      'Least-privilege credentials, scoped per tool',
      'Write tools require explicit user confirmation',
      'Every tool answers within 10 seconds or reports a time-out',
    );
  return list;
}

function successMetrics(
  reading: IdeaReading,
  type: ProjectType,
  seed: string,
  features: readonly string[],
): string[] {
  const action = features.find(isAction);
  const habit = action
    ? decapitalize(action)
    : `use the ${reading.product.toLowerCase()} three times`;
  if (type === 'mcp')
    return [
      `${between(60, 85, `${seed}|m1`)}% of sessions that install the server call a tool in the first week`,
      `Tool error rate below ${between(1, 3, `${seed}|m2`)}%`,
      `Median tool latency under ${between(400, 900, `${seed}|m3`)} ms`,
    ];
  return [
    `${between(30, 55, `${seed}|m1`)}% of new sign-ups ${habit} within their first week`,
    `${between(25, 45, `${seed}|m2`)}% four-week retention of weekly active users`,
    `${type === 'mobile' ? 'App store rating' : 'Net promoter score'} of ${type === 'mobile' ? `4.${between(4, 7, `${seed}|m3`)} or higher` : `${between(35, 50, `${seed}|m3`)} or higher`}`,
  ];
}

function monetization(reading: IdeaReading, type: ProjectType, seed: string): string {
  const teamish =
    /\b(team|teams|company|companies|business|staff|organi[sz]ation|crew|department|clinic|hospital|school)\b/i.test(
      `${reading.audience ?? ''} ${reading.text}`,
    );
  if (type === 'mcp')
    return pick(
      [
        'Open-source core under the MIT licence; a hosted edition with SSO and audit export at $12 per user per month',
        'Free for individual use; a team licence at $99 per workspace per month adds shared credentials, audit logs and priority support',
      ],
      `${seed}|money`,
    );
  if (type === 'mobile')
    return teamish
      ? `Free for individuals; a team plan at $${between(3, 6, `${seed}|price`)} per member per month adds shared schedules, admin controls and exports`
      : `Free download with an optional Pro subscription at $${between(3, 5, `${seed}|price`)}.99 per month or $${between(24, 39, `${seed}|price-y`)}.99 per year`;
  return teamish
    ? `Freemium: free for teams of up to ${between(3, 5, `${seed}|seats`)} members, then $${between(6, 12, `${seed}|price`)} per member per month, billed annually with a 14-day trial`
    : `Free plan with core features; Plus at $${between(5, 9, `${seed}|price`)} per month adds history, exports and integrations`;
}

/**
 * Settles a project from its idea: a name (or the requested one), a description that
 * restates the idea, the type (inferred from the idea when none is given), and a
 * questionnaire derived from the idea's words.
 *
 * @example
 * defineProject({ idea: 'An iPhone app for nurses to swap shifts', type: 'mobile' }).questionnaire.targetAudience;
 * // 'Nurses who work long, changing rotas on busy wards and want to swap shifts, …'
 */
export function defineProject(input: {
  idea: string;
  type?: ProjectType | undefined;
  requestedName?: string;
}): ProjectDefinition {
  const reading = readIdea(input.idea);
  // A request without a type leaves the choice to the model; offline, the idea decides.
  const type = input.type ?? inferProjectType(input.idea);
  const seed = `${type}|${reading.text}`;
  const requested = input.requestedName?.trim();
  const name = requested ? clip(requested, 80) : chooseName(reading, type, seed);
  const targetAudience = describeAudience(reading, type);
  const stack = techStack(reading, type, seed);
  const features = coreFeatures(reading, type, seed);
  const label = TYPE_LABEL[type];
  const sentence =
    `${name} is ${article(label)} ${label} for ${audienceInSentence(targetAudience, reading.text)}. ` +
    `It starts from the idea "${clip(reading.text, 200)}" and centres on ` +
    `${listing(features.slice(0, 3).map((feature) => decapitalize(gerund(feature))))}.`;
  return {
    name,
    description: clip(sentence, 600),
    type,
    questionnaire: {
      targetAudience,
      monetization: monetization(reading, type, seed),
      techStack: stack,
      platforms: platforms(reading, type, stack),
      coreFeatures: features,
      constraints: constraints(reading, type),
      successMetrics: successMetrics(reading, type, seed, features),
    },
  };
}

/** Whether a feature phrase starts with an action verb (it becomes a tool or a flow). */
export function isAction(feature: string): boolean {
  return VERBS.has((feature.split(' ')[0] ?? '').toLowerCase());
}
