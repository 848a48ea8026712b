import type { ClarifyingAnswer, ClarifyingQuestion } from '@pgs/client';

/** An answer's longest length the API takes (`ClarifyAnswer.answer`). */
export const ANSWER_MAX = 1_000;

/**
 * The answers a form starts with: each question's recommended answer, by question id.
 *
 * @example
 * initialAnswers([{ id: 'sign-in', recommended: 'Email and a one-time link', … }]);
 * // { 'sign-in': 'Email and a one-time link' }
 */
export function initialAnswers(
  questions: readonly Pick<ClarifyingQuestion, 'id' | 'recommended'>[],
): Record<string, string> {
  return Object.fromEntries(questions.map((question) => [question.id, question.recommended]));
}

/**
 * What the project is created with: one `{ question, answer }` per question whose answer is
 * not empty, in the questions' order, each on one line (the API takes one line). A question
 * left empty is not sent: PGS then assumes its recommended answer and says so in the brief.
 *
 * @example
 * answersToSend(questions, { 'sign-in': ' Google single sign-on ' });
 * // [{ question: 'sign-in', answer: 'Google single sign-on' }]
 */
export function answersToSend(
  questions: readonly Pick<ClarifyingQuestion, 'id'>[],
  answers: Readonly<Record<string, string>>,
): ClarifyingAnswer[] {
  return questions.flatMap((question) => {
    const answer = oneLine(answers[question.id] ?? '');
    return answer === '' ? [] : [{ question: question.id, answer }];
  });
}

// Control and direction characters the contract refuses in a one-line answer.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed.
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]+/gu;

/**
 * Text on one line: line breaks, other control characters and direction marks become spaces,
 * runs of spaces one, the ends trimmed, at most `max` characters.
 *
 * @example
 * oneLine('Email\nand password'); // 'Email and password'
 */
export function oneLine(text: string, max = ANSWER_MAX): string {
  return text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim().slice(0, max).trimEnd();
}
