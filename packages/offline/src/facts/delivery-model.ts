/**
 * What the later documents build from the requirements: stories citing their criteria, the
 * architecture's components, the plan's slices of tasks (tests before code, a spike before the
 * work a high-impact risk threatens; plan-model.ts), an MCP server's tools and a mobile app's
 * screens.
 */

import { namesPeople } from '../reading/reading-people.ts';
import {
  capitalize,
  decapitalize,
  gerund,
  kebab,
  listing,
  participle,
  plural,
  singular,
  snake,
} from '../text/words.ts';
import { phrase } from './brief-model.ts';
import { theRole } from './criteria.ts';
import type { Criterion, Facts, Requirement } from './facts.ts';
import { qualifierSuffix, theService, unitsOf } from './facts.ts';
import { databaseOf, keptPerInstall, withoutAccounts } from './settled.ts';

/** The plan's slices are written in plan-model.ts; the documents take them from here. */
export { type Slice, slicesOf, type Task } from './plan-model.ts';

export interface Story {
  id: string;
  title: string;
  priority: Requirement['priority'];
  as: string;
  want: string;
  outcome: string;
  criteria: Criterion[];
  req: Requirement;
}

export interface Component {
  name: string;
  responsibility: string;
  implements: string[];
}

export interface Tool {
  name: string;
  req: Requirement;
  writes: boolean;
  approval: boolean;
}

export interface Screen {
  name: string;
  route: string;
  purpose: string;
  serves: string[];
}

const lower = (req: Requirement) => decapitalize(req.text);

function outcomeOf(f: Facts, req: Requirement): string {
  if (req.kind === 'create')
    return `each ${req.ent.label} is kept in ${f.name} and can be found again`;
  if (req.kind === 'send')
    return `${req.object} go out${qualifierSuffix(req)} without anyone sending them by hand`;
  if (req.kind === 'read')
    return f.type === 'mcp'
      ? `the answer comes from ${req.service ? theService(req.service.name) : 'the real data'} in the same conversation`
      : `I can ${phrase(req)}${qualifierSuffix(req)} in one step`;
  return `${req.object} ${/s$/.test(req.object) ? 'are' : 'is'} ${participle(req.verb)}${qualifierSuffix(req)} and the change is on record`;
}

/** A second person the feature names ("with a coach", "to on-call engineers", "email waitlisted students"). */
function partyOf(req: Requirement): string | undefined {
  for (const q of req.qualifiers) {
    const m = /^(?:with|to|for)\s+(?:(?:a|an|the)\s+)?([\w-]+(?:\s[\w-]+)?)$/i.exec(q);
    if (m && (namesPeople(m[1]!) || namesPeople(plural(m[1]!)))) return m[1]!;
  }
  if (req.kind === 'send' && namesPeople(req.object)) return req.object;
  return undefined;
}

/**
 * Stories US-1…: one per requirement citing its criteria, one for the approver when a feature
 * needs approval, one for a second person the feature names.
 *
 * @example
 * storiesOf(facts)[0]?.criteria.map((c) => c.id); // ['FR-1.1', 'FR-1.2']
 */
