import { applyAnswers } from '@pgs/contract';
import { describe, expect, it } from 'vitest';
import { clarifyIdea, defineProject } from '../index.ts';
import { clarifyQuestions } from './questions.ts';

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

  it('asks which services it works with when the idea names or implies some, and only then', () => {
    const named = clarifyIdea({
      idea: 'A web app for dog groomers to send booking reminders through Twilio',
    }).find((q) => q.id === 'integrations');
    expect(named?.question).toMatch(/^Which other services must \w+ work with/);
    expect(named?.recommended).toMatch(/Twilio/);
    const implied = clarifyIdea({
      idea: 'A web app for dog groomers that syncs bookings with their calendars',
    }).find((q) => q.id === 'integrations');
    expect(implied?.recommended).toBe('None in the first release');
    expect(
      clarifyIdea({ idea: 'A web app for dog groomers to keep notes' }).map((q) => q.id),
    ).not.toContain('integrations');
  });

  it('never recommends a compliance regime as a service: it is the compliance question', () => {
    const idea =
      'A HIPAA-compliant patient portal for physiotherapy clinics that syncs appointments with Google Calendar';
    const questions = clarifyIdea({ idea });
    const integrations = questions.find((q) => q.id === 'integrations');
    expect(integrations?.recommended ?? '').not.toMatch(/HIPAA/);
    // A definition that lists one (a model's) is read the same way.
    const definition = defineProject({ idea });
    const listed = {
      ...definition,
      questionnaire: {
        ...definition.questionnaire,
        integrations: [
          { name: 'HIPAA', purpose: 'compliance' },
          { name: 'Epic', purpose: 'read appointments' },
        ],
      },
    };
    const recommended = clarifyQuestions(idea, listed).find((q) => q.id === 'integrations');
    expect(recommended?.recommended).toBe('Only Epic, as the idea names it');
  });

  it('asks at most five questions', () => {
    expect(clarifyIdea({ idea: 'An app' }).length).toBeLessThanOrEqual(5);
  });
});
