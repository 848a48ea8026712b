import { applyAnswers } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import { clarifyIdea, defineProject } from '../index.ts';

describe('clarifyIdea', () => {
  it('recommends what the engine would assume, so an unanswered question changes nothing', () => {
    const idea = 'A booking tool for dog groomers with SMS reminders the day before';
    const questions = clarifyIdea({ idea });
    const definition = defineProject({ idea });
    const signIn = questions.find((q) => q.id === 'sign-in');
    expect(signIn?.recommended).toBeDefined();
    expect(
      definition.questionnaire.assumptions?.some((a) =>
        a.toLowerCase().includes(signIn!.recommended.toLowerCase()),
      ),
    ).toBe(true);
  });

  it('never asks again what an answer settled', () => {
    const idea = 'A habit tracker for remote teams';
    const asked = clarifyIdea({ idea });
    const answered = applyAnswers(
      defineProject({ idea }),
      asked.map((q) => ({ question: q.id, answer: `our answer on ${q.id}` })),
    );
    const left = answered.questionnaire.assumptions ?? [];
    for (const q of asked) expect(left.join('\n')).not.toContain(q.recommended);
  });

  it('asks at most five questions', () => {
    expect(clarifyIdea({ idea: 'An app' }).length).toBeLessThanOrEqual(5);
  });
});
