/**
 * Core features as the offline engine handles them: a capability of the idea written as an
 * imperative phrase ("Send vaccine reminders by SMS"), and a feature read back into its verb,
 * object, qualifiers and entity, whoever wrote it (the offline definition or a model's).
 */
import type { ProjectType } from '@pgs/contract';
import { capitalize, decapitalize, listing, singular } from '../text/words.ts';
import { type Capability, type IdeaCapabilities, readIdeaNlp } from './reading.ts';
import { namesPeople } from './reading-people.ts';
import type { Priority } from './reading-structure.ts';

/** What a feature does to its entity, which decides its criteria, tools and tasks. */
export type FeatureKind = 'create' | 'send' | 'read' | 'change';

/** A core feature read back into its parts. */
export interface FeatureParts {
  /** The feature as the questionnaire states it. */
  text: string;
  /** Base form, lower case: "send". */
  verb: string;
  /** As written: "vaccine reminders". */
  object: string;
  /** As written: ["by SMS"]. */
  qualifiers: string[];
  /** Singular, without qualifying words: "vaccine reminder"; never empty. */
  entity: string;
  kind: FeatureKind;
  /** Whether the feature is one of the idea's own capabilities (rather than one added). */
  fromIdea: boolean;
  /** The priority the idea's words ask for it ("later" Could, "must" Must); absent when they say nothing. */
  priority?: Priority;
  /**
   * A coordination made one feature ("Manage members, payments and reports"): each capability
   * it holds, with its own verb, object and entity; absent for a feature of one capability.
   */
  members?: FeatureParts[];
}

/** A feature's capabilities: its members, or itself. */
export const membersOf = (feature: FeatureParts): FeatureParts[] => feature.members ?? [feature];

const SEND = new Set(
  'send email notify remind alert message text ping receive deliver broadcast announce'.split(' '),
);
const READ = new Set(
  `search find list read query summarise summarize track view browse identify review check monitor
  compare get follow analyse analyze detect see explore look inspect watch count measure estimate
  forecast calculate answer ask discover recommend visualise visualize show expose`
    .split(/\s+/)
    .filter(Boolean),
);
const CREATE = new Set(
  `schedule book log save keep record publish plan build set draft add create write photograph scan
  capture upload open import collect register enter submit post store pair`
    .split(/\s+/)
    .filter(Boolean),
);

/** The kind of a verb ("send" sends, "search" reads, "log" creates, anything else changes). */
export function kindOf(verb: string, readOnly: boolean): FeatureKind {
  const first = verb.split(' ')[0] ?? verb;
  if (readOnly || READ.has(first)) return 'read';
  if (SEND.has(first)) return 'send';
  if (CREATE.has(first)) return 'create';
  return 'change';
}

/**
 * A capability as a core feature: the idea's words, capitalised, "our" made "the" (a feature
 * is read by people outside the team that wrote the idea); an MCP server exposes what an idea
 * names as bare nouns ("Kubernetes: pods, logs and events").
 *
 * @example
 * featureOf({ verb: 'send', text: 'send vaccine reminders by SMS', … }, 'web'); // 'Send vaccine reminders by SMS'
 */
export function featureOf(capability: Capability, type: ProjectType): string {
  let text = capability.text;
  if (capability.verb === 'provide' || capability.verb === 'support')
    text = text.replace(/^\w+/, type === 'mcp' ? 'expose' : 'manage');
  return capitalize(text.replace(/\b(?:our|my)\b/gi, 'the'));
}

/**
 * Whether a coordination of two ("track expenses and invoices", "view and export reports") is
 * one requirement, as a comma list always is (docs/decisions.md, 2026-11-29).
 */
const GROUP_PAIRS = true;

/** A capability's object as written (article kept) and what follows it (its qualifiers). */
function objectAndTail(capability: Capability): { object: string; tail: string } {
  let object = capability.text.slice(capability.verb.length).trim();
  let tail = '';
  for (const q of [...capability.qualifiers].reverse())
    if (object.endsWith(` ${q}`)) {
      object = object.slice(0, -q.length - 1);
      tail = ` ${q}${tail}`;
    }
  return { object, tail };
}

