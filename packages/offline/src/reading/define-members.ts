/**
 * The questionnaire members the offline definition derives from the idea's reading: the
 * services it works with, its entities, what it leaves out, what it must assume and ask, its
 * constraints and metrics. Each is built from the idea's own capabilities, qualifiers and
 * numbers; what the idea does not say becomes an assumption with a default, never a fact.
 */
import type { ProjectType } from '@pgs/contract';
import type { IdeaTerm, Integration } from '@pgs/contract/generation';
import {
  decapitalize,
  gerund,
  listing,
  participle,
  plural,
  singular,
  uncountable,
} from '../text/words.ts';
import { type FeatureParts, featureOf, membersOf } from './features.ts';
import { type IdeaCapabilities, missingTerms } from './reading.ts';
import { namesGroup } from './reading-people.ts';

/** What the members are derived from. */
export interface Draft {
  reading: IdeaCapabilities;
  type: ProjectType;
  name: string;
  /** The people it serves, as a plural noun phrase. */
  who: string;
  features: FeatureParts[];
  readOnly: boolean;
}

const lower = (feature: FeatureParts) => decapitalize(feature.text);
const has = (draft: Draft, word: RegExp) => draft.reading.qualifiers.some((q) => word.test(q));
const ideaFeatures = (draft: Draft) => draft.features.filter((f) => f.fromIdea);

/** Services that stand for a kind of provider rather than one product. */
const GENERIC_SERVICES: Record<string, string> = {
  sms: 'SMS gateway',
  email: 'Email delivery service',
  'e-mail': 'Email delivery service',
  webhook: 'Webhooks',
  webhooks: 'Webhooks',
};

/** A service in a sentence: "the SMS gateway", "the email delivery service", but "Stripe". */
export function theService(name: string): string {
  return /\b(?:gateway|service|webhooks)\b/i.test(name) ? `the ${decapitalize(name)}` : name;
}

/** The feature that names a word in its text, else the first of the idea's. */
function featureNaming(draft: Draft, word: string): FeatureParts {
  const needle = word.toLowerCase();
  return (
    draft.features.find((f) => f.text.toLowerCase().includes(needle)) ??
    ideaFeatures(draft)[0] ??
    draft.features[0]!
  );
}

/** The services named in the idea, and those its capabilities clearly imply (email, push, maps). */
export function integrationsOf(draft: Draft): Integration[] {
  const found: Integration[] = [];
  const add = (name: string, feature: FeatureParts) => {
    if (!found.some((known) => known.name === name)) found.push({ name, purpose: lower(feature) });
  };
  for (const service of draft.reading.integrations)
    add(GENERIC_SERVICES[service.toLowerCase()] ?? service, featureNaming(draft, service));
  for (const feature of draft.features.flatMap(membersOf)) {
    const words = `${feature.verb} ${feature.qualifiers.join(' ')}`;
    if (/^email\b|\bby e-?mail\b/i.test(words)) add('Email delivery service', feature);
    if (draft.type === 'mobile' && feature.kind === 'send')
      add('Push notification service (APNs and FCM)', feature);
    if (/\bmaps?\b/i.test(`${feature.object} ${feature.qualifiers.join(' ')}`))
      add('Map tiles service', feature);
  }
  return found;
}

/** The things the product stores: each feature's entity, then the idea's other nouns. */
export function keyEntitiesOf(draft: Draft): string[] {
  const entities: string[] = [];
  const head = (noun: string) => noun.split(' ').pop()!;
  const add = (noun: string) => {
    if (noun && !entities.some((known) => head(known) === head(noun))) entities.push(noun);
  };
  for (const feature of draft.features.flatMap(membersOf)) add(feature.entity);
  // A noun that only qualifies an entity ("support" of "support ticket") is no entity.
  const words = () => new Set(entities.flatMap((entity) => entity.split(' ')));
  for (const noun of draft.reading.entities)
    if (entities.length < 2 && !words().has(noun.toLowerCase())) add(noun.toLowerCase());
  if (entities.length < 2) add(draft.type === 'mcp' ? 'tool call' : 'account');
  return entities.slice(0, 10);
}

/** A member of the audience, for sentences about one of them: "small veterinary clinic". */
export function oneOf(who: string): string {
  const words = who.split(' ');
  return [...words.slice(0, -1), singular(words.at(-1) ?? who)].join(' ');
}

