/**
 * Which files of a codebase a change touches: the files whose paths, routes, tables and
 * components name the words of a capability ("team billing", "SMS reminders"). Words are
 * compared loosely (plural and singular, `billing` and `bill`), and a few close words count
 * for less (`billing` finds `payments`), so a plan can name real files without guessing.
 */
import { singular } from '../text/words.ts';
import type { CodebaseFacts } from './types.ts';

/** A file related to a set of words, with why. */
export interface RankedFile {
  path: string;
  score: number;
  /** What matched: `its name says appointment`, `route GET /appointments`, `table appointments`. */
  reasons: string[];
  /** The words (as {@link termWords} gives them) this file matched. */
  terms: string[];
}

const STOP = new Set(
  `the and for with from into onto our their your its all any each per via add adds adding allow allows let lets
  make makes support supports enable enables new feature features app application system existing change way
  can should must will when where who what which that this these those them they use uses using`.split(
    /\s+/,
  ),
);

/** Close words: a match through one counts half. */
const NEAR: Record<string, string[]> = {
  bill: ['payment', 'invoice', 'subscription', 'charge', 'stripe', 'plan', 'price'],
  payment: ['bill', 'charge', 'stripe', 'invoice', 'checkout'],
  invoice: ['bill', 'payment'],
  subscription: ['bill', 'plan', 'payment'],
  remind: ['notification', 'notify', 'schedule', 'job', 'sms', 'email', 'mail'],
  reminder: ['notification', 'notify', 'schedule', 'job', 'sms', 'email', 'mail'],
  notification: ['notify', 'mail', 'email', 'sms', 'message', 'slack'],
  sms: ['twilio', 'text', 'notification', 'notify', 'message'],
  email: ['mail', 'mailer', 'sendgrid', 'notification', 'notify'],
  message: ['slack', 'notify', 'notification'],
  login: ['auth', 'session', 'user'],
  auth: ['login', 'session', 'user', 'middleware'],
  team: ['organization', 'org', 'member', 'workspace', 'account'],
  account: ['user', 'owner', 'team'],
  upload: ['file', 'storage', 's3', 'attachment'],
  search: ['elasticsearch', 'index', 'query'],
  schedule: ['job', 'cron', 'worker', 'calendar'],
};

/** `Reminders` → `reminder`, `billing` → `bill`: loose enough for paths and table names. */
function stem(word: string): string {
  const lower = singular(word.toLowerCase());
  return lower.length > 6 && lower.endsWith('ing') ? lower.slice(0, -3) : lower;
}

/** The words of a path, a route or a name: split at separators and case changes. */
function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((t) => t.length >= 2)
    .map(stem);
}

const matches = (token: string, term: string) =>
  token === term ||
  (token.length >= 4 && term.length >= 4 && (token.startsWith(term) || term.startsWith(token)));

/** How a term matches a list of words: 1 for itself, 0.5 for a close word, 0 for none. */
interface Match {
  strength: number;
  /** The word that matched, and how it reads in a reason: `payment (close to bill)`. */
  said: string;
}

const NONE: Match = { strength: 0, said: '' };

/** A word of the terms as written (`billing`), and the stem it is compared by (`bill`). */
interface Term {
  word: string;
  stem: string;
}

function match(words: readonly string[], term: Term): Match {
  const direct = words.find((w) => matches(w, term.stem));
  if (direct) return { strength: 1, said: direct };
  const near = NEAR[term.stem] ?? [];
  const close = words.find((w) => near.some((n) => matches(w, n)));
  return close ? { strength: 0.5, said: `${close} (close to ${term.word})` } : NONE;
}

function termsOf(terms: readonly string[]): Term[] {
  const out = new Map<string, Term>();
  for (const word of terms.flatMap((t) => t.split(/[^A-Za-z0-9]+/)))
    if (word.length >= 2 && !STOP.has(word.toLowerCase())) {
      const s = stem(word);
      if (!out.has(s)) out.set(s, { word: word.toLowerCase(), stem: s });
    }
  return [...out.values()];
}

/**
 * The words of a capability's terms that count, as written: common words left out, and one
 * word per stem.
 *
 * @example
 * termWords(['Add SMS reminders', 'reminder']); // ['sms', 'reminders']
 */
