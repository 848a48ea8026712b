/**
 * The offline definition: a project settled from the idea's reading alone. One core feature per
 * capability the idea names, in its words (qualifiers and numbers kept); the type the reading
 * infers unless the client pinned one; the audience only as the idea names it; and the further
 * members (coverage, entities, services, non-goals, assumptions, open questions) so that every
 * content word of the idea is kept somewhere in the definition.
 */
import type { ProjectType } from '@pgs/contract';
import { mapStrings, plainText } from '@pgs/contract/document';
import type { Integration, ProjectDefinition } from '@pgs/contract/generation';
import { readCodebaseOnce } from '../codebase/cache.ts';
import type { CodebaseFacts, RepositorySource } from '../codebase/types.ts';
import {
  article,
  capitalize,
  clip,
  decapitalize,
  listing,
  pascal,
  pick,
  plural,
} from '../text/words.ts';
import {
  assumptionsOf,
  constraintsOf,
  coverageOf,
  type Draft,
  integrationsOf,
  keyEntitiesOf,
  metricsOf,
  nonGoalsOf,
  openQuestionsOf,
  theService,
} from './define-members.ts';
import { type FeatureParts, featureCapabilities, featureOf, partsOf } from './features.ts';
import { type IdeaCapabilities, missingTerms, readIdeaNlp } from './reading.ts';
import { namesGroup } from './reading-people.ts';
import { rawTokens } from './reading-tokens.ts';
import { platforms as platformsOf, techStack } from './stack.ts';

/** How each project type is named in prose. */
export const TYPE_LABEL: Record<ProjectType, string> = {
  web: 'web application',
  mobile: 'mobile app',
  mcp: 'MCP server',
};

/** The layers of an existing stack a definition's `techStack` names (not its libraries). */
const STACK_LAYERS = new Set(['Language', 'Runtime', 'Framework', 'Data', 'Cache']);

/** The technologies a codebase runs on, as a definition's `techStack`. */
function existingStackNames(codebase: CodebaseFacts): string[] {
  return [...new Set(codebase.stack.filter((s) => STACK_LAYERS.has(s.layer)).map((s) => s.name))];
}

/** The providers a codebase may already call for a kind of service the idea names. */
const PROVIDERS_OF: Record<string, RegExp> = {
  'SMS gateway': /^(?:Twilio|Vonage|Nexmo|MessageBird|Plivo|Sinch|Amazon SNS)$/i,
  'Email delivery service':
    /^(?:SendGrid|Mailgun|Postmark|Amazon SES|Mailchimp|Mandrill|Resend|SparkPost|Nodemailer|Brevo)$/i,
};

/**
 * The services of a grounded project: each the idea names, as the provider the codebase
 * already calls for it when it has one (the SMS gateway is its Twilio), then the other
 * services the codebase calls (Stripe in its payments code), which the documents keep in
 * view. `open` is what the idea asks for that the codebase does not provide yet: only those
 * raise questions of account and plan.
 */
function withServicesOf(
  codebase: CodebaseFacts | undefined,
  named: Integration[],
): { integrations: Integration[]; open: Integration[] } {
  if (!codebase) return { integrations: named, open: named };
  const existing = codebase.externalServices;
  const used = new Set<string>();
  const open: Integration[] = [];
  const integrations = named.map((service) => {
    const provider = existing.find(
      (s) =>
        s.name.toLowerCase() === service.name.toLowerCase() ||
        PROVIDERS_OF[service.name]?.test(s.name),
    );
    if (!provider) {
      open.push(service);
      return service;
    }
    used.add(provider.name);
    return { name: provider.name, purpose: service.purpose };
  });
  return {
    integrations: [
      ...integrations,
      ...existing
        .filter((s) => !used.has(s.name))
        .map((s) => ({ name: s.name, purpose: `serve what ${codebase.name} already uses it for` })),
    ],
    open,
  };
}

/** At most this many core features (the definition's rules allow 12). */
const MAX_FEATURES = 12;

/** Whether the idea calls the product read-only. */
export const isReadOnly = (reading: IdeaCapabilities) =>
  reading.qualifiers.some((q) => /^read-only$/i.test(q));

