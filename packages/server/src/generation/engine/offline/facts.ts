import type { ProjectType } from '@pgs/contract';
import type { DocumentRequest, ProjectDefinition, RelatedDocument } from '../context.ts';
import { audienceInSentence, audienceNoun } from './audience.ts';
import { isAction, mainNoun, TYPE_LABEL } from './define.ts';
import { type IdeaReading, readIdea } from './idea.ts';
import {
  article,
  clip,
  decapitalize,
  kebab,
  pascal,
  pick,
  plural,
  shuffled,
  singular,
  snake,
} from './words.ts';

/** A domain object of the project, named every way the documents need it. */
export interface Entity {
  /** `Shift` */
  name: string;
  /** `shift` */
  label: string;
  /** `shifts` */
  plural: string;
  /** `shifts` (SQL) */
  table: string;
  /** `shifts` (URL) */
  path: string;
  /** `a shift`, `an order` */
  a: string;
}

/** An MCP tool derived from a feature. */
export interface Tool {
  name: string;
  feature: string;
  write: boolean;
  entity: Entity;
}

/** A mobile screen derived from the features and entities. */
export interface Screen {
  name: string;
  route: string;
  purpose: string;
}

/** A persona with a stable first name. */
export interface Persona {
  name: string;
  role: string;
}

/** Everything a section writer may use; all of it derives from the idea and the definition. */
export interface Facts {
  kind: string;
  title: string;
  name: string;
  /** `habitloop`: for packages, schemes and hosts. */
  slug: string;
  type: ProjectType;
  /** "web application", "mobile app", "MCP server". */
  label: string;
  /** "a web application", "an MCP server". */
  aLabel: string;
  description: string;
  /** The idea, on one line and at most 220 characters, for quoting. */
  idea: string;
  reading: IdeaReading;
  /** The audience sentence, ready to follow "for": "nurses who work nights and want to …". */
  audience: string;
  /** The audience as a noun phrase, without its "who …" clause: "nurses", "developers and teams". */
  audienceShort: string;
  /** What users do with it, as an infinitive phrase. */
  purpose: string;
  features: string[];
  /** The features that are actions ("Swap shifts"). */
  actions: string[];
  stack: string[];
  platforms: string[];
  constraints: string[];
  metrics: string[];
  monetization: string;
  entities: Entity[];
  main: Entity;
  tools: Tool[];
  screens: Screen[];
  personas: [Persona, Persona, Persona];
  related: RelatedDocument[];
  seed: string;
}

const READ_VERBS = new Set(
  `search find list get read query summarize summarise compare browse view check monitor analyse analyze
  visualise visualize explain fetch answer ask discover recommend estimate forecast calculate compute detect
  identify inspect count measure watch listen follow verify audit test match map`
    .split(/\s+/)
    .filter(Boolean),
);

/** Whether a feature changes data ("Swap shifts") rather than reading it ("Search wiki"). */
export function isWrite(feature: string): boolean {
  return isAction(feature) && !READ_VERBS.has((feature.split(' ')[0] ?? '').toLowerCase());
}

const FIRST_NAMES = [
  'Amara',
  'Jonas',
  'Priya',
  'Mateo',
  'Lena',
  'Kofi',
  'Sofia',
  'Hiro',
  'Noor',
  'Elias',
  'Ines',
  'Tomasz',
];

function entity(noun: string): Entity {
  const label = singular(noun).toLowerCase();
  const many = plural(label);
  return {
    name: pascal(label),
    label,
    plural: many,
    table: snake(many, 3),
    path: kebab(many, 3),
    a: `${article(label)} ${label}`,
  };
}

function entitiesOf(reading: IdeaReading, features: readonly string[]): Entity[] {
  const nouns = reading.nouns.filter((noun) => noun === noun.toLowerCase() && noun.length >= 3);
  const main = mainNoun(reading);
  const ordered =
    main && nouns.includes(main) ? [main, ...nouns.filter((noun) => noun !== main)] : nouns;
  if (ordered.length === 0) {
    const object = features.find(isAction)?.split(' ').slice(-1)[0];
    ordered.push(
      object
        ? object.toLowerCase()
        : (reading.product.split(' ').slice(-1)[0] ?? 'item').toLowerCase(),
    );
  }
  const seen = new Set<string>();
  return ordered
    .map(entity)
    .filter((item) => !seen.has(item.label) && seen.add(item.label))
    .slice(0, 3);
}

/** The entity a feature is about: the one whose name it mentions, else the main one. */
export function entityOf(facts: Pick<Facts, 'entities' | 'main'>, feature: string): Entity {
  const lower = feature.toLowerCase();
  return facts.entities.find((item) => lower.includes(item.label)) ?? facts.main;
}

