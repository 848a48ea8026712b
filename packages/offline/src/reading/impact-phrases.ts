/**
 * The phrases of the impact reading: a requirement the change request adds, written as a core
 * feature (imperative, capitalised, in the request's words with every qualifier and number kept:
 * "Send SMS reminders two days before each appointment"), an existing title with the request's
 * changes applied, and the one sentence that states a requirement.
 */

import { capitalize, decapitalize, plural, singular, thirdPerson } from '../text/words.ts';
import { BOUNDARY, isNumber, wordsOf } from './impact-terms.ts';
import { canBeVerb, gerundBase } from './reading-tokens.ts';

/** Things a product sends: "add X reminders" is "Send X reminders" (features.ts's send kind). */
const SENT = new Set(
  'reminder notification alert email e-mail message text digest newsletter nudge push sms'.split(
    ' ',
  ),
);
/** Nouns of an action, with the verb that does it and how a format or service joins it. */
const ACTIONS: Record<string, [verb: string, joint: string]> = {
  upload: ['upload', 'to'],
  export: ['export', 'as'],
  import: ['import', 'from'],
  search: ['search', 'by'],
  sync: ['sync', 'with'],
  booking: ['book', 'for'],
  sharing: ['share', 'with'],
  tracking: ['track', 'for'],
  login: ['sign in', 'with'],
  'log-in': ['sign in', 'with'],
  'sign-in': ['sign in', 'with'],
  signin: ['sign in', 'with'],
  'check-in': ['check in', 'for'],
  payment: ['take', 'for'],
  backup: ['back up', 'to'],
};
/** Things a product shows, and things it keeps; anything else it offers. */
const SHOWN = new Set(
  `dashboard chart map calendar report leaderboard overview stats statistics graph feed timeline
  heatmap insight analytics summary`
    .split(/\s+/)
    .filter(Boolean),
);
const KEPT = new Set(
  `list waitlist record log history note journal diary register profile inventory archive file
  photo document gallery library catalogue catalog field tag label`
    .split(/\s+/)
    .filter(Boolean),
);
/** Channels a complement may name bare: "switch the reminders to email" sends them by email. */
const CHANNELS =
  /^(?:sms|e-?mail|text|push|whatsapp|slack|telegram|phone|post|mail|signal|teams|discord)$/i;

const LEADS = new Set(
  `by via with in on at before after within every for from to during until without over under per
  when while once whenever if across into as`
    .split(/\s+/)
    .filter(Boolean),
);
const SUBORDINATE = /^(?:when|while|once|whenever|if)$/i;
/** How often: a qualifier of its own ("weekly" in place of "daily"). */
const FREQUENCY =
  /^(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually)$/i;