/** "Fact not stated; default chosen" for each thing the documents need and the idea leaves open. */
export function assumptionsOf(draft: Draft, integrations: readonly Integration[]): string[] {
  const { name, who, type } = draft;
  const main = draft.features[0]!;
  const group = namesGroup(who);
  const list: string[] = [];
  list.push(
    type === 'mcp'
      ? `The idea gives no volumes; the first release serves one person per server process and answers each call with at most 50 ${uncountable(main.entity) ? 'rows' : plural(main.entity)}`
      : group
        ? `The idea gives no volumes; the first release is sized for one ${oneOf(who)} with up to 50 people and 10,000 ${plural(main.entity)}`
        : `The idea gives no volumes; the first release is sized for 1,000 ${who} with up to 10,000 ${plural(main.entity)} in all`,
  );
  const credentials = integrations.find((i) => i.name !== 'Webhooks')?.name ?? 'upstream';
  list.push(
    type === 'mcp'
      ? `How ${name} is run is not stated; it runs on the user's machine over stdio, with the ${credentials} credentials in environment variables`
      : type === 'mobile'
        ? `How people sign in to ${name} is not stated; they sign in with Apple or Google, and their data syncs to their account`
        : `How people sign in to ${name} is not stated; they sign in with email and a one-time link, and each ${group ? oneOf(who) : 'account'} sees only its own data`,
  );
  for (const feature of draft.features.filter(
    (f) => f.kind === 'send' && !f.qualifiers.some((q) => /^when\b/i.test(q)),
  ))
    list.push(
      `When ${plural(feature.entity)} go out is not stated; each goes out as soon as it falls due, and the sender can set a lead time`,
    );
  for (const feature of draft.features) {
    const span = feature.qualifiers.find((q) => /^(?:after|within|for)\s+\d/i.test(q));
    if (span)
      list.push(
        `What starts the count of "${span}" is not stated; it runs from the last change to the ${feature.entity}`,
      );
    if (feature.qualifiers.some((q) => /\bapproval\b/i.test(q)))
      list.push(
        `Who approves is not stated; the person using ${draft.reading.assistant ?? 'the assistant'} approves each request to ${feature.verb} ${feature.object} in the client before it runs`,
      );
  }
  const languages = draft.features
    .flatMap((f) => f.qualifiers)
    .find((q) => /^in\s+(?:\p{Lu}|the\s+\w+'s\s+language)/u.test(q));
  list.push(
    languages
      ? `The language of the rest of ${name} is not stated; it is English, with ${languages.replace(/^in\s+/i, '')} where the idea asks for it`
      : `The language of ${name}'s interface is not stated; it is English`,
  );
  list.push(
    has(draft, /open-source/i)
      ? `Funding is not stated; ${name} is free to self-host and has no paid tier in the first release`
      : `How ${name} is paid for is not stated; pricing is settled after the first release and does not shape its design`,
  );
  list.push(
    `The idea sets no targets for ${name}; the goals' targets are starting values for the first release, to be agreed with the client after a month of use`,
  );
  return list.slice(0, 8);
}

/** "Question? Why it matters." for what only the client can answer. */
export function openQuestionsOf(draft: Draft, integrations: readonly Integration[]): string[] {
  const list: string[] = [];
  for (const integration of integrations.slice(0, 2)) {
    const data = /postgres|sqlite|mysql|warehouse|database|bigquery|snowflake/i.test(
      `${integration.name} ${integration.purpose}`,
    );
    list.push(
      data
        ? `Which schemas and tables of ${integration.name} may ${draft.name} read? It bounds what ${draft.reading.assistant ?? 'the assistant'} can see.`
        : `Which ${integration.name} account and plan will ${draft.name} use? It sets the cost and the limits of ${gerund(integration.purpose)}.`,
    );
  }
  for (const feature of draft.features) {
    if (feature.qualifiers.some((q) => /\bapproval\b/i.test(q)))
      list.push(
        `Who may approve requests to ${feature.verb} ${feature.object}, and is one approval enough? It decides the approval step of "${feature.text}".`,
      );
    const number = feature.qualifiers.find((q) => /\d/.test(q));
    if (number)
      list.push(
        `Should "${number}" be a setting rather than a fixed rule? It decides whether "${feature.text}" needs a settings screen.`,
      );
    if (feature.kind === 'send' && list.length < 4)
      list.push(
        `What should each ${feature.entity} say, and may people reply to it? It decides the template of "${feature.text}".`,
      );
  }
  list.push(
    draft.type === 'mcp' && !draft.reading.audience
      ? `Which MCP clients must work on the first day${draft.reading.assistant && /^[A-Z][a-z]/.test(draft.reading.assistant) ? ` besides ${draft.reading.assistant}` : ''}? It decides the transports and the setup guide.`
      : `How many ${draft.who} will use ${draft.name} in the first release? It checks the sizing assumed for "${draft.features[0]!.text}".`,
  );
  return list.slice(0, 5);
}

/** What the first release does not do, none contradicting the idea. */
export function nonGoalsOf(
  draft: Draft,
  integrations: readonly Integration[],
  platforms: readonly string[],
): string[] {
  const list: string[] = [];
  const services = integrations.map((i) => i.name);
  if (draft.readOnly)
    list.push(
      `Changing anything in ${listing(services) || 'the data it reads'}: ${draft.name} is read-only`,
    );
  if (draft.type === 'web') list.push('Native mobile apps: the first release runs in the browser');
  if (draft.type === 'mobile')
    list.push(
      platforms.length === 1
        ? `A version for ${platforms[0] === 'iOS' ? 'Android' : 'iOS'}: the idea names ${platforms[0] === 'iOS' ? 'the iPhone' : 'Android'}`
        : 'A web version: the first release is the phone app',
    );
  if (draft.type === 'mcp')
    list.push(
      `A user interface of its own: people use ${draft.name} through ${draft.reading.assistant ?? 'their assistant'}`,
    );
  if (has(draft, /self-hosted/i))
    list.push(`A hosted edition run for customers: ${draft.name} is self-hosted`);
  if (services.length > 0)
    list.push(`Services beyond ${listing(services.map(theService))} in the first release`);
  return list.slice(0, 6);
}

/** Constraints the idea states (read-only, offline, self-hosted…), then one of the type. */
export function constraintsOf(
  draft: Draft,
  integrations: readonly Integration[],
  platforms: readonly string[],
): string[] {
  const list: string[] = [];
  const services = listing(integrations.map((i) => theService(i.name)));
  if (draft.readOnly)
    list.push(`Read-only: no feature changes data in ${services || 'the systems it reads'}`);
  if (has(draft, /self-hosted/i))
    list.push(
      'Self-hosted: runs on the organisation’s own servers, with no call to a service of ours',
    );
  if (has(draft, /open-source/i))
    list.push('Open source: every dependency under a licence that allows publishing the code');
  const offline = draft.features.filter((f) => f.qualifiers.some((q) => /^offline$/i.test(q)));
  if (offline.length > 0)
    list.push(
      `Offline: ${listing(offline.map((f) => gerund(`${f.verb} ${f.object}`)))} ${offline.length === 1 ? 'works' : 'work'} without a connection`,
    );
  list.push(
    draft.type === 'web'
      ? 'Runs in the current versions of Chrome, Firefox, Safari and Edge'
      : draft.type === 'mobile'
        ? `Runs on ${listing(platforms)}, on the operating system versions of the last three years`
        : 'Works in any MCP client over stdio, and over Streamable HTTP for shared use',
  );
  return list;
}

/** "Metric: target" per capability of the idea, targets being starting values (an assumption says so). */
export function metricsOf(draft: Draft): string[] {
  const metrics = ideaFeatures(draft)
    .slice(0, 4)
    .map((f) => {
      const quals = f.qualifiers.length > 0 ? ` ${f.qualifiers.join(' ')}` : '';
      if (f.kind === 'read') return `Time to ${lower(f)}: under 2 seconds at the 95th percentile`;
      if (f.kind === 'send')
        return `Share of ${f.object} ${participle(f.verb)}${quals} on time: 95%`;
      if (f.kind === 'create')
        return `Share of ${plural(f.entity)} ${participle(f.verb)} in ${draft.name} on the first attempt: 90%`;
      return `Share of ${f.object} ${participle(f.verb)}${quals} with no manual step: 90%`;
    });
  if (metrics.length < 3)
    metrics.push(`Share of ${draft.who} still using ${draft.name} after a month: 60%`);
  if (metrics.length < 3)
    metrics.push(`Share of ${draft.who} who ${lower(draft.features[0]!)} again within a week: 50%`);
  return metrics;
}

/** Each capability, qualifier, number and scope word of the idea, with the feature carrying it. */
export function coverageOf(draft: Draft): IdeaTerm[] {
  const terms: IdeaTerm[] = [];
  const add = (term: string, feature: FeatureParts) => {
    if (!terms.some((known) => known.term === term)) terms.push({ term, feature: feature.text });
  };
  for (const capability of draft.reading.capabilities) {
    const text = featureOf(capability, draft.type);
    const feature = draft.features.find(
      (f) => f.fromIdea && membersOf(f).some((member) => member.text === text),
    );
    if (!feature) continue;
    add(capability.text, feature);
    for (const qualifier of capability.qualifiers) add(qualifier, feature);
  }
  for (const word of [...draft.reading.numbers, ...draft.reading.qualifiers])
    add(word, featureNaming(draft, word));
  // An idea that names no capability still has words; each is carried by the first feature.
  if (terms.length === 0)
    for (const word of missingTerms(draft.reading.text, '')) add(word, draft.features[0]!);
  return terms;
}
