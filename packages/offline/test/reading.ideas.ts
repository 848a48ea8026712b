/**
 * The reading benchmark: twelve ideas (four per project type) with the capabilities and type a
 * careful reader takes from each. reading.test.ts scores readIdeaNlp() on them, and the quality
 * benchmark reuses them, so they are data, not fixtures tuned to the rules.
 */
import type { ProjectType } from '@pgs/contract';
import type { Capability, IdeaCapabilities } from '../src/reading/reading.ts';

/** One capability a reader must find: its verb, a key word of its object and its qualifiers. */
export interface ExpectedCapability {
  /** The base verb, or the verbs accepted (a nominal feature may read as "provide" or "support"). */
  verb: string | readonly string[];
  /** A word the object must contain, as written in the idea ("reminders"); '' for none. */
  object: string;
  /** Qualifiers that must stay attached, each contained in one of the capability's qualifiers. */
  qualifiers?: readonly string[];
}

/** An idea with what it must read as. */
export interface BenchmarkIdea {
  idea: string;
  type: ProjectType;
  capabilities: readonly ExpectedCapability[];
}

/**
 * The twelve benchmark ideas, four per type, in varied domains.
 *
 * @example
 * READING_IDEAS.filter((entry) => entry.type === 'mcp').length; // 4
 */
export const READING_IDEAS: readonly BenchmarkIdea[] = [
  {
    idea: 'A tool for small veterinary clinics to schedule appointments, send vaccine reminders by SMS, and keep pet medical records',
    type: 'web',
    capabilities: [
      { verb: 'schedule', object: 'appointments' },
      { verb: 'send', object: 'reminders', qualifiers: ['by SMS'] },
      { verb: 'keep', object: 'records' },
    ],
  },
  {
    idea: 'A dashboard for finance teams to track cloud spend across AWS and GCP, set budget alerts, and export monthly reports',
    type: 'web',
    capabilities: [
      { verb: 'track', object: 'spend', qualifiers: ['across AWS and GCP'] },
      { verb: 'set', object: 'alerts' },
      { verb: 'export', object: 'reports' },
    ],
  },
  {
    idea: 'A booking portal for independent yoga studios to publish class timetables, sell 10-class passes with Stripe, and email waitlisted students when a spot opens',
    type: 'web',
    capabilities: [
      { verb: 'publish', object: 'timetables' },
      { verb: 'sell', object: 'passes', qualifiers: ['10-class', 'with Stripe'] },
      { verb: 'email', object: 'students' },
    ],
  },
  {
    idea: 'An open-source, self-hosted help desk for IT teams to triage support tickets, route urgent tickets to on-call engineers, and close stale tickets after 30 days',
    type: 'web',
    capabilities: [
      { verb: 'triage', object: 'tickets' },
      { verb: 'route', object: 'tickets', qualifiers: ['to on-call engineers'] },
      { verb: 'close', object: 'tickets', qualifiers: ['after 30 days'] },
    ],
  },
  {
    idea: 'An iPhone app for runners to follow a 16-week marathon plan, log runs offline, and share progress with a coach',
    type: 'mobile',
    capabilities: [
      { verb: 'follow', object: 'plan', qualifiers: ['16-week'] },
      { verb: 'log', object: 'runs', qualifiers: ['offline'] },
      { verb: 'share', object: 'progress', qualifiers: ['with a coach'] },
    ],
  },
  {
    idea: 'An Android app for smallholder farmers to photograph crop leaves, identify plant diseases offline, and get treatment advice in Swahili',
    type: 'mobile',
    capabilities: [
      { verb: 'photograph', object: 'leaves' },
      { verb: 'identify', object: 'diseases', qualifiers: ['offline'] },
      { verb: 'get', object: 'advice', qualifiers: ['in Swahili'] },
    ],
  },
  {
    idea: 'A mobile app that lets festival-goers scan tickets at the gate, find friends on a live map, and receive set-time alerts',
    type: 'mobile',
    capabilities: [
      { verb: 'scan', object: 'tickets', qualifiers: ['at the gate'] },
      { verb: 'find', object: 'friends', qualifiers: ['on a live map'] },
      { verb: 'receive', object: 'alerts' },
    ],
  },
  {
    idea: 'A React Native app for home cooks to save recipes from any website, plan weekly meals, and build a shopping list grouped by aisle',
    type: 'mobile',
    capabilities: [
      { verb: 'save', object: 'recipes', qualifiers: ['from any website'] },
      { verb: 'plan', object: 'meals' },
      { verb: 'build', object: 'list', qualifiers: ['grouped by aisle'] },
    ],
  },
  {
    idea: 'A read-only MCP server that lets Claude query our Postgres analytics warehouse and summarise weekly revenue by region',
    type: 'mcp',
    capabilities: [
      { verb: 'query', object: 'warehouse' },
      { verb: 'summarise', object: 'revenue', qualifiers: ['by region'] },
    ],
  },
  {
    idea: "An MCP server that lets AI assistants search Zendesk tickets, draft replies in the customer's language, and tag urgent issues",
    type: 'mcp',
    capabilities: [
      { verb: 'search', object: 'tickets' },
      { verb: 'draft', object: 'replies', qualifiers: ["in the customer's language"] },
      { verb: 'tag', object: 'issues' },
    ],
  },
  {
    idea: 'A Model Context Protocol server for Kubernetes that lets Claude list failing pods, read container logs from the last 24 hours, and restart deployments with approval',
    type: 'mcp',
    capabilities: [
      { verb: 'list', object: 'pods' },
      { verb: 'read', object: 'logs', qualifiers: ['from the last 24 hours'] },
      { verb: 'restart', object: 'deployments', qualifiers: ['with approval'] },
    ],
  },
  {
    idea: 'Tools for Cursor to open pull requests on GitHub, review diffs against our style guide, and link commits to Linear issues',
    type: 'mcp',
    capabilities: [
      { verb: 'open', object: 'requests', qualifiers: ['on GitHub'] },
      { verb: 'review', object: 'diffs', qualifiers: ['against our style guide'] },
      { verb: 'link', object: 'commits', qualifiers: ['to Linear issues'] },
    ],
  },
];

