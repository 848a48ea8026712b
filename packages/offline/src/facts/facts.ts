/**
 * The project as every offline document sees it, derived from the idea and the settled
 * definition only: the requirements (one per core feature, with their EARS criteria), the
 * brief's assumptions and questions, the services, the people. Each document call derives
 * the same facts, so the IDs one document defines are the IDs the next one cites.
 */
import { closedIds, numberEntries, type ProjectType } from '@pgs/contract';
import { inertText, mapStrings } from '@pgs/contract/document';
import type {
  DocumentRequest,
  Integration,
  ProjectDefinition,
  RelatedDocument,
  RequirementSlot,
} from '@pgs/contract/generation';
import { readCodebaseOnce } from '../codebase/cache.ts';
import type { RepositorySource } from '../codebase/index.ts';
import { isReadOnly, TYPE_LABEL } from '../reading/define.ts';
import {
  assumptionsOf,
  type Draft,
  oneOf,
  openQuestionsOf,
  theService,
} from '../reading/define-members.ts';
import { type FeatureParts, partsOf } from '../reading/features.ts';
import { readIdeaOnce } from '../reading/reading-once.ts';
import { namesGroup } from '../reading/reading-people.ts';
import { article, clip, kebab, pascal, plural, snake, uncountable } from '../text/words.ts';
import { criteriaFor } from './criteria.ts';
import type { Assumption, Criterion, Entity, Facts, Question, Requirement } from './model.ts';

export type { Assumption, Criterion, Entity, Facts, Question, Requirement } from './model.ts';

/** An entity named every way the documents need. */
export function entity(label: string): Entity {
  const many = plural(label);
  const flat = label.toLowerCase();
  return {
    name: pascal(label),
    label: flat,
    plural: many.toLowerCase(),
    table: snake(many, 3),
    path: kebab(many, 3),
    a: uncountable(flat) ? flat : `${article(flat)} ${flat}`,
  };
}

/** The number of a register slot's `FR-n`; a slot that names no FR group is a bug of the caller. */
function slotNumber(slot: RequirementSlot): number {
  const match = /^FR-(\d+)$/.exec(slot.id);
  if (!match) throw new Error(`A requirement register slot must be FR-n, not "${slot.id}"`);
  return Number(match[1]);
}

/** "Fact; default" → the fact and the default; a sentence without ";" is its own default. */
function splitAssumption(text: string, id: string): Assumption {
  const [fact, ...rest] = text.split(/;\s*/);
  return {
    id,
    fact: clip(fact!.trim(), 200),
    choice: rest.length > 0 ? rest.join('; ').trim() : 'Taken as stated',
  };
}

/** "Question? Why." → the question, why it matters, and the feature sharing the most words. */
function splitQuestion(text: string, id: string, features: readonly string[]): Question {
  const at = text.indexOf('?');
  const question = at === -1 ? text.trim() : text.slice(0, at + 1).trim();
  const impact =
    at === -1
      ? 'It changes what the first release builds'
      : text.slice(at + 1).trim() || 'It changes what the first release builds';
  const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9-]{4,}/g) ?? []);
  const mine = words(text);
  let affects = features[0] ?? '';
  let best = 0;
  for (const feature of features) {
    if (text.includes(`"${feature}"`)) {
      affects = feature;
      break;
    }
    const shared = [...words(feature)].filter((w) => mine.has(w)).length;
    if (shared > best) {
      best = shared;
      affects = feature;
    }
  }
  return { id, question, impact: impact.replace(/\.$/, ''), affects };
}

/** The role a story is written for: one of the audience, or someone using the assistant. */
function roleOf(who: string, type: ProjectType, name: string): string {
  if (/^people who use /.test(who))
    return `someone who uses ${who.slice('people who use '.length)}`;
  if (who === 'people') return `a user of ${name}`;
  if (namesGroup(who)) {
    const one = oneOf(who);
    return /\b(?:team|crew|group|club|family|household|community)$/.test(one)
      ? `a member of ${article(one)} ${one}`
      : `someone at ${article(one)} ${one}`;
  }
  const one = oneOf(who);
  return type === 'mcp' ? `someone who uses ${name}` : `${article(one)} ${one}`;
}

/**
 * The service a feature goes through: the one named in it, or whose purpose it is; an MCP
 * server's features go through its one service when the idea names one.
 */
function serviceOf(
  feature: FeatureParts,
  integrations: readonly Integration[],
  type: ProjectType,
): Integration | undefined {
  const text = feature.text.toLowerCase();
  const named =
    integrations.find((i) => text.includes(i.name.toLowerCase())) ??
    integrations.find((i) => i.purpose.toLowerCase() === text) ??
    integrations.find((i) => /\bsms\b/i.test(i.name) && /\bsms\b/i.test(text)) ??
    integrations.find((i) => /^email\b/i.test(i.name) && feature.verb === 'email');
  if (named || type !== 'mcp') return named;
  const own = integrations.filter((i) => !/\b(?:gateway|service|webhooks)\b/i.test(i.name));
  return own.length === 1 ? own[0] : undefined;
}