/**
 * A coordination as one capability whose members are its capabilities, or undefined when it is
 * not one requirement: every verb over every object ("manage, tag and search recipes"; not a
 * light verb's nominal features "offers mood tracking and dark mode"), the same qualifiers and
 * the same priority ("X, Y and optional Z" puts off Z alone), an object each.
 *
 * @example
 * coordinated(readIdeaNlp('Track expenses and invoices').capabilities)?.text; // 'track expenses and invoices'
 */
export function coordinated(members: readonly Capability[]): Capability | undefined {
  if (members.length < 2 || (members.length === 2 && !GROUP_PAIRS)) return undefined;
  const parts = members.map(objectAndTail);
  const verbs = [...new Set(members.map((m) => m.verb))];
  const objects = [...new Set(parts.map((p) => p.object))];
  const [first] = members;
  if (
    !first ||
    verbs.length * objects.length !== members.length ||
    parts.some((p) => p.object === '' || p.tail !== parts[0]!.tail) ||
    members.some((m) => m.priority !== first.priority)
  )
    return undefined;
  return {
    ...first,
    object: listing([...new Set(members.map((m) => m.object))]),
    text: `${listing(verbs)} ${listing(objects)}${parts[0]!.tail}`,
    members: [...members],
  };
}

/**
 * The idea's capabilities as the features it asks for: a coordination one (its capabilities
 * its members), every other capability its own.
 *
 * @example
 * featureCapabilities(readIdeaNlp('Manage members, payments and reports')).map((c) => c.text); // ['manage members, payments and reports']
 */
export function featureCapabilities(reading: IdeaCapabilities): Capability[] {
  const out: Capability[] = [];
  const caps = reading.capabilities;
  for (let i = 0; i < caps.length; ) {
    let end = i + 1;
    const group = caps[i]!.group;
    if (group !== undefined) while (caps[end]?.group === group) end++;
    const run = caps.slice(i, end);
    const one = coordinated(run);
    if (one) out.push(one);
    else out.push(...run);
    i = end;
  }
  return out;
}

const PREPOSITION =
  /\s(?=(?:by|with|in|on|from|to|across|after|before|at|against|for|via|when|while|without|within|grouped|into|over|under)\b)/;

function entityOfObject(object: string, verb: string, qualifiers: readonly string[] = []): string {
  if (object.trim() === '') {
    if (verb === 'connect') return 'connection';
    // "sign in with an account per person": the first noun after the preposition.
    const [first] = (qualifiers[0] ?? '')
      .replace(/^\w+\s+(?:(?:a|an|the|each|every|one)\s+)?/i, '')
      .split(' ');
    return first ? singular(first).toLowerCase() : 'request';
  }
  const words = object
    .replace(/^(?:a|an|the|each|every|all|any|one)\s+/i, '')
    .split(' ')
    .filter(Boolean);
  // Leading words that only qualify the thing: numbers, "weekly", "urgent", "-ing" forms.
  while (
    words.length > 1 &&
    /^(?:\d[\w-]*|\w+ly|\w+ing|\w+ed|urgent|new|stale|recent)$/i.test(words[0]!)
  )
    words.shift();
  const last = words.pop() ?? 'item';
  return [
    ...words.map((word) => (/^[A-Z]/.test(word) ? word : word.toLowerCase())),
    singular(last).toLowerCase(),
  ]
    .join(' ')
    .trim();
}

/** A service-free name for what people receive when a feature sends to people ("email waitlisted students"). */
const MESSAGE: Record<string, string> = {
  email: 'email',
  text: 'text message',
  notify: 'notification',
  remind: 'reminder',
};

