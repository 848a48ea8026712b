import { describe, expect, it } from 'vitest';
import { answersBody, questionLabel, questionsSummary } from './questions.ts';

describe("a project's questions", () => {
  it('labels each by what it is', () => {
    expect(questionLabel({ id: 'Q-1', kind: 'question' })).toBe('Open question Q-1');
    expect(questionLabel({ id: 'A-3', kind: 'assumption' })).toBe('Assumption A-3');
  });

  it('counts them in a sentence', () => {
    const q = { kind: 'question' as const };
    const a = { kind: 'assumption' as const };
    expect(questionsSummary([q, a, a])).toBe('1 open question and 2 assumptions you may overrule.');
    expect(questionsSummary([q, q])).toBe('2 open questions.');
    expect(questionsSummary([a])).toBe('1 assumption you may overrule.');
    expect(questionsSummary([])).toBe(
      'Nothing is open: every question is answered and no assumption is left to overrule.',
    );
  });

  it('sends the answers given by ID, one line each, leaving the empty ones open', () => {
    const questions = [{ id: 'Q-1' }, { id: 'A-3' }, { id: 'Q-2' }];
    expect(answersBody(questions, { 'Q-1': ' Stripe\n', 'A-3': '  ', 'Q-9': 'not asked' })).toEqual(
      { answers: { 'Q-1': 'Stripe' } },
    );
  });
});