/** The assumptions and questions that name the feature, its entity or its service (as words). */
function bearingOn(
  feature: FeatureParts,
  service: Integration | undefined,
  notes: readonly (Assumption | Question)[],
): string[] {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const needles = [
    `"${feature.text}"`,
    plural(feature.entity),
    `${feature.verb} ${feature.object}`,
    ...(service ? [service.name] : []),
  ].map((s) => new RegExp(`(?:^|[^\\w])${literal(s.toLowerCase())}(?![\\w])`));
  return notes
    .filter((note) => {
      const text = (
        'fact' in note ? `${note.fact} ${note.choice}` : `${note.question} ${note.impact}`
      ).toLowerCase();
      return (
        needles.some((needle) => needle.test(text)) ||
        ('affects' in note &&
          note.affects === feature.text &&
          !note.question.startsWith('How many'))
      );
    })
    .map((note) => note.id);
}

/**
 * Everything the offline writers need for one document. With a `register` (a revision's,
 * parallel to the core features), each requirement takes its slot's ID and priority instead
 * of the ones its position gives, so IDs and priorities survive features added or removed.
 *
 * @example
 * factsFor({ idea, definition, document, related: [] }).requirements[0]?.id; // 'FR-1'
 */
export function factsFor(input: {
  idea: string;
  definition: ProjectDefinition;
  document: DocumentRequest;
  related: RelatedDocument[];
  register?: readonly RequirementSlot[] | undefined;
  /** The codebase a grounded project changes. */
  repository?: RepositorySource | undefined;
  /** How the criteria are written; absent, EARS. */
  requirementStyle?: 'ears' | 'gherkin' | undefined;
}): Facts {
  const { document } = input;
  // Numbers closed by a decision are never given out again (docs/clarify.md#answer-later):
  // read from the definition as given, before its text is made inert.
  const closed = closedIds(input.definition.questionnaire);
  // A definition is plain text, the engine's as a model's, and the name may be the client's:
  // every member a document writes is made inert here, as the reading makes the idea's words
  // (user-text.ts).
  const definition = mapStrings(input.definition, inertText);
  const q = definition.questionnaire;
  const draft = draftOf(input.idea, definition);
  const { reading, type, who, readOnly } = draft;
  const integrations = q.integrations ?? [];
  const { assumptions, questions } = notesOf(draft, q, integrations, closed);
  const entities: Entity[] = [];
  const assistant = assistantOf(reading.assistant);
  const requirements = requirementsOf(draft, {
    integrations,
    notes: [...assumptions, ...questions],
    register: input.register,
    assistant,
    entityFor: (label) => entityIn(entities, label),
  });
  const label = TYPE_LABEL[type];
  return {
    kind: document.kind,
    title: document.title,
    name: definition.name,
    slug: kebab(definition.name, 4).replace(/-/g, '') || 'app',
    type,
    label,
    aLabel: `${article(label)} ${label}`,
    description: definition.description,
    idea: clip(reading.text, 220),
    reading,
    who,
    role: roleOf(who, type, definition.name),
    assistant,
    requirements,
    entities,
    main: entities[0]!,
    integrations,
    assumptions,
    questions,
    decisions: q.decisions ?? [],
    nonGoals: q.nonGoals ?? [],
    constraints: q.constraints,
    metrics: q.successMetrics,
    stack: q.techStack.length > 0 ? q.techStack : ['TypeScript'],
    platforms: q.platforms,
    monetization: q.monetization,
    readOnly,
    selfHosted: reading.qualifiers.some((w) => /self-hosted/i.test(w)),
    openSource: reading.qualifiers.some((w) => /open-source/i.test(w)),
    related: input.related,
    ...(input.repository ? { codebase: readCodebaseOnce(input.repository) } : {}),
    ...(input.requirementStyle === 'gherkin' ? { requirementStyle: 'gherkin' as const } : {}),
  };
}

/**
 * The idea read (every document of a project reads the same idea, reading-once.ts) and the
 * definition's core features parsed with it, for whom: what the other facts are derived from.
 */
function draftOf(idea: string, definition: ProjectDefinition) {
  const q = definition.questionnaire;
  const type = definition.type;
  const reading = readIdeaOnce(idea);
  const readOnly = isReadOnly(reading);
  const features = (q.coreFeatures.length > 0 ? q.coreFeatures : [`Use ${definition.name}`]).map(
    (f) => partsOf(f, reading, type, readOnly),
  );
  const who =
    reading.audience ??
    (type === 'mcp' ? `people who use ${reading.assistant ?? 'an AI assistant'}` : 'people');
  return { reading, type, name: definition.name, who, features, readOnly } satisfies Draft;
}

type ProjectDraft = ReturnType<typeof draftOf>;

/**
 * The brief's assumptions (`A-n`) and open questions (`Q-n`): the definition's, or those the
 * draft gives; numbered past the closed ones, each question tied to the feature it bears on.
 */