export function termWords(terms: readonly string[]): string[] {
  return termsOf(terms).map((t) => t.word);
}

/** Items by each file they name, so that ranking stays linear in the digest's size. */
function group<T>(items: readonly T[], files: (item: T) => string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items)
    for (const file of files(item)) {
      const list = out.get(file);
      if (list) list.push(item);
      else out.set(file, [item]);
    }
  return out;
}

const IGNORED =
  /(?:^|\/)(?:node_modules|vendor|dist)\/|\.(?:md|lock|txt|png|jpe?g|svg|ico)$|(?:^|\/)(?:package-lock\.json|\.gitignore)$/i;
const TEST =
  /(?:^|\/)(?:tests?|__tests__|spec)\/|[._-](?:test|spec)\.|_test\.go$|(?:^|\/)test_[^/]*\.py$/;

/**
 * The files most related to a set of words, best first, with the reasons.
 *
 * @example
 * rankFiles(facts, ['appointment reminders'])[0]; // { path: 'src/routes/appointments.ts', … }
 */
export function rankFiles(
  facts: CodebaseFacts,
  terms: readonly string[],
  options: { limit?: number } = {},
): RankedFile[] {
  const wanted = termsOf(terms);
  if (wanted.length === 0) return [];
  const out: RankedFile[] = [];
  const routesIn = group(facts.routes, (r) => [r.file]);
  const entitiesIn = group(facts.entities, (e) => [e.file, ...(e.alsoIn ?? [])]);
  const componentOf = new Map(
    facts.components.flatMap((c) => c.files.map((f) => [f, c] as const)).reverse(),
  );
  for (const path of facts.paths) {
    if (IGNORED.test(path)) continue;
    const reasons: string[] = [];
    const matched: string[] = [];
    let score = 0;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const folder = path.slice(0, Math.max(0, path.lastIndexOf('/')));
    const routes = routesIn.get(path) ?? [];
    const entities = entitiesIn.get(path) ?? [];
    const component = componentOf.get(path);
    const best = <T>(items: readonly T[], text: (item: T) => string, term: Term) =>
      items
        .map((item) => ({ item, m: match(tokens(text(item)), term) }))
        .sort((a, b) => b.m.strength - a.m.strength)[0] ?? { item: undefined, m: NONE };
    for (const term of wanted) {
      const inName = match(tokens(name), term);
      const inFolder = inName.strength > 0 ? NONE : match(tokens(folder), term);
      const route = best(routes, (r) => r.path, term);
      const entity = best(entities, (e) => e.name, term);
      // A component's role speaks for a file when it is the file's own (a one-file component);
      // in a folder it only adds to what the file's own name, routes or tables show.
      const own = inName.strength + inFolder.strength + route.m.strength + entity.m.strength > 0;
      const role =
        component && (own || component.files.length === 1)
          ? match(tokens(`${component.name} ${component.role}`), term)
          : NONE;
      if (inName.strength) reasons.push(`its name says ${inName.said}`);
      if (inFolder.strength) reasons.push(`its folder says ${inFolder.said}`);
      if (route.item && route.m.strength)
        reasons.push(`route ${route.item.method} ${route.item.path}`);
      if (entity.item && entity.m.strength) reasons.push(`table ${entity.item.name}`);
      if (component && role.strength) reasons.push(`part of ${component.name} (${component.role})`);
      const gained =
        3 * inName.strength +
        1.5 * inFolder.strength +
        2 * route.m.strength +
        2 * entity.m.strength +
        role.strength;
      if (gained > 0) matched.push(term.word);
      score += gained;
    }
    // A test follows the code it tests: it ranks after code that matches as well.
    if (TEST.test(path)) score /= 2;
    if (score > 0) out.push({ path, score, reasons: [...new Set(reasons)], terms: matched });
  }
  out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out.slice(0, options.limit ?? 10);
}

/**
 * The files most related to a set of words (a capability's), best first; empty when none.
 *
 * @example
 * filesForTerms(facts, ['appointment reminders']); // ['src/routes/appointments.ts', …]
 */
export function filesForTerms(
  facts: CodebaseFacts,
  terms: readonly string[],
  options: { limit?: number } = {},
): string[] {
  return rankFiles(facts, terms, options).map((file) => file.path);
}
