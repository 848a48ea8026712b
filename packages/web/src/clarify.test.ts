import { describe, expect, it } from 'vitest';
import { ANSWER_MAX, answersToSend, initialAnswers, oneLine } from './clarify.ts';

const questions = [
  { id: 'sign-in', recommended: 'Email and a one-time link' },
  { id: 'payment', recommended: 'Free' },
  { id: 'compliance', recommended: 'None beyond GDPR' },
];

describe('answers to clarifying questions', () => {
  it('start as the recommended answers', () => {
    expect(initialAnswers(questions)).toEqual({
      'sign-in': 'Email and a one-time link',
      payment: 'Free',
      compliance: 'None beyond GDPR',
    });
  });

  it('are sent in the questions order, one line each, the empty ones left out', () => {
    expect(
      answersToSend(questions, {
        compliance: 'HIPAA',
        payment: '   ',
        'sign-in': ' Google\nsingle sign-on ',
        other: 'not asked',
      }),
    ).toEqual([
      { question: 'sign-in', answer: 'Google single sign-on' },
      { question: 'compliance', answer: 'HIPAA' },
    ]);
  });

  it('never carry what the API refuses in one line, nor more than it takes', () => {
    expect(oneLine('a\u202Eb\u0007c\td')).toBe('a b c d');
    expect(oneLine('x'.repeat(ANSWER_MAX + 5))).toHaveLength(ANSWER_MAX);
    expect(oneLine(`${'x'.repeat(ANSWER_MAX - 1)} y`)).toHaveLength(ANSWER_MAX - 1);
  });
});
