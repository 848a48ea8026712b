import { describe, expect, it } from 'vitest';
import { applyAnswers } from './clarify.ts';
import type { ProjectDefinition } from './generation.ts';

const definition: ProjectDefinition = {
  name: 'SlotFlow',
  description: 'Booking for dog groomers.',
  type: 'web',
  questionnaire: {
    targetAudience: 'Dog groomers',
    monetization: 'Pricing is settled later',
    techStack: ['TypeScript'],
    platforms: ['Web'],
    coreFeatures: ['Book a slot online'],
    constraints: ['Works on a phone'],
    successMetrics: ['Half the bookings online'],
    assumptions: [
      'How people sign in to SlotFlow is not stated; they sign in with email and a one-time link',
      'How SlotFlow is paid for is not stated; pricing is settled after the first release',
      'The idea gives no volumes; the first release is sized for 1,000 groomers',
    ],
    openQuestions: ['Which SMS gateway account and plan will SlotFlow use? It sets the cost.'],
  },
};

describe('applyAnswers', () => {
  it('turns answered topics into facts and drops their assumptions', () => {
    const answered = applyAnswers(definition, [
      { question: 'sign-in', answer: 'Google Workspace single sign-on only' },
      { question: 'payment', answer: '$19 a month per groomer' },
      { question: 'platforms', answer: 'Web, iOS and Android' },
    ]);
    const q = answered.questionnaire;
    expect(q.constraints).toEqual([
      'Works on a phone',
      'Sign-in: Google Workspace single sign-on only',
    ]);
    expect(q.monetization).toBe('$19 a month per groomer');
    expect(q.platforms).toEqual(['Web', 'iOS', 'Android']);
    expect(q.assumptions).toEqual([
      'The idea gives no volumes; the first release is sized for 1,000 groomers',
    ]);
    // The input is not changed.
    expect(definition.questionnaire.assumptions).toHaveLength(3);
  });

  it('takes a question by its text, and closes that open question', () => {
    const q = applyAnswers(definition, [
      {
        question: 'Which SMS gateway account and plan will SlotFlow use?',
        answer: 'Twilio, pay as you go',
      },
    ]).questionnaire;
    expect(q.openQuestions).toEqual([]);
    expect(q.constraints.at(-1)).toBe(
      'Which SMS gateway account and plan will SlotFlow use: Twilio, pay as you go',
    );
  });

  it('changes nothing without answers or with blank ones', () => {
    expect(applyAnswers(definition, [])).toBe(definition);
    expect(applyAnswers(definition, [{ question: 'sign-in', answer: '  ' }]).questionnaire).toEqual(
      definition.questionnaire,
    );
  });
});
