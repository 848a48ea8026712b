/**
 * Core features as the offline engine handles them: a capability of the idea written as an
 * imperative phrase ("Send vaccine reminders by SMS"), and a feature read back into its verb,
 * object, qualifiers and entity, whoever wrote it (the offline definition or a model's).
 */
import type { ProjectType } from '@pgs/contract';
import { capitalize, decapitalize, singular } from '../text/words.ts';
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
}

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
 * A feature read back into its parts: from the idea's own capability when the feature is one
 * (the offline definition writes them so), else from reading the feature as an idea of its
 * own, else word by word.
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
  const own = reading.capabilities.find((capability) => featureOf(capability, type) === feature);
  if (own) return partsOfCapability(feature, own, readOnly, true);
  const phrase = decapitalize(feature);
  const [again] = readIdeaNlp(`A tool to ${phrase}`).capabilities;
  if (again && phrase.startsWith(again.verb.split(' ')[0]!))
    return partsOfCapability(feature, again, readOnly, false);
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
