/**
 * The offline answer to a revision's impact step: a change request read, clause by clause, into
 * requirement deltas (docs/revisions.md). Deterministic: the same request and requirements always
 * give the same deltas.
 *
 * Clauses. The request is cut at ";", full stops, newlines, and at ", " / " and " / " but "
 * (with an optional "also" or "then" after) where both sides are instructions of their own
 * ("add SMS reminders …; drop the medical records" is two; "drop the medical records and the
 * vaccine reminders" is one clause with two targets).
 *
 * Verbs, first match wins:
 * - RENAMED: "rename X to Y", "call X Y", "X should be called Y", "change the name of X to Y".
 *   From is the target's title; to is Y when Y reads as a feature of its own ("Schedule visits
 *   online") or X is no part of the title, else the title with its part X replaced by Y ("rename
 *   the medical records to health records": "Keep health records for each pet").
 * - REMOVED: drop, remove, delete, cut, scrap, ditch, stop, disable, get rid of, "no longer",
 *   "don't need", "is not needed", "without". Coordinated targets each go when each names a
 *   different requirement. The reason quotes the clause. A target that is one object of a
 *   coordinated requirement ("the invoices" of "Track expenses and invoices") MODIFIES it to
 *   the rest ("Track expenses"); every object of it removes it (impact-groups.ts).
 * - ADDED: add, include, introduce, provide, support, offer, enable, allow, let, "we need",
 *   "there should be", "people should (be able to) …", "X should also <new action>", and a bare
 *   imperative ("Export runs as GPX files"; one with a requirement's own verb and object and a
 *   new qualifier modifies it: "Publish schedules two weeks in advance"). The title is a core feature in the request's words, every qualifier kept: a noun
 *   takes the verb its head calls for (reminders are sent, an upload uploads, a list is kept, a
 *   dashboard shown, anything else offered); "let owners cancel …" is "Cancel …" for owners.
 *   An addition to an existing requirement ("add photo upload to the medical records": a noun
 *   phrase added "to/into/in/on" a phrase that names a requirement) is that requirement
 *   MODIFIED, its title extended "with photo upload"; a new capability on the same thing ("let
 *   runners export runs") is ADDED. An addition whose title an existing requirement already has
 *   gives nothing.
 * - MODIFIED: change, modify, update, replace, switch, adjust, make, "instead", and "X should …"
 *   where X names a requirement (with "also" or "too" only when the action stays the title's:
 *   "issues should be searchable by assignee too"). The new title is the target's with the
 *   request's substitutions ("email instead of SMS", "from 16 to 20 weeks", "replace SMS with
 *   email") and qualifiers ("by email" in place of "by SMS", or "by SMS and email" when the change
 *   is additive; "two days before …" added); nothing applies, nothing is said.
 *
 * Targets are matched on word stems (impact-terms.ts): the requirement sharing most content
 * stems with the clause, whose title holds the head of the clause's object; none, or a tie, and
 * the clause gives nothing. No two deltas share an ID; deltas follow the clauses' order.
 */

import { clauseKey, inertText, proseOf } from '@pgs/contract/document';
import type { ImpactContext, RequirementDelta, RequirementRef } from '@pgs/contract/generation';
import { capitalize, decapitalize } from '../text/words.ts';
import { narrowedTitle } from './impact-groups.ts';
import { changedTitle, clean, nounFeature, qualifiersOf, statementOf } from './impact-phrases.ts';
import { clausesOf, type Intent, intentOf, modify, peopleIn } from './impact-read.ts';
import { headOf, sameStem, stemsOf, targetOf } from './impact-terms.ts';
import { canBeVerb, rawTokens } from './reading-tokens.ts';

/** What resolving a clause needs: the project's name, the requirements, the IDs taken, the next new number. */
interface Ledger {
  name: string;
  requirements: readonly RequirementRef[];
  taken: Set<string>;
  next: number;
  /** The titles added so far (clauseKey): a clause repeated adds one requirement. */
  added: Set<string>;
}

type Delta = RequirementDelta;

function removed(clause: string, intent: Extract<Intent, { op: 'removed' }>, l: Ledger): Delta[] {
  const reason = `Removed by the change request: "${clause.trim().replace(/[\s,.;:!?]+$/, '')}".`;
  // One object of a coordination ("the invoices" of "Track expenses and invoices") modifies it:
  // the rest stays (impact-groups.ts); every object, or none told apart, removes it.
  const one = (target: RequirementRef, phrases: readonly string[]): Delta => {
    const title = narrowedTitle(target.title, phrases);
    return title
      ? { op: 'modified', id: target.id, title, text: statementOf(l.name, title) }
      : { op: 'removed', id: target.id, title: target.title, reason };
  };
  // "the medical records and the vaccine reminders": each part its own requirement, or the whole.
  const parts = intent.target.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).filter(Boolean);
  if (parts.length > 1) {
    const targets = parts.map((part) => targetOf(part, l.requirements));
    const ids = new Set(targets.map((target) => target?.id));
    if (targets.every(Boolean) && ids.size === parts.length)
      return targets.map((target, i) => one(target!, [parts[i]!]));
  }
  const target = targetOf(intent.target, l.requirements);
  // The whole phrase too: "collect and prioritize feedback" names both members.
  return target ? [one(target, parts.length > 1 ? [intent.target, ...parts] : parts)] : [];
}