/** The parts of a capability, as a feature of this project. */
function partsOfCapability(
  text: string,
  capability: Capability,
  readOnly: boolean,
  fromIdea: boolean,
): FeatureParts {
  // A verb of several words ("sign in", "check in") stays whole, unless the feature renamed it.
  const verb = text.toLowerCase().startsWith(`${capability.verb} `)
    ? capability.verb
    : text.split(' ')[0]!.toLowerCase();
  const verbWords = verb.split(' ').length;
  const qualifiers = capability.qualifiers.map((q) => q.replace(/\b(?:our|my)\b/gi, 'the'));
  // The object as the feature words it, article included ("a 16-week marathon plan"), its
  // qualifiers left out; a number inside it ("10-class passes") stays with it.
  let object = text.split(' ').slice(verbWords).join(' ');
  for (const q of [...qualifiers].reverse())
    if (object.endsWith(` ${q}`)) object = object.slice(0, -q.length - 1);
  if (object === '' || object === text)
    object = capability.object.replace(/\b(?:our|my)\b/gi, 'the');
  const kind = kindOf(verb, readOnly);
  const people = kind === 'send' && namesPeople(capability.object);
  return {
    text,
    verb,
    object,
    qualifiers: qualifiers.filter((q) => !object.includes(q)),
    entity: people
      ? (MESSAGE[verb] ?? 'message')
      : capability.entity || entityOfObject(capability.object, verb, capability.qualifiers),
    kind,
    fromIdea,
    ...(capability.priority ? { priority: capability.priority } : {}),
  };
}

/**
 * The parts of a coordination made one feature: the first member's, under the feature's own
 * title and every object, and each member with its own parts (an idea's own capability where
 * the idea has it, so its priority and origin stay).
 */
function partsOfGroup(
  text: string,
  group: Capability,
  given: { reading: IdeaCapabilities; type: ProjectType; readOnly: boolean; fromIdea: boolean },
): FeatureParts {
  const members = group.members!.map((member) => {
    const own = given.fromIdea
      ? member
      : given.reading.capabilities.find(
          (c) => featureOf(c, given.type) === featureOf(member, given.type),
        );
    return partsOfCapability(
      featureOf(own ?? member, given.type),
      own ?? member,
      given.readOnly,
      own !== undefined,
    );
  });
  const [first] = members;
  return {
    ...first!,
    text,
    object: listing([...new Set(members.map((m) => m.object))]),
    fromIdea: members.some((m) => m.fromIdea),
    members,
  };
}

/**
 * A feature read back into its parts: from the idea's own capability (or coordination) when
 * the feature is one (the offline definition writes them so), else from reading the feature as
 * an idea of its own, else word by word. A coordination ("Manage members and payments") has a
 * member per capability.
 *
 * @example
 * partsOf('Send vaccine reminders by SMS', reading, 'web').qualifiers; // ['by SMS']
 */
export function partsOf(
  feature: string,
  reading: IdeaCapabilities,
  type: ProjectType,
  readOnly: boolean,
): FeatureParts {
  const own = featureCapabilities(reading).find((c) => featureOf(c, type) === feature);
  if (own?.members) return partsOfGroup(feature, own, { reading, type, readOnly, fromIdea: true });
  const single = reading.capabilities.find((capability) => featureOf(capability, type) === feature);
  if (single) return partsOfCapability(feature, single, readOnly, true);
  const phrase = decapitalize(feature);
  const [again] = featureCapabilities(readIdeaNlp(`A tool to ${phrase}`));
  if (again && phrase.startsWith(again.verb.split(' ')[0]!))
    return again.members
      ? partsOfGroup(feature, again, { reading, type, readOnly, fromIdea: false })
      : partsOfCapability(feature, again, readOnly, false);
  const [verb = 'use', ...rest] = phrase.split(' ');
  const [object = rest.join(' '), ...qualifiers] = rest.join(' ').split(PREPOSITION);
  return {
    text: feature,
    verb: verb.toLowerCase(),
    object,
    qualifiers: qualifiers.map((q) => q.trim()).filter(Boolean),
    entity: entityOfObject(object, verb.toLowerCase(), qualifiers),
    kind: kindOf(verb.toLowerCase(), readOnly),
    fromIdea: false,
  };
}