function sameVerb(expected: ExpectedCapability['verb'], found: string): boolean {
  const verbs: readonly string[] = typeof expected === 'string' ? [expected] : expected;
  return verbs.includes(found);
}

/**
 * Whether a reading found an expected capability: same verb, the key word in the object and
 * every expected qualifier attached to that same capability.
 *
 * @example
 * matches({ verb: 'send', object: 'reminders', qualifiers: ['by SMS'] }, capability); // true
 */
export function matches(expected: ExpectedCapability, found: Capability): boolean {
  if (!sameVerb(expected.verb, found.verb)) return false;
  if (!found.object.toLowerCase().includes(expected.object.toLowerCase())) return false;
  return (expected.qualifiers ?? []).every((qualifier) =>
    found.qualifiers.some((attached) => attached.toLowerCase().includes(qualifier.toLowerCase())),
  );
}

/** A reading's score on one benchmark idea. */
export interface IdeaScore {
  found: number;
  expected: number;
  typeRight: boolean;
  /** The expected capabilities not found, for the failure message. */
  missed: ExpectedCapability[];
}

/**
 * Scores a reading against one benchmark idea.
 *
 * @example
 * scoreIdea(READING_IDEAS[0]!, readIdeaNlp(READING_IDEAS[0]!.idea)).found; // 3
 */
export function scoreIdea(entry: BenchmarkIdea, reading: IdeaCapabilities): IdeaScore {
  const missed = entry.capabilities.filter(
    (expected) => !reading.capabilities.some((found) => matches(expected, found)),
  );
  return {
    found: entry.capabilities.length - missed.length,
    expected: entry.capabilities.length,
    typeRight: reading.type.type === entry.type,
    missed,
  };
}
