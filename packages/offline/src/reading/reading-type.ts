/**
 * The project type an idea asks for, weighed over the whole idea: what it names outright (MCP,
 * iPhone, dashboard) outweighs what it implies (a camera, an office audience), and an idea that
 * names nothing is a web application.
 */
import type { ProjectType } from '@pgs/contract';

/** The type with the evidence behind it. */
export interface TypeReading {
  type: ProjectType;
  scores: Record<ProjectType, number>;
  /** One line per signal that counted: "names MCP (+10 mcp)". */
  reasons: string[];
}

/** Where a signal is looked for: the product phrase, the rest of the idea, or anywhere. */
type Scope = 'product' | 'rest' | 'idea';

interface Signal {
  type: ProjectType;
  weight: number;
  scope: Scope;
  pattern: RegExp;
  reason: string;
}

const SIGNALS: readonly Signal[] = [
  { type: 'mcp', weight: 10, scope: 'idea', pattern: /\bMCP\b/, reason: 'names MCP' },
  {
    type: 'mcp',
    weight: 10,
    scope: 'idea',
    pattern: /\bmodel context protocol\b/i,
    reason: 'names the Model Context Protocol',
  },
  {
    type: 'mcp',
    weight: 3,
    scope: 'idea',
    pattern: /\b(?:tool calls?|function calling|tools? for (?:ai|llms?|agents?))\b/i,
    reason: 'offers tools to a model',
  },
  {
    type: 'mobile',
    weight: 8,
    scope: 'idea',
    pattern: /\b(?:iphone|ipad|ios|android|apple watch|watchos|wear os)\b/i,
    reason: 'names a phone or watch platform',
  },
  {
    type: 'mobile',
    weight: 8,
    scope: 'product',
    pattern: /\bmobile\b/i,
    reason: 'the product is a mobile app',
  },
  { type: 'mobile', weight: 3, scope: 'rest', pattern: /\bmobile\b/i, reason: 'mentions mobile' },
  {
    type: 'mobile',
    weight: 6,
    scope: 'idea',
    pattern: /\b(?:react native|flutter|expo|swiftui|swift|kotlin|jetpack compose)\b/i,
    reason: 'names a mobile toolkit',
  },
  {
    type: 'mobile',
    weight: 6,
    scope: 'idea',
    pattern: /\b(?:app store|play store|google play|testflight)\b/i,
    reason: 'names an app store',
  },
  {
    type: 'mobile',
    weight: 3,
    scope: 'idea',
    pattern:
      /\b(?:on (?:their|your|my|the|a) (?:smart)?phones?|smartphones?|on the go|in (?:their|your) pockets?)\b/i,
    reason: 'used on a phone',
  },
  {
    type: 'mobile',
    weight: 3,
    scope: 'idea',
    pattern: /\bpush notifications?\b/i,
    reason: 'sends push notifications',
  },
  {
    type: 'mobile',
    weight: 1,
    scope: 'idea',
    pattern:
      /\b(?:camera|photo(?:graph)?s?|photograph|scan|scans|gps|geolocation|bluetooth|nfc|wearables?|offline)\b/i,
    reason: 'uses the device (camera, GPS, offline use)',
  },
  {
    type: 'mobile',
    weight: 1,
    scope: 'product',
    pattern: /^(?!.*\bweb\b).*\bapp\b/i,
    reason: 'the product is an app',
  },
  {
    type: 'web',
    weight: 6,
    scope: 'product',
    pattern:
      /\b(?:dashboard|portal|website|site|web ?app|web|saas|cms|wiki|admin|console|help ?desk|back[- ]office|intranet|extension|marketplace|crm|platform)\b/i,
    reason: 'the product is a web product (dashboard, portal, site)',
  },
  {
    type: 'web',
    weight: 2,
    scope: 'rest',
    pattern:
      /\b(?:browsers?|dashboards?|portal|saas|admin|front[- ]desk|back[- ]office|desktop|web app|in the browser)\b/i,
    reason: 'mentions a browser, dashboard or desk',
  },
  {
    type: 'web',
    weight: 1,
    scope: 'rest',
    pattern: /\bwebsites?\b/i,
    reason: 'mentions a website',
  },
  {
    type: 'web',
    weight: 2,
    scope: 'idea',
    pattern: /\b(?:multi-tenant|b2b|self-hosted)\b/i,
    reason: 'hosted for organisations',
  },
];

/** An audience that works at a desk: clinics, offices, teams. */
const DESK_AUDIENCE =
  /\b(?:clinics?|practices|offices?|firms?|agencies|companies|teams?|studios?|schools?|districts?|departments?|businesses|staff|managers?|administrators?|admins?|accountants?|recruiters?|hr|finance|receptionists?|landlords|libraries|labs?|warehouses?)\b/i;

/** What the type reading needs from the rest of the reading. */
export interface TypeInput {
  text: string;
  product: string;
  audience: string | undefined;
  assistant: string | undefined;
  assistantActs: boolean;
}

/**
 * Weighs the idea's signals for each type; explicit mentions weigh most, and with no signal the
 * type is web.
 *
 * @example
 * inferType({ text: 'An iPhone app for runners', product: 'iPhone app', audience: 'runners', assistant: undefined, assistantActs: false }).type; // 'mobile'
 */
export function inferType(input: TypeInput): TypeReading {
  const scores: Record<ProjectType, number> = { web: 0, mobile: 0, mcp: 0 };
  const reasons: string[] = [];
  const add = (type: ProjectType, weight: number, reason: string) => {
    scores[type] += weight;
    reasons.push(`${reason} (+${weight} ${type})`);
  };
  const rest = input.product ? input.text.replace(input.product, ' ') : input.text;
  for (const signal of SIGNALS) {
    const where =
      signal.scope === 'product' ? input.product : signal.scope === 'rest' ? rest : input.text;
    if (signal.pattern.test(where)) add(signal.type, signal.weight, signal.reason);
  }
  if (input.assistant)
    add(
      'mcp',
      input.assistantActs ? 6 : 2,
      input.assistantActs
        ? `the assistant (${input.assistant}) acts through it`
        : `mentions an assistant (${input.assistant})`,
    );
  if (input.audience && DESK_AUDIENCE.test(input.audience))
    add('web', 2, `serves ${input.audience}, who work at a desk`);
  let type: ProjectType = 'web';
  for (const candidate of ['mcp', 'mobile'] as const)
    if (scores[candidate] > scores[type]) type = candidate;
  if (reasons.length === 0) reasons.push('names no platform: a web application by default');
  return { type, scores, reasons };
}