function notesOf(
  draft: ProjectDraft,
  q: ProjectDefinition['questionnaire'],
  integrations: readonly Integration[],
  closed: ReturnType<typeof closedIds>,
): { assumptions: Assumption[]; questions: Question[] } {
  const assumptions = numberEntries(
    q.assumptions ?? assumptionsOf(draft, integrations),
    'A',
    closed,
  ).map((a) => splitAssumption(a.text, a.id));
  const questions = numberEntries(
    q.openQuestions ?? openQuestionsOf(draft, integrations),
    'Q',
    closed,
  ).map((entry) =>
    splitQuestion(
      entry.text,
      entry.id,
      draft.features.map((f) => f.text),
    ),
  );
  return { assumptions, questions };
}

/** The entity of a label: one already named by it or by its head noun, or a new one, kept. */
function entityIn(entities: Entity[], label: string): Entity {
  const head = label.split(' ').pop();
  const known = entities.find((e) => e.label === label || e.label.split(' ').pop() === head);
  if (known) return known;
  const made = entity(label);
  entities.push(made);
  return made;
}

/** The assistant that acts: "AI assistants" acts one at a time, "an AI assistant calls the tool". */
function assistantOf(named: string | undefined): string {
  return !named
    ? 'the assistant'
    : /s$/.test(named) && !/^[A-Z][a-z]+$/.test(named)
      ? `${article(named.replace(/s$/, ''))} ${named.replace(/s$/, '')}`
      : named;
}

/**
 * One requirement per core feature, in order: its ID (the register's slot's, or its
 * position's), priority, entity, service, the notes it depends on, and its criteria. A
 * coordination's criteria are its parts' in turn (a criterion said alike of two parts once).
 */
function requirementsOf(
  draft: ProjectDraft,
  given: {
    integrations: readonly Integration[];
    notes: readonly (Assumption | Question)[];
    register: readonly RequirementSlot[] | undefined;
    assistant: string;
    entityFor: (label: string) => Entity;
  },
): Requirement[] {
  const { features, type, who, name, readOnly } = draft;
  const anyFromIdea = features.some((f) => f.fromIdea);
  return features.map((feature, i) => {
    const slot = given.register?.[i];
    const n = slot ? slotNumber(slot) : i + 1;
    // The idea's own words first ("must", "should", "later", "v2"), then its order.
    const priority =
      slot?.priority ??
      feature.priority ??
      ((anyFromIdea ? feature.fromIdea : i < 3)
        ? 'Must'
        : i < features.length - 1 || i < 4
          ? 'Should'
          : 'Could');
    const one = (parts: FeatureParts): Requirement => {
      const service = serviceOf(parts, given.integrations, type);
      const { members: _, ...own } = parts;
      const base = {
        ...own,
        id: `FR-${n}`,
        n,
        priority,
        ent: given.entityFor(parts.entity),
        writes: parts.kind !== 'read',
        service,
        dependsOn: bearingOn(parts, service, given.notes),
      } satisfies Omit<Requirement, 'criteria'>;
      const context = { type, assistant: given.assistant, role: roleOf(who, type, name) };
      return { ...base, criteria: criteriaFor(base, { ...context, name, service, readOnly }) };
    };
    return feature.members ? grouped(one(feature), feature.members.map(one)) : one(feature);
  });
}

/**
 * A coordination's requirement: the first part's, its title and objects the feature's, its
 * criteria every part's in turn, numbered again (a criterion two parts say alike, once), its
 * notes and its service any part's; each part keeps the criteria that test it.
 */
function grouped(whole: Requirement, parts: Requirement[]): Requirement {
  const criteria: Criterion[] = [];
  const owned = parts.map((part) =>
    part.criteria.map((c) => {
      const known = criteria.find((k) => k.text === c.text);
      if (known) return known;
      const made = { ...c, id: `${whole.id}.${criteria.length + 1}` };
      criteria.push(made);
      return made;
    }),
  );
  return {
    ...whole,
    service: whole.service ?? parts.find((p) => p.service)?.service,
    dependsOn: [...new Set([...whole.dependsOn, ...parts.flatMap((p) => p.dependsOn)])],
    criteria,
    parts: parts.map((part, i) => ({ ...part, criteria: owned[i]! })),
  };
}

/**
 * A requirement's parts: each capability of a coordination, or the requirement itself. What is
 * made per capability (a tool, a screen, an endpoint, an entity's columns) is made per part.
 *
 * @example
 * unitsOf(facts.requirements[0]!).map((r) => r.ent.label); // ['member', 'payment', 'report']
 */
export const unitsOf = (req: Requirement): Requirement[] => req.parts ?? [req];

/** A service in a sentence ("the SMS gateway", "Stripe"). */
export { theService };

/** A requirement's qualifiers as they follow its phrase: " every morning", or nothing. */
export const qualifierSuffix = (req: Requirement) =>
  req.qualifiers.length > 0 ? ` ${req.qualifiers.join(' ')}` : '';

/** The IDs of a list of criteria, as a citation: "FR-2.1, FR-2.3". */
export const ids = (criteria: readonly { id: string }[]) => criteria.map((c) => c.id).join(', ');