/** The nouns of an idea that names no capability: "widget" of "Something with widgets". */
function nounsOf(reading: IdeaCapabilities): string[] {
  if (reading.entities.length > 0) return reading.entities.map((e) => e.toLowerCase());
  const skip = new Set(`${reading.product} ${reading.audience ?? ''}`.toLowerCase().split(/\W+/));
  const nouns = rawTokens(reading.text)
    .filter((tok) => tok.pos === 'NOUN' && !skip.has(tok.text.toLowerCase()) && tok.text.length > 2)
    .map((tok) => tok.lemma.toLowerCase());
  return [...new Set(nouns)].slice(0, 3);
}

/**
 * The idea's capabilities as features, then only what the first release cannot do without:
 * for an MCP server, reaching the service; for an app, finding what it keeps and signing in.
 */
function featuresOf(
  reading: IdeaCapabilities,
  type: ProjectType,
  readOnly: boolean,
): FeatureParts[] {
  const texts: string[] = [];
  // A coordination ("manage members, payments and reports") is one feature (features.ts).
  for (const capability of featureCapabilities(reading)) {
    const text = featureOf(capability, type);
    if (!texts.includes(text)) texts.push(text);
  }
  const nouns = nounsOf(reading);
  const generic = /^(?:product|tool|app|application|service|platform|system|website)$/i;
  const main =
    reading.capabilities[0]?.entity ||
    nouns[0] ||
    (generic.test(reading.product) ? 'entry' : `${reading.product} entry`);
  if (texts.length === 0 && type !== 'mcp') texts.push(`Keep ${plural(main)}`);
  const needed =
    type === 'mcp'
      ? [
          `Connect to ${listing(reading.integrations) || 'the data source'} with ${readOnly ? 'read-only' : 'scoped'} credentials`,
          reading.integrations.some((i) =>
            /^(?:postgres|postgresql|sqlite|mysql|bigquery|snowflake)$/i.test(i),
          )
            ? `List the tables of ${listing(reading.integrations)}`
            : `List ${plural(main)}`,
        ]
      : [
          `View and search ${plural(main)}`,
          `Sign in with an account per ${reading.audience && namesGroup(reading.audience) ? 'organisation' : 'person'}`,
        ];
  for (const text of needed) if (texts.length < 3 && !texts.includes(text)) texts.push(text);
  return texts.slice(0, MAX_FEATURES).map((text) => partsOf(text, reading, type, readOnly));
}

const NAME_PATTERNS: Record<ProjectType, readonly ((noun: string) => string)[]> = {
  web: [(n) => `${n}Hub`, (n) => `${n}Board`, (n) => `${n}Desk`, (n) => `${n}Flow`],
  mobile: [(n) => `${n}Pocket`, (n) => `${n}Go`, (n) => `${n}Mate`, (n) => `${n}Pal`],
  mcp: [(n) => `${n}Bridge`, (n) => `${n}Link`, (n) => `${n} MCP`, (n) => `${n}Relay`],
};

function nameOf(
  reading: IdeaCapabilities,
  type: ProjectType,
  features: readonly FeatureParts[],
  seed: string,
): string {
  if (reading.name) return clip(reading.name, 80);
  const entity = features[0]?.entity ?? reading.product;
  const whole = pascal(entity);
  const noun = (whole.length <= 12 ? whole : pascal(entity.split(' ').pop() ?? entity)) || 'Atlas';
  const service = reading.integrations.find((s) => /^[A-Z][a-z]/.test(s));
  const candidates = NAME_PATTERNS[type].map((pattern) => pattern(noun));
  if (type === 'mcp' && service) candidates.push(`${pascal(service)}${noun}`);
  return clip(pick(candidates, `${seed}|name`), 80);
}

/** The audience as a noun phrase: the idea's, or a neutral phrase (never an invented one). */
function whoOf(reading: IdeaCapabilities, type: ProjectType): string {
  if (reading.audience) return reading.audience;
  if (type === 'mcp') return `people who use ${reading.assistant ?? 'an AI assistant'}`;
  return 'people';
}

function audienceSentence(
  reading: IdeaCapabilities,
  type: ProjectType,
  who: string,
  features: readonly FeatureParts[],
): string {
  const own = features.filter((f) => f.fromIdea);
  // With no capability in the idea, the sentence says only what the idea is about.
  const doing =
    own.length > 0
      ? own.map((f) => decapitalize(f.text)).slice(0, 4)
      : [`work with ${plural(features[0]!.entity)}`];
  if (!reading.audience && type === 'mcp')
    return clip(
      `People who use ${reading.assistant ?? 'an AI assistant'} and want it to ${listing(doing)}.`,
      400,
    );
  const relative = namesGroup(who) ? 'that' : 'who';
  return clip(`${capitalize(who)} ${relative} want to ${listing(doing)}.`, 400);
}