export function storiesOf(f: Facts): Story[] {
  const stories: Omit<Story, 'id'>[] = [];
  for (const req of f.requirements) {
    if (req.verb.startsWith('sign') || req.verb === 'connect') {
      stories.push({
        title: req.text,
        priority: req.priority,
        as: f.type === 'mcp' ? `the person who sets ${f.name} up` : f.role,
        want: `to ${lower(req)}`,
        outcome: `${f.name} works with what is mine and nothing else`,
        criteria: req.criteria,
        req,
      });
      continue;
    }
    stories.push({
      title: req.text,
      priority: req.priority,
      as: f.role,
      want: f.type === 'mcp' ? `${f.assistant} to ${lower(req)}` : `to ${lower(req)}`,
      outcome: outcomeOf(f, req),
      criteria: req.criteria.filter((c) => c.role !== 'approval'),
      req,
    });
    const approval = req.criteria.filter((c) => c.role === 'approval');
    if (approval.length > 0)
      stories.push({
        title: `Approve each request to ${phrase(req)}`,
        priority: req.priority,
        as: 'the person who approves',
        want: `every request to ${phrase(req)} to wait for my approval`,
        outcome: `nothing is ${participle(req.verb)} that I did not agree to`,
        criteria: approval,
        req,
      });
    const party = partyOf(req);
    if (party)
      stories.push({
        title: `${capitalize(party)} on the receiving end of "${req.text}"`,
        priority: req.priority === 'Must' ? 'Should' : req.priority,
        as: `one of the ${/s$/.test(party) ? party : `${party}s`}`.replace(
          /^one of the (?:a|an) /,
          'one of the ',
        ),
        want: `to receive what ${theRole(f.role)} ${req.kind === 'send' ? 'sends' : 'shares'} without signing up for anything new`,
        outcome: `I hear of it where I already am`,
        criteria: req.criteria.filter((c) => c.role === 'event'),
        req,
      });
  }
  return stories.map((story, i) => ({ ...story, id: `US-${i + 1}` }));
}

/**
 * The requirements grouped by the entity they act on, in order: an epic each. A coordination's
 * parts (unitsOf) go to their own entities' epics, under the coordination's ID.
 */
export function epicsOf(f: Facts): { name: string; reqs: Requirement[] }[] {
  const epics: { name: string; reqs: Requirement[] }[] = [];
  for (const req of f.requirements.flatMap(unitsOf)) {
    const name = capitalize(req.ent.plural);
    const known = epics.find((e) => e.name === name);
    if (known) known.reqs.push(req);
    else epics.push({ name, reqs: [req] });
  }
  return epics;
}

/**
 * The architecture's components, each citing the requirements (or criteria) it implements;
 * together they cite every requirement.
 *
 * @example
 * componentsOf(facts).flatMap((c) => c.implements); // ['FR-1', 'FR-2.1', …]
 */
export function componentsOf(f: Facts): Component[] {
  const list: Component[] = [];
  const all = f.requirements.map((r) => r.id);
  const timed = f.requirements.filter(
    (r) => r.kind === 'send' || r.qualifiers.some((q) => /^(?:after|within|when)\b/i.test(q)),
  );
  if (f.type === 'mcp') {
    list.push({
      name: 'Transport and session',
      responsibility: `Accepts ${listing(f.platforms.slice(0, 2), 'and')} over stdio, or any client over Streamable HTTP, and hands each call to its tool handler.`,
      implements: f.requirements.filter((r) => r.verb === 'connect').map((r) => r.id),
    });
    for (const tool of toolsOf(f))
      list.push({
        name: `${tool.name} handler`,
        responsibility: `${gerund(tool.req.text)}: validates the arguments, ${tool.writes ? (tool.approval ? 'waits for the approval, ' : 'asks the client to confirm, ') : ''}calls ${tool.req.service ? theService(tool.req.service.name) : 'the upstream system'} and shapes the answer for ${f.assistant}.`,
        implements: [tool.req.id],
      });
  } else {
    list.push({
      name: f.type === 'web' ? 'Web client' : 'App screens',
      responsibility: `The screens ${f.who} use to ${listing(f.requirements.slice(0, 3).map(phrase))}; they call the API and never the database.`,
      implements: f.requirements.filter((r) => r.kind !== 'send').map((r) => r.id),
    });
    for (const epic of epicsOf(f))
      list.push({
        name: `${epic.name} service`,
        responsibility: `Owns the ${epic.reqs[0]!.ent.plural} and their rules: ${listing(epic.reqs.map(lower))}.`,
        implements: epic.reqs.flatMap((r) =>
          r.criteria.filter((c) => c.role !== 'unwanted').map((c) => c.id),
        ),
      });
    if (f.type === 'mobile')
      list.push({
        name: 'Local store and sync',
        responsibility: `Keeps ${listing(f.entities.slice(0, 3).map((e) => e.plural))} on the device and syncs them through the API${f.requirements.some((r) => r.qualifiers.includes('offline')) ? ', so what the idea asks to work offline does' : ''}.`,
        implements: f.requirements
          .filter((r) => r.criteria.some((c) => c.role === 'offline') || r.kind === 'create')
          .map((r) => r.id),
      });
  }
  if (timed.length > 0 && f.type !== 'mcp')
    list.push({
      name: 'Scheduler',
      responsibility: `Runs the timed work: ${listing(timed.map(lower))}, each job once, retried on failure.`,
      implements: timed.map((r) => r.criteria[0]!.id),
    });
  for (const integration of f.integrations) {
    const users = f.requirements.filter((r) => r.service?.name === integration.name);
    list.push({
      name: `${integration.name} adapter`,
      responsibility: `The only code that talks to ${theService(integration.name)}, used to ${integration.purpose}; it holds the credentials, the time-outs and the retry.`,
      implements: users.flatMap((r) =>
        r.criteria.filter((c) => c.role === 'unwanted').map((c) => c.id),
      ),
    });
  }
  if (f.type !== 'mcp')
    list.push({
      name: 'API and database',
      responsibility: `${withoutAccounts(f) ? `Checks the input of each request and the rate of its ${keptPerInstall(f) ? 'install, serving each install only its own rows' : 'client address'}` : 'Checks each request against the signed-in account'}, then reads and writes ${listing(f.entities.map((e) => e.plural))} in ${databaseOf(f, 'the database')}.`,
      implements: all,
    });
  return list;
}

