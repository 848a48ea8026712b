/**
 * The target audience of an offline definition, as one sentence: who, in what situation,
 * what they want and when or where they use the product. It prefers what the idea says and
 * fills the rest from a small table of domains, then from the project type.
 */
import type { ProjectType } from '@pgs/contract';
import { type IdeaReading, namesPeople } from './idea.ts';
import { article, capitalize, listing, plural } from './words.ts';

/** A field of ideas and the people in it. */
interface Domain {
  /** Matched against the idea in lower case. */
  pattern: RegExp;
  /** Who, when the idea names no one: a plural noun phrase. */
  who: string;
  /** Their situation, as a plural verb phrase that follows "who". */
  situation: string;
  /** What they want when the idea states no action, as an infinitive without "to". */
  want: string;
  /** When and where they use the product, by type; the type's default elsewhere. */
  where?: Partial<Record<ProjectType, string>>;
}

// Order matters: the first domain that matches wins, so narrow fields come before broad ones.
const DOMAINS: readonly Domain[] = [
  {
    pattern:
      /\b(medications?|medicines?|drugs?) (stock|inventory|supplies)\b|\bpharmac(y|ies|ists?)\b/,
    who: 'Pharmacy and care-home staff',
    situation: 'keep medicines in stock for many patients or residents',
    want: 'know what is running low before it runs out',
    where: { web: 'from the office browser, instead of paper stock sheets' },
  },
  {
    pattern: /\b(medications?|medicines?|pills?|doses?|prescriptions?|refills?)\b/,
    who: 'People on long-term medication',
    situation: 'juggle several medicines at set times each day',
    want: 'take every dose on time without relying on memory',
    where: { mobile: 'with a gentle reminder on their phone at home or out' },
  },
  {
    pattern: /\b(bees?|beekeep\w*|hives?|apiar\w*|colon(y|ies))\b/,
    who: 'Hobby and small commercial beekeepers',
    situation: 'inspect their hives every week or two through the season',
    want: "keep a record of each colony's health",
    where: { mobile: 'in the field at the hive, without paperwork' },
  },
  {
    pattern: /\b(languages?|vocabulary|fluency|native speakers?|flashcards?)\b/,
    who: 'Language learners',
    situation: 'study a new language alongside work or school',
    want: 'practise speaking with native speakers',
    where: { mobile: 'in short sessions on their phone between other commitments' },
  },
  {
    pattern: /\b(climb\w*|boulder\w*|crags?)\b/,
    who: 'Indoor and outdoor climbers',
    situation: 'climb several times a week',
    want: 'remember their routes and see their progress',
    where: { mobile: 'at the gym or the crag, often with chalky hands and a weak signal' },
  },
  {
    pattern:
      /\b(workouts?|fitness|gym|exercises?|steps|pedometer|running|runners?|marathons?|cycling|cyclists?|hik\w+|reps|training plans?)\b/,
    who: 'Amateur athletes',
    situation: 'train several times a week around work and family',
    want: 'see their progress and stay consistent',
    where: { mobile: 'before, during and right after a session, phone in hand' },
  },
  {
    pattern: /\b(sleep\w*|snor\w+|insomnia|bedtime)\b/,
    who: 'Light sleepers and shift workers',
    situation: 'struggle to keep a regular sleep schedule',
    want: 'understand what helps them rest',
    where: { mobile: 'at bedtime and right after waking, with the phone on the nightstand' },
  },
  {
    pattern: /\b(meals?|recipes?|diets?|calories?|nutrition|groceries|grocery|cooking|food)\b/,
    who: 'Home cooks and busy households',
    situation: 'plan meals around work and family',
    want: 'plan, shop for and keep track of what they eat',
    where: { mobile: 'in the kitchen and at the shop' },
  },
  {
    pattern: /\b(habits?|routines?|streaks?)\b/,
    who: 'People building new routines',
    situation: 'try to stick to small daily habits',
    want: 'keep their streaks going',
    where: { mobile: 'a few seconds at a time, several times a day' },
  },
  {
    pattern:
      /\b(nurses?|nursing|patients?|clinics?|hospitals?|wards?|carers?|caregivers?|care homes?|therap\w+|doctors?)\b/,
    who: 'Care staff',
    situation: 'work long, changing rotas on busy wards',
    want: 'hand over work without losing details',
    where: { mobile: 'on the ward, in the few spare minutes a shift allows' },
  },
  {
    pattern: /\b(pets?|dogs?|cats?|puppies|vets?)\b/,
    who: 'Pet owners',
    situation: 'look after their animals around a working day',
    want: 'keep on top of feeding, walks and vet visits',
    where: { mobile: 'at home and out on walks' },
  },
  {
    pattern: /\b(farm\w*|gardens?|gardening|crops?|plants?|allotments?|orchards?|growers?)\b/,
    who: 'Small growers',
    situation: "work outdoors on the seasons' schedule",
    want: 'keep records of what they plant, sell and harvest',
    where: {
      mobile: 'out in the field, often with a weak signal',
      web: 'from a laptop or phone browser at the end of the working day',
    },
  },
  {
    pattern: /\b(travel\w*|trips?|itinerar\w+|flights?|hotels?|holidays?)\b/,
    who: 'Independent travellers',
    situation: 'plan trips around work and family',
    want: 'keep plans, bookings and costs together',
    where: { mobile: 'on the road, often with a poor connection' },
  },
  {
    pattern: /\b(students?|teachers?|classrooms?|schools?|courses?|homework|lessons?|exams?)\b/,
    who: 'Teachers and students',
    situation: 'juggle classes, deadlines and homework',
    want: 'keep coursework organised',
    where: { mobile: 'in class, on the way home and at the kitchen table' },
  },
  {
    pattern: /\b(kids?|child|children|famil(y|ies)|households?|chores?|parents?|roommates?)\b/,
    who: 'Busy families',
    situation: 'share chores, money and schedules between several people',
    want: 'keep everyone at home on the same page',
    where: { mobile: 'at home and on the go' },
  },
  {
    pattern:
      /\b(budget\w*|expenses?|receipts?|invoic\w+|bookkeeping|accounting|payroll|finances?|spending|savings|bills?|rent)\b/,
    who: 'Freelancers and small business owners',
    situation: 'handle their own money admin',
    want: 'see where their money goes',
    where: { mobile: 'the moment they pay, before the receipt is lost' },
  },
  {
    pattern: /\b(kubernetes|k8s|pods?|clusters?|incidents?|on-call|observability|devops|docker)\b/,
    who: 'Platform engineers and on-call developers',
    situation: 'run services in production',
    want: 'find out quickly what is wrong with a service',
    where: { mcp: 'during incidents and routine checks, without leaving the conversation' },
  },
  {
    pattern:
      /\b(sql|sqlite|postgres\w*|mysql|databases?|quer(y|ies)|warehouses?|bigquery|snowflake|analytics|spreadsheets?)\b/,
    who: 'Developers and data analysts',
    situation: 'answer questions from data every day',
    want: 'explore their data without writing SQL by hand',
    where: { mcp: 'in the middle of a conversation instead of a separate SQL client' },
  },
  {
    pattern: /\b(confluence|notion|wiki|docs|documentation|jira|linear|tickets?|github|gitlab)\b/,
    who: 'Engineering and product teams',
    situation: 'keep their knowledge and work spread across several tools',
    want: 'find answers and file work without switching tools',
  },
  {
    pattern:
      /\b(orders?|refunds?|customers?|shops?|stores?|e-?commerce|inventory|stock|payments?)\b/,
    who: 'Small online shops and their support staff',
    situation: 'answer customer questions about orders every day',
    want: 'see the state of any order in seconds',
  },
  {
    pattern: /\b(mentor\w*|coach\w*|tutor\w*|bookings?|appointments?|sessions?|consult\w*)\b/,
    who: 'Independent mentors and coaches and their clients',
    situation: 'arrange paid one-to-one sessions',
    want: 'handle booking and payment without back-and-forth emails',
    where: { web: 'from any browser, without chasing invoices by email' },
  },
  {
    pattern: /\b(events?|volunteers?|meetups?|clubs?|communit(y|ies)|neighbou?rs?)\b/,
    who: 'Organisers of clubs and community groups',
    situation: 'run events with volunteers in their spare time',
    want: 'coordinate people without endless group chats',
  },
  {
    pattern: /\b(nearby|near me|gps|maps?|locations?|routes?)\b/,
    who: 'People out and about',
    situation: 'need what is close to them right now',
    want: 'find what is nearby',
    where: { mobile: 'on the move, with the phone in their hand' },
  },
];