/** "Summarize a recipe for the assistant" → "summarize_recipe": the verb and its object. */
function toolName(feature: string): string {
  const words = feature
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ');
  const kept: string[] = [];
  for (const word of words) {
    if (
      kept.length > 0 &&
      ['for', 'with', 'to', 'by', 'from', 'in', 'on', 'across', 'of', 'at', 'and', 'or'].includes(
        word,
      )
    )
      break;
    if (['a', 'an', 'the', 'one', 'each', 'every', 'recent'].includes(word)) continue;
    kept.push(word);
    if (kept.length === 3) break;
  }
  return kept.join('_');
}

function toolsOf(actions: readonly string[], entities: readonly Entity[], main: Entity): Tool[] {
  const facts = { entities: [...entities], main };
  const tools: Tool[] = actions.map((feature) => ({
    name: toolName(feature),
    feature,
    write: isWrite(feature),
    entity: entityOf(facts, feature),
  }));
  for (const extra of [`list_${main.table}`, `get_${snake(main.label)}`]) {
    const prefix = extra.slice(0, 4);
    if (tools.some((tool) => tool.name.startsWith(prefix))) continue;
    tools.push({
      name: extra,
      feature: extra.startsWith('list')
        ? `List recent ${main.plural}`
        : `Get one ${main.label} by id`,
      write: false,
      entity: main,
    });
  }
  return tools;
}

function screensOf(facts: Pick<Facts, 'name' | 'actions' | 'entities' | 'main'>): Screen[] {
  const screens: Screen[] = [
    {
      name: 'Welcome',
      route: 'welcome',
      purpose: `explains ${facts.name} in three panels and signs the user in`,
    },
    {
      name: 'Today',
      route: 'today',
      purpose: `shows what needs attention now across ${facts.main.plural}`,
    },
    {
      name: `${facts.main.name} list`,
      route: facts.main.path,
      purpose: `lists every ${facts.main.label} with filters and search`,
    },
    {
      name: `${facts.main.name} detail`,
      route: `${facts.main.path}/detail`,
      purpose: `shows one ${facts.main.label}, its history and its actions`,
    },
  ];
  for (const action of facts.actions.slice(0, 3)) {
    screens.push({
      name: action,
      route: kebab(action, 3),
      purpose: `the focused flow to ${decapitalize(action)}`,
    });
  }
  screens.push(
    {
      name: 'Notifications',
      route: 'notifications',
      purpose: `collects reminders and updates about ${facts.main.plural}`,
    },
    {
      name: 'Settings',
      route: 'settings',
      purpose: 'account, notification times, privacy and data export',
    },
  );
  return screens;
}

/**
 * Everything the offline writers need for one document, derived from the idea and the
 * settled definition only, so every document of a project tells the same story.
 *
 * @example
 * factsFor({ idea, definition, document, related: [] }).main.name; // 'Shift'
 */
export function factsFor(input: {
  idea: string;
  definition: ProjectDefinition;
  document: DocumentRequest;
  related: RelatedDocument[];
}): Facts {
  const { definition, document } = input;
  const reading = readIdea(input.idea);
  const q = definition.questionnaire;
  const features = q.coreFeatures.length > 0 ? q.coreFeatures : [`Use ${definition.name}`];
  const actions = features.filter(isAction);
  const entities = entitiesOf(reading, features);
  const main = entities[0]!;
  const label = TYPE_LABEL[definition.type];
  const seed = `${definition.name}|${reading.text}`;
  const names = shuffled(FIRST_NAMES, seed);
  const audience = audienceInSentence(q.targetAudience, reading.text);
  const base = {
    kind: document.kind,
    title: document.title,
    name: definition.name,
    slug: kebab(definition.name, 4).replace(/-/g, '') || 'app',
    type: definition.type,
    label,
    aLabel: `${article(label)} ${label}`,
    description: definition.description,
    idea: clip(reading.text, 220),
    reading,
    audience,
    audienceShort: audienceNoun(audience),
    purpose: reading.purpose ?? decapitalize(actions[0] ?? `use ${definition.name}`),
    features,
    actions,
    stack: q.techStack.length > 0 ? q.techStack : ['TypeScript'],
    platforms: q.platforms,
    constraints: q.constraints,
    metrics: q.successMetrics,
    monetization: q.monetization,
    entities,
    main,
    related: input.related,
    seed,
  };
  return {
    ...base,
    tools: toolsOf(actions, entities, main),
    screens: screensOf(base),
    personas: [
      {
        name: names[0]!,
        role: definition.type === 'mcp' ? 'day-to-day assistant user' : 'day-to-day user',
      },
      {
        name: names[1]!,
        role:
          definition.type === 'mcp'
            ? 'developer who installs and configures the server'
            : 'organiser who sets things up for others',
      },
      {
        name: names[2]!,
        role:
          definition.type === 'mcp'
            ? 'security-minded administrator'
            : 'occasional user who checks in once a week',
      },
    ],
  };
}

/** A stable choice for a writer: the same project and section always get the same option. */
export function choose<T>(facts: Facts, salt: string, options: readonly T[]): T {
  return pick(options, `${facts.seed}|${facts.kind}|${salt}`);
}