function renamed(intent: Extract<Intent, { op: 'renamed' }>, l: Ledger): Delta[] {
  // "rename X to Y" and "call X Y" may split several ways: a whole title first, then the
  // longest X that names a requirement.
  const exact = intent.candidates.find(([from]) =>
    l.requirements.some((r) => r.title.toLowerCase() === clean(from).toLowerCase()),
  );
  for (const [from, to] of exact ? [exact] : intent.candidates) {
    const target = targetOf(from, l.requirements);
    const name = clean(to);
    if (!target || name === '') continue;
    const part = clean(from).replace(/^(?:the|a|an)\s+/i, '');
    const within = new RegExp(`\\b${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
    // A new name that is a feature of its own replaces the title; a noun replaces its part,
    // as written or in the title's own form ("the ingredient stock" of "… ingredient stocks").
    const feature = name.includes(' ') && canBeVerb(name.split(' ')[0]!);
    const span = feature ? undefined : spanOf(target.title, part);
    const title = feature
      ? capitalize(name)
      : within.test(target.title)
        ? target.title.replace(within, decapitalize(name))
        : span
          ? `${span[0]}${decapitalize(name)}${span[1]}`
          : capitalize(name);
    if (title === target.title) return [];
    return [{ op: 'renamed', id: target.id, from: target.title, to: title }];
  }
  return [];
}

/**
 * Where a title names a phrase in its own forms: the words around the title's run of words
 * that share the phrase's stems and end on its head ("Track ingredient stocks by batch" of
 * "the ingredient stock": "Track " and " by batch"); undefined when the title has no head.
 */
function spanOf(title: string, phrase: string): [before: string, after: string] | undefined {
  const head = headOf(phrase);
  const stems = stemsOf(phrase, true);
  const words = title.split(' ');
  const shares = (word: string, list: readonly string[]) =>
    stemsOf(word, true).some((stem) => list.some((other) => sameStem(stem, other)));
  const end = words.findIndex((word, i) => i > 0 && shares(word, head));
  if (end < 0) return undefined;
  let start = end;
  while (start > 1 && shares(words[start - 1]!, stems)) start--;
  const before = words.slice(0, start).join(' ');
  const after = words.slice(end + 1).join(' ');
  return [`${before} `, after ? ` ${after}` : ''];
}

function modified(intent: Extract<Intent, { op: 'modified' }>, l: Ledger): Delta[] {
  const anchors = intent.substitutions.map((s) => s.from);
  const target = targetOf(intent.target, l.requirements, anchors, intent.head);
  if (!target) return [];
  // A substitution says exactly what changes; the qualifiers only when none applies.
  let title = changedTitle(target.title, intent.substitutions, []);
  if (title === target.title)
    title = changedTitle(target.title, [], intent.qualifiers, intent.additive === true);
  if (title === target.title) return [];
  return [{ op: 'modified', id: target.id, title, text: statementOf(l.name, title) }];
}

function added(title: string, l: Ledger, people?: string): Delta[] {
  const feature = capitalize(clean(title));
  // A feature needs a word of its own beyond its verb ("add (((" adds nothing).
  if (stemsOf(feature.replace(/^\S+/, '')).length === 0) return [];
  const key = clauseKey(feature);
  if (l.added.has(key) || l.requirements.some((r) => clauseKey(r.title) === key)) return [];
  l.added.add(key);
  const id = `FR-${l.next++}`;
  return [{ op: 'added', id, title: feature, text: statementOf(l.name, feature, people) }];
}

/** A subject that is the product itself, or us: "the app should also …". */
function isProduct(subject: string, name: string): boolean {
  return (
    stemsOf(subject).length === 0 ||
    subject.toLowerCase().replace(/^the\s+/, '') === name.toLowerCase()
  );
}

/** Whether a predicate's verb is the title's own ("be searchable" of "Search issues …"). */
function sameAction(predicate: string, title: string): boolean {
  const [verb] = rawTokens(predicate.replace(/^be\s+/i, ''));
  if (!verb) return false;
  const titleStems = stemsOf(title);
  const stems = [...stemsOf(verb.text), ...stemsOf(verb.lemma)];
  return stems.some((stem) => titleStems.some((other) => sameStem(stem, other)));
}

/**
 * A bare imperative with a requirement's own verb and object and a new qualifier changes it
 * ("Publish schedules two weeks in advance" of "Publish weekly shift schedules").
 */
function sameFeature(phrase: string, l: Ledger): Delta[] {
  const target = targetOf(phrase, l.requirements);
  const verb = (text: string) => stemsOf(text.split(' ')[0] ?? '');
  const [mine] = verb(phrase);
  if (!target || !mine || !verb(target.title).some((stem) => sameStem(stem, mine))) return [];
  const change = modify(phrase, [], qualifiersOf(phrase), headOf(phrase));
  return modified(change, { ...l, requirements: [target] });
}

/**
 * "X should …": what people should do is a capability (ADDED); a thing that names a requirement
 * changes it (MODIFIED, "also"/"too" adding to the qualifier it replaces otherwise), unless
 * "also" gives it a new action ("runs should also sync to Strava" is ADDED).
 */
function should(intent: Extract<Intent, { op: 'should' }>, l: Ledger): Delta[] {
  const predicate = intent.predicate.replace(/^(?:also\s+)?(?:be\s+able\s+to\s+)?/i, '');
  const people = peopleIn(intent.subject);
  if (people) return added(predicate, l, people);
  if (isProduct(intent.subject, l.name)) return added(predicate, l);
  const target = targetOf(intent.subject, l.requirements);
  const qualifiers = qualifiersOf(predicate);
  if (target && qualifiers.length > 0 && (!intent.also || sameAction(predicate, target.title))) {
    const head = headOf(intent.subject);
    const change: Intent = {
      ...modify(intent.subject, [], qualifiers, head),
      additive: intent.also,
    };
    return modified(change, { ...l, requirements: [target] });
  }
  if (target && !intent.also) return [];
  const subject = decapitalize(clean(intent.subject).replace(/^the\s+/i, ''));
  // "runs should also be exported to Strava": the passive's verb, then the subject.
  const passive = /^be\s+(\S+)\s*(.*)$/i.exec(predicate);
  const [verb, rest] = passive
    ? [rawTokens(`they ${passive[1]}`)[1]?.lemma ?? passive[1]!, passive[2]!]
    : [predicate.split(' ')[0]!, predicate.split(' ').slice(1).join(' ')];
  const joins = rest === '' || qualifiersOf(rest).join(' ') === rest;
  return added(joins ? `${verb} ${subject} ${rest}` : `${verb} ${rest} for ${subject}`, l);
}

function resolve(clause: string, intent: Intent, l: Ledger): Delta[] {
  switch (intent.op) {
    case 'removed':
      return removed(clause, intent, l);
    case 'renamed':
      return renamed(intent, l);
    case 'modified': {
      const change = modified(intent, l);
      if (change.length > 0 || !intent.otherwise) return change;
      return resolve(clause, intent.otherwise, l);
    }
    case 'should':
      return should(intent, l);
    case 'extend': {
      const target = targetOf(intent.onto, l.requirements);
      if (!target) return added(nounFeature(intent.whole), l);
      if (stemsOf(intent.addition).length === 0) return [];
      const addition = decapitalize(clean(intent.addition)).replace(
        /^(?:a|an|the)\s+(?=\S+\s)/,
        '',
      );
      const title = `${target.title} with ${addition}`;
      return [{ op: 'modified', id: target.id, title, text: statementOf(l.name, title) }];
    }
    case 'noun':
      return added(intent.verb ? `${intent.verb} ${intent.object}` : nounFeature(intent.object), l);
    case 'verb': {
      const change = intent.bare ? sameFeature(intent.phrase, l) : [];
      return change.length > 0 ? change : added(intent.phrase, l, intent.people);
    }
  }
}

/**
 * The deltas a change request makes to the requirements of the revision it changes.
 *
 * @example
 * readImpact({
 *   task: 'impact', idea, definition, nextNumber: 4,
 *   requirements: [{ id: 'FR-2', title: 'Keep medical records for each pet' }, …],
 *   changeRequest: 'add SMS reminders two days before each appointment; drop the medical records',
 * });
 * // [{ op: 'added', id: 'FR-4', title: 'Send SMS reminders two days before each appointment', … },
 * //  { op: 'removed', id: 'FR-2', title: 'Keep medical records for each pet', … }]
 */
export function readImpact(context: ImpactContext): RequirementDelta[] {
  const ledger: Ledger = {
    name: context.definition.name,
    requirements: context.requirements,
    taken: new Set(),
    next: context.nextNumber,
    added: new Set(),
  };
  const deltas: RequirementDelta[] = [];
  // Code in a request is an example, never an instruction (user-text.ts).
  for (const clause of clausesOf(proseOf(context.changeRequest))) {
    const intent = intentOf(clause);
    if (!intent) continue;
    const found = resolve(clause, intent, ledger);
    // A requirement already changed by an earlier clause is not changed again.
    for (const delta of found) {
      if (ledger.taken.has(delta.id)) continue;
      ledger.taken.add(delta.id);
      deltas.push(inertDelta(delta));
    }
  }
  return deltas;
}

/**
 * A delta whose words taken from the request are safe in a document (the changelog's); the
 * titles it names as they stand are the register's own and stay as they are.
 */
function inertDelta(delta: Delta): Delta {
  switch (delta.op) {
    case 'added':
    case 'modified':
      return { ...delta, title: inertText(delta.title), text: inertText(delta.text) };
    case 'removed':
      return { ...delta, reason: inertText(delta.reason) };
    case 'renamed':
      return { ...delta, to: inertText(delta.to) };
  }
}
