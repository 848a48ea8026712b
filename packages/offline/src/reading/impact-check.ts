/**
 * The offline reading's tests applied to anyone's answer to a revision's impact step (issue 29,
 * item 4): a REMOVED delta must fall on a requirement that carries what the request removes.
 * "drop the emailed invoices" removes the requirement about invoices, never the neighbour that
 * only shares a word with it, and modifies a requirement that coordinates invoices with other
 * objects ("Track expenses and invoices" becomes "Track expenses"); a model that removed one
 * anyway is told which and why, once.
 * A MODIFIED or RENAMED delta must fall on a requirement the request names at all (any of its
 * phrases: what it removes, renames, changes, adds to or adds). Only what the reader reads is
 * judged: a request whose removals it cannot read gives no removal finding, one with a clause
 * it cannot read no change finding (the reader does not fault an answer for its blind spots).
 */
import { proseOf } from '@pgs/contract/document';
import type { RequirementDelta, RequirementRef } from '@pgs/contract/generation';
import { narrowedTitle } from './impact-groups.ts';
import { clausesOf, type Intent, intentOf } from './impact-read.ts';
import { headOf, sameStem, stemsOf, targetOf } from './impact-terms.ts';

/** The phrases a request's removal clauses name ("the medical records", each of a list). */
export function removalsOf(changeRequest: string): string[] {
  const phrases: string[] = [];
  for (const clause of clausesOf(proseOf(changeRequest))) {
    const intent = intentOf(clause);
    if (intent?.op !== 'removed') continue;
    phrases.push(intent.target, ...intent.target.split(/\s*,\s*(?:and\s+)?|\s+and\s+/));
  }
  return [...new Set(phrases.map((p) => p.trim()).filter((p) => stemsOf(p).length > 0))];
}

/** Whether a title carries a phrase: its head, as a stem, among the title's words. */
function carries(title: string, phrase: string): boolean {
  const titleStems = stemsOf(title);
  const head = headOf(phrase);
  const wanted = head.length > 0 ? head : stemsOf(phrase);
  return wanted.some((stem) => titleStems.some((other) => sameStem(stem, other)));
}

/**
 * What is wrong with an answer's REMOVED deltas, in words a model can act on: each one whose
 * requirement carries nothing the request removes. Empty when all are right, or when the
 * request has no removal the reader can read.
 *
 * @example
 * removalFindings('Drop the emailed invoices.', [{ id: 'FR-2', title: "Keep each dog's coat" }], deltas);
 * // ['FR-2 ("Keep each dog\'s coat") was removed, but the request removes only "the emailed invoices": …']
 */
export function removalFindings(
  changeRequest: string,
  requirements: readonly RequirementRef[],
  deltas: readonly RequirementDelta[],
): string[] {
  const removals = removalsOf(changeRequest);
  if (removals.length === 0) return [];
  const titles = new Map(requirements.map((r) => [r.id, r.title]));
  const findings: string[] = [];
  for (const delta of deltas) {
    if (delta.op !== 'removed') continue;
    const title = titles.get(delta.id) ?? delta.title;
    const named = removals.map((p) => `"${p}"`).join(', ');
    if (removals.some((phrase) => carries(title, phrase))) {
      // One object of a coordination goes, the rest stays (impact-groups.ts).
      const rest = narrowedTitle(title, removals);
      if (rest)
        findings.push(
          `${delta.id} ("${title}") was removed, but the request removes only ${named}, part of what it holds: modify it to "${rest}" instead, keeping the rest of it and every other requirement unchanged`,
        );
      continue;
    }
    findings.push(
      `${delta.id} ("${title}") was removed, but the request removes only ${named}: remove only the requirement that carries it, and keep every other requirement unchanged`,
    );
  }
  return findings;
}

/** The phrases one intent names a requirement by: its targets, anchors and what it adds to. */
function phrasesOf(intent: Intent): string[] {
  switch (intent.op) {
    case 'removed':
      return [intent.target, ...intent.target.split(/\s*,\s*(?:and\s+)?|\s+and\s+/)];
    case 'renamed':
      return intent.candidates.map(([from]) => from);
    case 'modified':
      return [
        intent.target,
        ...intent.substitutions.map((s) => s.from),
        ...(intent.otherwise ? phrasesOf(intent.otherwise) : []),
      ];
    case 'should':
      return [intent.subject, intent.predicate];
    case 'extend':
      return [intent.onto, intent.addition];
    case 'noun':
      return [intent.object];
    case 'verb':
      return [intent.phrase];
  }
}

/**
 * Every phrase a request names a requirement by, each of its clauses read; undefined when a
 * clause is no instruction the reader knows (it may name anything).
 *
 * @example
 * namedPhrasesOf('Use email instead of SMS for the reminders.'); // [..., 'SMS']
 */
export function namedPhrasesOf(changeRequest: string): string[] | undefined {
  const phrases: string[] = [];
  for (const clause of clausesOf(proseOf(changeRequest))) {
    const intent = intentOf(clause);
    if (!intent) return undefined;
    phrases.push(...phrasesOf(intent));
  }
  return [...new Set(phrases.map((p) => p.trim()).filter((p) => stemsOf(p, true).length > 0))];
}

/**
 * What is wrong with an answer's MODIFIED and RENAMED deltas, in words a model can act on: each
 * one whose requirement the request does not name, by the reader's own test (the requirement
 * carries the head of one of its phrases, or the reader matches a phrase to it). Empty when all
 * are right, or when the reader cannot read every clause of the request.
 *
 * @example
 * changeFindings('Rename the invoices to bills.', [{ id: 'FR-2', title: "Keep each dog's coat" }], deltas);
 * // ['FR-2 ("Keep each dog\'s coat") was modified, but the request names only "the invoices": …']
 */
export function changeFindings(
  changeRequest: string,
  requirements: readonly RequirementRef[],
  deltas: readonly RequirementDelta[],
): string[] {
  const changing = deltas.filter((d) => d.op === 'modified' || d.op === 'renamed');
  if (changing.length === 0) return [];
  const phrases = namedPhrasesOf(changeRequest);
  if (phrases === undefined || phrases.length === 0) return [];
  const titles = new Map(requirements.map((r) => [r.id, r.title]));
  const matched = new Set(phrases.map((p) => targetOf(p, requirements)?.id));
  const findings: string[] = [];
  for (const delta of changing) {
    const title = titles.get(delta.id) ?? (delta.op === 'renamed' ? delta.from : delta.title);
    if (matched.has(delta.id) || phrases.some((phrase) => carries(title, phrase))) continue;
    const named = phrases.map((p) => `"${p}"`).join(', ');
    findings.push(
      `${delta.id} ("${title}") was ${delta.op}, but the request names only ${named}: change only the requirements it names, and keep every other requirement unchanged`,
    );
  }
  return findings;
}