/**
 * Settles a project from its idea.
 *
 * @example
 * defineProject({ idea: 'A tool for small veterinary clinics to send vaccine reminders by SMS' }).questionnaire.coreFeatures;
 * // ['Send vaccine reminders by SMS', …]
 */
export function defineProject(input: {
  idea: string;
  type?: ProjectType | undefined;
  requestedName?: string;
  /** The codebase a grounded project changes: its stack and services are kept. */
  repository?: RepositorySource | undefined;
}): ProjectDefinition {
  const codebase = input.repository ? readCodebaseOnce(input.repository) : undefined;
  const reading = readIdeaNlp(input.idea);
  const type = input.type ?? reading.type.type;
  const readOnly = isReadOnly(reading);
  const seed = `${type}|${reading.text}`;
  const features = featuresOf(reading, type, readOnly);
  const requested = input.requestedName?.trim();
  const name = requested ? clip(requested, 80) : nameOf(reading, type, features, seed);
  const who = whoOf(reading, type);
  const draft: Draft = { reading, type, name, who, features, readOnly };
  // The members that ask about services (questions, assumptions, non-goals) ask about the
  // idea's; a service the codebase already calls has its account and its plan.
  const { integrations, open: named } = withServicesOf(codebase, integrationsOf(draft));
  const existing = codebase ? existingStackNames(codebase) : [];
  const stack =
    existing.length > 0 ? existing : techStack(reading.text, type, reading.integrations, seed);
  const platforms = platformsOf(type, stack, reading.assistant, reading.text);
  const label = TYPE_LABEL[type];
  const scope = reading.qualifiers.filter((q) => !/^offline$/i.test(q));
  const product = /^(?:product|tools?)$/i.test(reading.product) ? label : reading.product;
  const description = [
    `${name} is ${article(product)} ${product} for ${who} to ${listing(features.slice(0, 4).map((f) => decapitalize(f.text)))}.`,
    product === label ? '' : `It is built as ${article(label)} ${label}.`,
    scope.length > 0 ? `It is ${listing(scope)}.` : '',
    integrations.length > 0
      ? `It works with ${listing(integrations.map((i) => theService(i.name)))}.`
      : '',
    codebase ? `It is built into ${codebase.name}, an existing codebase, on the stack it has.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const definition: ProjectDefinition = {
    name,
    description: clip(description, 800),
    type,
    questionnaire: {
      targetAudience: audienceSentence(reading, type, who, features),
      monetization: /open-source/i.test(scope.join(' '))
        ? 'Open source and free to self-host; no paid tier in the first release'
        : 'Not stated in the idea; pricing is settled after the first release (see the assumptions)',
      techStack: stack,
      platforms,
      coreFeatures: features.map((f) => f.text),
      constraints: [
        ...(codebase
          ? [
              `Built into the existing ${codebase.name} codebase: its stack${existing.length > 0 ? ` (${listing(existing)})` : ''}, structure and conventions are kept`,
            ]
          : []),
        ...constraintsOf(draft, named, platforms),
      ],
      successMetrics: metricsOf(draft),
      ideaCoverage: coverageOf(draft),
      keyEntities: keyEntitiesOf(draft),
      integrations,
      nonGoals: nonGoalsOf(draft, named, platforms),
      assumptions: assumptionsOf(draft, named),
      openQuestions: openQuestionsOf(draft, named),
    },
  };
  // Whatever word of the idea the members above did not carry is recorded against the feature
  // it most often qualifies (the first), so the definition keeps every content word of the idea.
  const missing = missingTerms(input.idea, JSON.stringify(definition));
  for (const term of missing)
    definition.questionnaire.ideaCoverage!.push({ term, feature: features[0]!.text });
  // The reading was made inert for documents; a definition is plain text in JSON (a client
  // shows `T-1 <visas>`, not `T\\-1 &lt;visas>`), made inert again where a document writes it.
  return mapStrings(definition, plainText);
}
