/**
 * Answering a project's register later (issue 32, docs/clarify.md#answer-later): the open
 * questions `Q-n` and assumptions `A-n` of a completed project's brief, answered as a
 * revision that closes each answered entry and records it as a decision `D-n`.
 *
 * The entries keep their numbers: an entry is numbered by its place among the open ones of
 * the definition, skipping every number a decision closed, so closing `A-1` leaves `A-2`
 * as `A-2` and `A-1` is never given out again.
 */
import type { Decision, ProjectDefinition } from './generation.ts';

export type { Decision } from './generation.ts';

/** One entry of a project's register one may answer: `GET /projects/{id}/questions`. */
export interface ProjectQuestion {
  /** `Q-n` (an open question) or `A-n` (an assumption one may overrule). */
  id: string;
  kind: 'question' | 'assumption';
  question: string;
  /** Why the answer matters: what it changes in the documents. */
  why: string;
  options?: string[];
  /** The answer PGS suggests; for an assumption, the default the documents rest on. */
  recommended: string;
  /**
   * `true` when PGS knows no answer to suggest: `recommended` only says the entry stays
   * undecided, and accepting the recommendations leaves this entry open.
   */
  leaveOpen?: boolean;
}

/** The most answers one request takes, as at creation (`answers` of createProject). */
export const MAX_ANSWERS = 10;
/** The longest answer, in characters, as at creation. */
export const MAX_ANSWER_LENGTH = 1000;

type Questionnaire = ProjectDefinition['questionnaire'];

/**
 * The IDs the register's decisions closed: never open again, never given out again.
 *
 * @example
 * closedIds({ ...questionnaire, decisions: [{ id: 'D-1', answers: 'Q-2', … }] }); // Set { 'Q-2' }
 */
export function closedIds(questionnaire: Questionnaire): Set<string> {
  return new Set((questionnaire.decisions ?? []).map((decision) => decision.answers));
}

/**
 * The entries of a register list with their IDs: numbered 1, 2, 3… skipping the numbers
 * `closed` holds.
 *
 * @example
 * numberEntries(['Who sets it up; the owner'], 'A', new Set(['A-1'])); // [{ id: 'A-2', text: … }]
 */
export function numberEntries(
  entries: readonly string[],
  prefix: 'A' | 'Q',
  closed: ReadonlySet<string>,
): { id: string; text: string }[] {
  let n = 0;
  return entries.map((text) => {
    n++;
    while (closed.has(`${prefix}-${n}`)) n++;
    return { id: `${prefix}-${n}`, text };
  });
}

/** A question as a constraint's label: "How do people sign in?" → "How do people sign in". */
const label = (question: string) => question.trim().replace(/[?.!:;\s]+$/, '');

/**
 * The definition with the answers as decisions: each answered assumption or open question
 * leaves the definition's lists, a decision `D-n` records it (numbered after the decisions
 * already taken), and the answer joins the constraints as a fact (`Question: answer`), in the
 * client's words. An ID that is not an open entry of the definition (a model's brief may
 * number more entries than its definition lists) is still recorded as a decision.
 *
 * @example
 * answerRegister(definition, [{ id: 'Q-1', question: 'Which SMS provider?', answer: 'Twilio' }])
 *   .decisions; // [{ id: 'D-1', answers: 'Q-1', question: 'Which SMS provider?', answer: 'Twilio' }]
 */
export function answerRegister(
  definition: ProjectDefinition,
  answered: readonly { id: string; question: string; answer: string }[],
): { definition: ProjectDefinition; decisions: Decision[] } {
  const q = definition.questionnaire;
  const before = q.decisions ?? [];
  const closed = closedIds(q);
  const ids = new Set(answered.map((a) => a.id));
  const open = (entries: readonly string[] | undefined, prefix: 'A' | 'Q') =>
    entries === undefined
      ? undefined
      : numberEntries(entries, prefix, closed)
          .filter((entry) => !ids.has(entry.id))
          .map((entry) => entry.text);
  const decisions = answered
    .filter((a) => !closed.has(a.id))
    .map((a, i) => ({
      id: `D-${before.length + i + 1}`,
      answers: a.id,
      question: a.question,
      answer: a.answer.trim(),
    }));
  const constraints = [...q.constraints];
  for (const d of decisions) {
    const fact = `${label(d.question)}: ${d.answer}`;
    if (!constraints.includes(fact)) constraints.push(fact);
  }
  const assumptions = open(q.assumptions, 'A');
  const openQuestions = open(q.openQuestions, 'Q');
  const questionnaire: Questionnaire = {
    ...q,
    constraints,
    ...(assumptions === undefined ? {} : { assumptions }),
    ...(openQuestions === undefined ? {} : { openQuestions }),
    decisions: [...before, ...decisions],
  };
  return { definition: { ...definition, questionnaire }, decisions };
}

/**
 * The change request an answers revision carries: the answers as readable text, one line
 * each, as the revision's history and events show it.
 *
 * @example
 * answersChangeRequest([{ id: 'Q-1', question: 'Which SMS provider?', answer: 'Twilio' }]);
 * // 'Answers to the brief's open questions and assumptions:\n- Q-1 (Which SMS provider?): Twilio'
 */
export function answersChangeRequest(
  answered: readonly { id: string; question: string; answer: string }[],
): string {
  const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 159).trimEnd()}…` : text);
  return [
    "Answers to the brief's open questions and assumptions:",
    ...answered.map((a) => `- ${a.id} (${clip(label(a.question))}): ${a.answer.trim()}`),
  ].join('\n');
}
