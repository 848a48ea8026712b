import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pgs, ValidationError } from '../src/index.ts';
import { type RealServer, sharedRealServer } from './pgs-server.ts';

// ideas.clarify and projects.create's answers against the real server (issue 32): the
// questions come back as the contract says, and the answers reach the project's definition.

const IDEA = 'A booking tool for dog groomers with SMS reminders the day before';

describe('ideas.clarify and answers at creation, against the real server', () => {
  let server: RealServer;
  const pgs = () => new Pgs({ apiKey: server.apiKey, baseUrl: server.url });

  beforeAll(async () => {
    server = await sharedRealServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('returns at most five questions, each with a recommended answer, the same for the same idea', async () => {
    const questions = await pgs().ideas.clarify({ idea: IDEA });
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.length).toBeLessThanOrEqual(5);
    for (const q of questions) {
      expect(q).toEqual({
        id: expect.any(String),
        question: expect.stringMatching(/\?$/),
        why: expect.any(String),
        recommended: expect.any(String),
        ...(q.options !== undefined ? { options: expect.any(Array) } : {}),
      });
    }
    const ids = questions.map((q) => q.id);
    expect(ids).toContain('sign-in');
    // "for dog groomers" names the audience: not asked.
    expect(ids).not.toContain('audience');
    expect(await pgs().ideas.clarify({ idea: IDEA })).toEqual(questions);
  });

  it('sends the type, and drops members the route does not take', async () => {
    // A type the contract does not know comes back as the server's refusal of `type`.
    const bad = { idea: IDEA, type: 'desktop' as 'web' };
    const error = await pgs()
      .ideas.clarify(bad)
      .catch((e: unknown) => e);
    expect((error as ValidationError).invalidFields).toHaveProperty('type');
    // The route refuses unknown members (additionalProperties: false): the SDK sends none.
    const params = { idea: IDEA, type: 'web' as const, extra: 1 };
    expect((await pgs().ideas.clarify(params)).length).toBeGreaterThan(0);
  });

  it('throws a ValidationError naming the field for a bad idea', async () => {
    const error = await pgs()
      .ideas.clarify({ idea: 'short' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).invalidFields).toHaveProperty('idea');
  });

  it('creates a project whose definition takes the answers as facts', async () => {
    const client = pgs();
    const created = await client.projects.create({
      idea: IDEA,
      answers: [
        { question: 'sign-in', answer: 'Google Workspace single sign-on only' },
        { question: 'payment', answer: '19 dollars a month per groomer' },
      ],
    });
    const result = await client.projects.waitForCompletion(created.projectId, {
      pollIntervalMs: 200,
      maxWaitMs: 60_000,
    });
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    const q = result.project.questionnaire;
    expect(q.constraints).toContain('Sign-in: Google Workspace single sign-on only');
    expect(q.monetization).toBe('19 dollars a month per groomer');
  });
});