/** Who uses each type of product when neither the idea nor a domain says. */
const NOBODY: Record<ProjectType, { who: string; situation: string }> = {
  web: {
    who: 'Small teams and independent professionals',
    situation: 'keep this work in spreadsheets and chat threads today',
  },
  mobile: { who: 'Busy people', situation: 'have a few spare minutes at a time' },
  mcp: { who: 'Developers and teams', situation: 'already work alongside an AI assistant daily' },
};

/** When and where each type of product is used, unless the idea or a domain says. */
const SETTING: Record<ProjectType, string> = {
  web: 'from any browser, without spreadsheets or long email threads',
  mobile: 'from the phone they carry all day, often away from a desk',
  mcp: 'without leaving the conversation or copying data between windows',
};

/** "while commuting", "in the field", "every morning": when or where the idea says it is used. */
const WHEN =
  /\b((?:while|whenever|during|between|after|before)(?:\s+[\w'-]+){1,6}|on the (?:go|road|move)|in the field|at (?:home|work|school|the gym|night)|every (?:day|morning|evening|week|night))\b/i;

const LETS_ASSISTANT =
  /\b(?:lets?|allows?|helps?)\s+(?:an?\s+|the\s+|our\s+|your\s+)?(?:llms?|ai(?:\s+assistants?|\s+agents?)?|claude|chatgpt|assistants?|agents?|models?|cursor|copilot|gemini)\s+([a-z]+\s+[^,.;:!?]{3,80})/i;

/** Words that are not audiences even though they are people-shaped nouns of the idea. */
const NOT_WHO = new Set(['user', 'member', 'customer', 'owner', 'other', 'friend', 'partner']);

/** The domain of an idea, if one of the table matches. */
function domainOf(text: string): Domain | undefined {
  const lower = text.toLowerCase();
  return DOMAINS.find((domain) => domain.pattern.test(lower));
}

/** The idea's purpose when its verb is the idea's own, not one guessed from "reminder". */
function ownPurpose(reading: IdeaReading): string | undefined {
  const verb = reading.purpose?.split(' ')[0]?.toLowerCase();
  if (!verb || !reading.purpose || reading.purpose.split(' ').length < 2) return undefined;
  const words = new Set(reading.text.toLowerCase().split(/[^a-z'-]+/));
  return [verb, `${verb}s`, `${verb}es`].some((form) => words.has(form))
    ? reading.purpose
    : undefined;
}

/** The person the idea mentions without a "for …": "pairs learners" → "learners". */
function peopleNoun(reading: IdeaReading): string | undefined {
  const noun = reading.nouns.find(
    (word) => word === word.toLowerCase() && !NOT_WHO.has(word) && namesPeople(plural(word)),
  );
  return noun ? plural(noun) : undefined;
}

function whoOf(
  reading: IdeaReading,
  domain: Domain | undefined,
  type: ProjectType,
): { who: string; clause: string | undefined; named: boolean } {
  const [named, clause] = (reading.audience ?? peopleNoun(reading) ?? '').split(/\s+who\s+/);
  if (named) {
    // "beekeepers" in a beekeeping idea becomes the domain's fuller "hobby and small commercial beekeepers".
    const richer =
      !named.includes(' ') && domain?.who.toLowerCase().endsWith(` ${named.toLowerCase()}`);
    return { who: richer && domain ? domain.who : named, clause, named: true };
  }
  if (domain) return { who: domain.who, clause: undefined, named: false };
  const market = /\b([a-z]+)ing marketplace\b/i.exec(reading.text)?.[1];
  if (market) {
    const providers = /or$/.test(market) ? plural(market) : `${market}ing providers`;
    return {
      who: `Independent ${providers.toLowerCase()} and the clients who book them`,
      clause: undefined,
      named: false,
    };
  }
  return { who: NOBODY[type].who, clause: undefined, named: false };
}

function wantOf(reading: IdeaReading, domain: Domain | undefined, type: ProjectType): string {
  const assistant = reading.assistant ?? 'their AI assistant';
  const purpose = ownPurpose(reading);
  if (purpose) return type === 'mcp' ? `want ${assistant} to ${purpose}` : `want to ${purpose}`;
  // "let an LLM query our warehouse": the action the idea hands to the assistant.
  const handed = LETS_ASSISTANT.exec(reading.text)?.[1];
  if (type === 'mcp' && handed)
    return `want ${assistant} to ${handed.replace(/\bour\b/gi, 'their').replace(/\bmy\b/gi, 'their')}`;
  const nouns = reading.nouns.filter((noun) => noun === noun.toLowerCase()).slice(0, 3);
  if (type === 'mcp' && nouns.length > 0) {
    const proper = reading.nouns.find((noun) => noun !== noun.toLowerCase());
    return `want ${assistant} to look up ${listing(nouns.map(plural))}${proper ? ` in ${proper}` : ''}`;
  }
  // "an app that pairs learners for video calls": the idea's own relative clause.
  const relative = new RegExp(
    `^(?:an?\\s+|the\\s+)?${escapeRegExp(reading.product)}\\s+(?:that|which)\\s+([a-z]+s\\s+[^,.;:!?]{3,80})`,
    'i',
  ).exec(reading.text)?.[1];
  if (relative && type !== 'mcp')
    return `want ${article(reading.product)} ${reading.product} that ${relative}`;
  const features = /\bwith\s+((?:[a-z-]+(?:\s+|,\s*)){0,4}[a-z-]+)\s*(?:[.;:!?]|$)/i.exec(
    reading.text,
  )?.[1];
  if (features && type !== 'mcp') return `want ${features} in one place`;
  if (domain)
    return type === 'mcp' ? `want ${assistant} to ${domain.want}` : `want to ${domain.want}`;
  if (nouns.length > 0) return `want a simpler way to keep track of ${listing(nouns.map(plural))}`;
  return `want ${article(reading.product)} ${reading.product} that just works`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The target audience as a sentence: who they are, their situation, what they want and
 * when or where, from the idea first and then from its domain and project type.
 *
 * @example
 * describeAudience(readIdea('An app for beekeepers to log hive inspections'), 'mobile');
 * // 'Hobby and small commercial beekeepers who inspect their hives every week or two through
 * //  the season and want to log hive inspections, in the field at the hive, without paperwork.'
 */
export function describeAudience(reading: IdeaReading, type: ProjectType): string {
  const domain = domainOf(reading.text);
  const { who, clause, named } = whoOf(reading, domain, type);
  const situation = clause ?? domain?.situation ?? (named ? undefined : NOBODY[type].situation);
  const want = wantOf(reading, domain, type);
  const when = WHEN.exec(reading.text)?.[1];
  const where =
    when && !want.toLowerCase().includes(when.toLowerCase())
      ? when
      : (domain?.where?.[type] ?? SETTING[type]);
  const joiner = who.includes(' who ') ? ', who' : ' who';
  const full = `${who}${joiner} ${situation ? `${situation} and ` : ''}${want}, ${where}`;
  // A long purpose leaves no room for the situation; the sentence stays readable.
  const text =
    full.split(' ').length > 45 && situation ? `${who}${joiner} ${want}, ${where}` : full;
  const first = text.split(' ')[0] ?? '';
  return `${/[a-z][A-Z]/.test(first) ? text : capitalize(text)}.`.replace(/[\s,;:.]+\.$/, '.');
}

/**
 * An audience sentence made ready to follow "for" mid-sentence: no final period, and a
 * lower-case first letter unless the first word is a name the idea also capitalises.
 *
 * @example
 * audienceInSentence('Remote teams who share a backlog.', idea); // 'remote teams who share a backlog'
 */
export function audienceInSentence(audience: string, idea: string): string {
  const text = audience.trim().replace(/[.!]+$/, '');
  const first = text.split(/\s+/)[0] ?? '';
  const named = new RegExp(`\\S\\s+${escapeRegExp(first)}\\b`).test(idea);
  if (named || /^[A-Z][A-Z0-9]/.test(first) || /[a-z][A-Z]/.test(first)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * The people of an audience without what it says about them, for places that need a noun.
 *
 * @example
 * audienceNoun('nurses who work nights and want to swap shifts'); // 'nurses'
 */
export function audienceNoun(audience: string): string {
  const noun = audience
    .split(/,?\s+(?:who|that|whose|when|where|which|while)\s+|[,;:(]/)[0]
    ?.trim()
    .replace(/[.!]+$/, '');
  return noun || audience;
}