/** A phrase as a feature writes it: "our"/"my" made "the", no quotes or end punctuation. */
export function clean(text: string): string {
  return text
    .replace(/\b(?:our|my)\b/gi, 'the')
    .replace(/["“”]/g, '')
    .replace(/(^|\s)['‘]|['’](?=\s|$)/g, '$1')
    .replace(/[\s,.;:!?]+$/, '')
    .trim();
}

/** The noun phrase a text opens with (up to a preposition, conjunction or number) and the rest. */
function splitPhrase(text: string): [phrase: string, rest: string] {
  const words = text.split(/\s+/).filter(Boolean);
  let end = 0;
  while (end < words.length) {
    const lower = words[end]!.toLowerCase().replace(/[^\p{L}\p{N}-]/gu, '');
    if (end > 0 && (BOUNDARY.has(lower) || isNumber(lower))) break;
    end++;
  }
  return [words.slice(0, end).join(' '), words.slice(end).join(' ')];
}

const ARTICLE = /^(?:a|an|the|some|new|more)\s+/i;

/**
 * A feature for a noun phrase the request adds: the verb its head calls for, then the phrase as
 * written ("add SMS reminders two days before …" → "Send SMS reminders two days before …";
 * "add photo upload" → "Upload photos"; "add a waiting list" → "Keep a waiting list").
 *
 * @example
 * nounFeature('SMS reminders two days before each appointment'); // 'Send SMS reminders two days before each appointment'
 */
export function nounFeature(object: string): string {
  const text = clean(object);
  const [phrase, rest] = splitPhrase(text);
  const words = phrase.replace(ARTICLE, '').split(' ');
  const head = (words.at(-1) ?? '').toLowerCase();
  const modifiers = words.slice(0, -1).join(' ');
  const after = rest ? ` ${rest}` : '';
  if (head === 'support') return capitalize(`support ${modifiers}${after}`.replace(/\s+/g, ' '));
  const noun = singular(head);
  const gerund = head.endsWith('ing') && canBeVerb(gerundBase(head));
  const action = ACTIONS[noun] ?? (gerund ? [gerundBase(head), 'for'] : undefined);
  if (action) {
    const [verb, joint] = action;
    const of = /^(?:of|for)\s+(.+)$/i.exec(rest);
    if (of) {
      const [object, remaining] = splitPhrase(of[1]!);
      const how = modifiers ? ` ${joint} ${modifiers}` : '';
      return capitalize(`${verb} ${object}${how}${remaining ? ` ${remaining}` : ''}`);
    }
    const things = /^[a-z]+$/.test(modifiers) ? plural(modifiers) : modifiers;
    return capitalize(`${verb} ${things}${after}`.replace(/\s+/g, ' ').trim());
  }
  const verb = SENT.has(noun)
    ? 'send'
    : SHOWN.has(noun)
      ? 'show'
      : KEPT.has(noun)
        ? 'keep'
        : 'offer';
  return capitalize(`${verb} ${text}`);
}

/**
 * The third person of a feature, both verbs of a pair: "view and search runs" → "views and
 * searches runs".
 */
function present(feature: string): string {
  const words = decapitalize(feature).split(' ');
  if (words[1] === 'and' && words[2] && canBeVerb(words[2])) words[2] = thirdPerson(words[2]);
  return thirdPerson(words.join(' '));
}

/**
 * The one sentence stating a requirement, in the project's name and the feature's words.
 *
 * @example
 * statementOf('PetCare', 'Send SMS reminders two days before each appointment'); // 'PetCare sends SMS reminders two days before each appointment.'
 */
export function statementOf(name: string, feature: string, people?: string): string {
  const sentence = people
    ? `${name} lets ${decapitalize(clean(people))} ${decapitalize(feature)}`
    : `${name} ${present(feature)}`;
  return `${sentence}.`;
}

/** A phrase cut into segments, one per qualifier: "Send reminders | by SMS | when …". */
function segmentsOf(text: string, atNumbers: boolean): string[] {
  const segments: string[][] = [];
  let open = false; // a segment opened by a number takes in the preposition after it
  for (const [i, word] of text.split(/\s+/).filter(Boolean).entries()) {
    const lower = word.toLowerCase();
    const current = segments.at(-1);
    const after = current?.at(-1)?.toLowerCase() ?? '';
    const number = atNumbers && isNumber(lower) && !LEADS.has(after);
    // The word after a title's verb is its particle ("Sign in with …"), not a qualifier.
    const lead = (LEADS.has(lower) || FREQUENCY.test(lower)) && (atNumbers || i > 1);
    if (!current || number || (lead && !open)) {
      segments.push([word]);
      open = number;
    } else {
      current.push(word);
      if (lead) open = false;
    }
  }
  return segments.map((segment) => segment.join(' '));
}

/** What a qualifier is about: its preposition, or the unit of a bare number ("num:week"). */
function keyOf(qualifier: string): string {
  const words = qualifier.toLowerCase().split(' ');
  if (FREQUENCY.test(words[0] ?? '') || words[0] === 'every') return 'often';
  if (!isNumber(words[0] ?? '')) return words[0] ?? '';
  const lead = words.find((word) => LEADS.has(word));
  if (lead) return lead;
  const unit = words[0]?.includes('-') ? words[0].split('-')[1] : words[1];
  return `num:${singular(unit ?? '')}`;
}

/**
 * The qualifiers of a predicate or complement, as written: "go out by email two days before"
 * → ["by email", "two days before"]; a bare channel is "by" it.
 */
export function qualifiersOf(text: string): string[] {
  const phrase = clean(text);
  if (CHANNELS.test(phrase)) return [`by ${phrase}`];
  return segmentsOf(phrase, true).filter((segment) => {
    const first = segment.split(' ')[0]!.toLowerCase();
    if (FREQUENCY.test(first)) return true;
    return (LEADS.has(first) || isNumber(first)) && segment.split(' ').length > 1;
  });
}

/** A substitution the request states: "email instead of SMS", "from 16 to 20 weeks". */
export interface Substitution {
  from: string;
  to: string;
}

/**
 * "4 digits instead of 6 letters" on "Join a room with a 6-letter code": a measure the title
 * writes as a compound takes the new measure in the same form ("a 4-digit code").
 */
function compoundMeasure(title: string, from: string, to: string): string | undefined {
  const [fromValue, fromUnit, ...fromRest] = from.split(/\s+/);
  const [toValue, toUnit, ...toRest] = to.split(/\s+/);
  if (!fromValue || !fromUnit || !toValue || !toUnit || fromRest.length + toRest.length > 0)
    return undefined;
  if (!isNumber(fromValue) || !isNumber(toValue)) return undefined;
  const escaped = `${fromValue}-${singular(fromUnit)}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const compound = new RegExp(`\\b${escaped}\\b`, 'i');
  if (!compound.test(title)) return undefined;
  return title.replace(compound, `${toValue}-${singular(toUnit)}`);
}

function substitute(title: string, { from, to }: Substitution): string {
  const measured = compoundMeasure(title, from, to);
  if (measured) return measured;
  const number = /\d+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\b/i;
  const toNumber = number.exec(to)?.[0];
  if (isNumber(from) && toNumber)
    return title.replace(new RegExp(`\\b${from}(?=\\b|-)`, 'i'), toNumber);
  const words = title.split(' ');
  const [source, ...more] = wordsOf(from);
  const at = wordsOf(title).findIndex((word) => word.stems.some((s) => source?.stems.includes(s)));
  // "Email staff …" by SMS: the channel verb becomes a notification by the new channel.
  if (at === 0 && more.length === 0 && CHANNELS.test(to))
    return changedTitle(title, [], [`by ${to}`]);
  const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const textual = new RegExp(`\\b${escaped}\\b`, 'i');
  if (textual.test(title)) return title.replace(textual, to);
  // One word in another form: "emailing" for the title's "Email".
  if (at < 0 || more.length > 0) return title;
  words[at] = to;
  return words.join(' ');
}

/** A bare number qualifier ("20 weeks") put in place of the title's number of that unit. */
function renumber(title: string, qualifier: string, unit: string): string | undefined {
  const value = /^\S+/.exec(qualifier)?.[0] ?? '';
  const pattern = new RegExp(`\\b(\\d+|\\w+)(?=[- ]${unit}s?\\b)`, 'i');
  const found = pattern.exec(title);
  if (!found || !isNumber(found[1]!)) return undefined;
  return title.replace(pattern, value.split('-')[0]!);
}

/**
 * An existing title with a request's changes: substitutions first, then each qualifier in place
 * of the title's qualifier of the same kind ("by email" for "by SMS"; joined to it when the
 * change is additive: "by SMS and email"), else before a "when …" clause or at the end. The
 * title unchanged when nothing applies.
 *
 * @example
 * changedTitle('Send vaccine reminders by SMS', [], ['by email']); // 'Send vaccine reminders by email'
 */
export function changedTitle(
  title: string,
  substitutions: readonly Substitution[],
  qualifiers: readonly string[],
  additive = false,
): string {
  let changed = title;
  for (const substitution of substitutions) changed = substitute(changed, substitution);
  for (const qualifier of qualifiers) {
    if (changed.toLowerCase().includes(qualifier.toLowerCase())) continue;
    const key = keyOf(qualifier);
    // "Email staff …" by Slack: a channel verb gives way to the channel the change names.
    if (!additive && /^by\s+\S+$/i.test(qualifier) && CHANNELS.test(qualifier.slice(3)))
      changed = changed.replace(/^(?:email|e-mail|text|sms|message)\b/i, 'Notify');
    if (key.startsWith('num:')) {
      const renumbered = renumber(changed, qualifier, key.slice(4));
      if (renumbered) {
        changed = renumbered;
        continue;
      }
    }
    const segments = segmentsOf(changed, false);
    const same = segments.findIndex((segment, i) => i > 0 && keyOf(segment) === key);
    const [lead, ...words] = qualifier.split(' ');
    // "by label" and, too, "by assignee": "by label and assignee".
    if (same > 0 && additive && segments[same]!.split(' ')[0] === lead)
      segments[same] = `${segments[same]} and ${words.join(' ')}`;
    else if (same > 0 && !additive) segments[same] = qualifier;
    else {
      const clause = segments.findIndex(
        (segment, i) => i > 0 && SUBORDINATE.test(segment.split(' ')[0]!),
      );
      segments.splice(clause > 0 ? clause : segments.length, 0, qualifier);
    }
    changed = segments.join(' ');
  }
  return changed;
}
