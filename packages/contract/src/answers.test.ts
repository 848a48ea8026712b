import { describe, expect, it } from 'vitest';
import { answerRegister, answersChangeRequest, closedIds, numberEntries } from './answers.ts';
import { parseDocument } from './document/parse.ts';
import { registerItems } from './document/register.ts';
import type { ProjectDefinition } from './generation.ts';

const definition: ProjectDefinition = {
  name: 'BookingFlow',
  description: 'Bookings for dog groomers.',
  type: 'web',
  questionnaire: {
    targetAudience: 'Dog groomers',
    monetization: 'Not stated',
    techStack: [],
    platforms: ['Web'],
    coreFeatures: ['Book appointments'],
    constraints: [],
    successMetrics: [],
    assumptions: ['Who sets it up is not stated; the owner', 'Volumes; one salon'],
    openQuestions: ['Which SMS provider? It decides the costs.', 'How do people pay?'],
  },
};

describe('answering the register', () => {
  it('closes each answered entry as a decision, and the others keep their numbers', () => {
    const first = answerRegister(definition, [
      { id: 'Q-1', question: 'Which SMS provider?', answer: ' Twilio ' },
      { id: 'A-1', question: 'Who sets it up', answer: 'The salon manager' },
    ]);
    expect(first.decisions).toEqual([
      { id: 'D-1', answers: 'Q-1', question: 'Which SMS provider?', answer: 'Twilio' },
      { id: 'D-2', answers: 'A-1', question: 'Who sets it up', answer: 'The salon manager' },
    ]);
    const q = first.definition.questionnaire;
    expect(q.openQuestions).toEqual(['How do people pay?']);
    expect(q.constraints).toEqual([
      'Which SMS provider: Twilio',
      'Who sets it up: The salon manager',
    ]);
    const closed = closedIds(q);
    expect(numberEntries(q.openQuestions!, 'Q', closed)).toEqual([
      { id: 'Q-2', text: 'How do people pay?' },
    ]);
    expect(numberEntries(q.assumptions!, 'A', closed).map((e) => e.id)).toEqual(['A-2']);

    // A second round numbers its decisions on, and closes by the IDs as they stand.
    const second = answerRegister(first.definition, [
      { id: 'Q-2', question: 'How do people pay?', answer: 'By card' },
    ]);
    expect(second.decisions.map((d) => [d.id, d.answers])).toEqual([['D-3', 'Q-2']]);
    expect(second.definition.questionnaire.openQuestions).toEqual([]);
    expect(second.definition.questionnaire.assumptions).toEqual(['Volumes; one salon']);
  });

  it('writes the answers as a readable change request', () => {
    expect(
      answersChangeRequest([{ id: 'Q-1', question: 'Which SMS provider?', answer: 'Twilio' }]),
    ).toBe(
      "Answers to the brief's open questions and assumptions:\n- Q-1 (Which SMS provider): Twilio",
    );
  });

  it("reads a brief's assumptions and questions from its tree, columns by their headers", () => {
    const brief = [
      '# Brief',
      '## Assumptions and open questions',
      '### Assumptions',
      '| ID | Assumption | Default chosen |',
      '| --- | --- | --- |',
      '| A-2 | Who sets it up | The owner |',
      '### Open questions',
      '| ID | Question | Impact | Affects |',
      '| --- | --- | --- | --- |',
      '| Q-1 | Which SMS provider? | It decides the costs | Reminders |',
      '- R-1 A risk, not an entry one answers',
    ].join('\n');
    expect(registerItems(parseDocument(brief, { filename: 'PROJECT_BRIEF.md' }))).toEqual([
      { id: 'A-2', kind: 'assumption', text: 'Who sets it up', default: 'The owner' },
      {
        id: 'Q-1',
        kind: 'question',
        text: 'Which SMS provider?',
        impact: 'It decides the costs',
        affects: 'Reminders',
      },
    ]);
  });
});