/**
 * An MCP server's tools: one per requirement (per part of a coordination, unitsOf), but not for
 * the set-up ones (connecting).
 */
export function toolsOf(f: Facts): Tool[] {
  const services = f.integrations.map((i) => i.name.toLowerCase());
  return f.requirements
    .flatMap(unitsOf)
    .filter((r) => r.verb !== 'connect' && !r.verb.startsWith('sign'))
    .map((req) => {
      // A read keeps the words of its object ("list_failing_pods"); a write acts on one thing.
      const words = req.object
        .split(' ')
        .filter(
          (w) =>
            !/^(?:a|an|the|each|every|all|any)$/i.test(w) && !services.includes(w.toLowerCase()),
        );
      const thing = req.writes || words.length === 0 ? req.ent.label : words.join(' ');
      return {
        name: snake(`${req.verb} ${thing}`, 4),
        req,
        writes: req.writes && !f.readOnly,
        approval: req.qualifiers.some((q) => /\bapproval\b/i.test(q)),
      };
    });
}

/** A mobile app's screens: a list per entity, a screen per action, sign-in and settings. */
export function screensOf(f: Facts): Screen[] {
  const screens: Screen[] = [];
  for (const epic of epicsOf(f))
    screens.push({
      name: epic.name,
      route: epic.reqs[0]!.ent.path,
      purpose: `lists the ${epic.reqs[0]!.ent.plural} on the phone, newest first`,
      serves: [...new Set(epic.reqs.map((r) => r.id))],
    });
  for (const req of f.requirements.flatMap(unitsOf).filter((r) => !r.verb.startsWith('sign')))
    screens.push({
      name: capitalize(phrase(req)),
      route: kebab(`${req.verb} ${singular(req.ent.label)}`, 4),
      purpose: `lets ${theRole(f.role)} ${lower(req)}`,
      serves: req.criteria.filter((c) => c.role !== 'unwanted').map((c) => c.id),
    });
  // Without accounts no one signs in, and Settings has no account to show (settled.ts).
  if (!withoutAccounts(f))
    screens.push({
      name: 'Sign in',
      route: 'sign-in',
      purpose: `signs ${theRole(f.role)} in, once per device`,
      serves: f.requirements.filter((r) => r.verb.startsWith('sign')).map((r) => r.id),
    });
  screens.push({
    name: 'Settings',
    route: 'settings',
    purpose: withoutAccounts(f)
      ? `notifications, and the data ${f.name} keeps on the phone, with its export`
      : `account, notifications and the data ${f.name} keeps on the phone`,
    serves: [],
  });
  return screens;
}
