import { oneLine } from './clarify.ts';

/**
 * An open question or an assumption one may overrule, as `GET …/questions` lists it
 * (docs/clarify.md, "Answer later").
 */
export interface ProjectQuestion {
  /** `Q-1` for an open question, `A-3` for an assumption. */
  id: string;
  kind: 'question' | 'assumption';
  question: string;
  why: string;
  options?: string[] | undefined;
  recommended: string;
}

/**
 * The line above a question: what it is and its ID.
 *
 * @example
 * questionLabel({ id: 'A-3', kind: 'assumption' }); // 'Assumption A-3'
 */
export function questionLabel(question: Pick<ProjectQuestion, 'id' | 'kind'>): string {
  return `${question.kind === 'question' ? 'Open question' : 'Assumption'} ${question.id}`;
}

/**
 * The questions in one sentence.
 *
 * @example
 * questionsSummary([{ kind: 'question' }, { kind: 'assumption' }]);
 * // '1 open question and 1 assumption you may overrule.'
 */
export function questionsSummary(questions: readonly Pick<ProjectQuestion, 'kind'>[]): string {
  const open = questions.filter((question) => question.kind === 'question').length;
  const assumed = questions.length - open;
  if (questions.length === 0) {
    return 'Nothing is open: every question is answered and no assumption is left to overrule.';
  }
  const parts = [
    open > 0 ? `${open} open ${open === 1 ? 'question' : 'questions'}` : '',
    assumed > 0
      ? `${assumed} ${assumed === 1 ? 'assumption' : 'assumptions'} you may overrule`
      : '',
  ].filter((part) => part !== '');
  return `${parts.join(' and ')}.`;
}

/**
 * The body of `POST …/answers`: the answers given, by ID, one line each; a question left
 * empty stays open (an assumption stays as assumed).
 *
 * @example
 * answersBody(questions, { 'Q-1': 'Stripe', 'A-3': '' }); // { answers: { 'Q-1': 'Stripe' } }
 */
export function answersBody(
  questions: readonly Pick<ProjectQuestion, 'id'>[],
  answers: Readonly<Record<string, string>>,
): { answers: Record<string, string> } {
  const given: Record<string, string> = {};
  for (const question of questions) {
    const answer = oneLine(answers[question.id] ?? '');
    if (answer !== '') given[question.id] = answer;
  }
  return { answers: given };
}
