import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { creation } from './helpers/creation.ts';
import { bearer, harnessFor } from './helpers/harness.ts';

/**
 * Issue 32, item 1: POST /ideas/clarify through the real app (every answer checked against
 * the contract by the harness): what an idea leaves open, nothing stored, no credits.
 */
describe('POST /api/v1/ideas/clarify', () => {
  const harness = harnessFor('pglite', {
    rules: { clarify: { name: 'clarify', points: 3, durationSec: 60, window: '1 minute' } },
  });
  const ask = (key: CreatedKey, body: unknown) =>
    harness().request({
      method: 'POST',
      url: '/api/v1/ideas/clarify',
      headers: bearer(key.key),
      payload: body as Record<string, unknown>,
    });

  it('asks at most five questions, most consequential first, each with a recommended answer, and costs nothing', async () => {
    const key = await harness().createKey('test');
    const before = await harness().credits(key);
    const res = await ask(key, { idea: 'A habit tracker for remote teams' });
    expect(res.statusCode).toBe(200);
    const { questions } = res.json().data as {
      questions: { id: string; question: string; why: string; recommended: string }[];
    };
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.length).toBeLessThanOrEqual(5);
    // Sign-in changes more documents than payment, payment more than volumes.
    const order = questions.map((q) => q.id);
    expect(order.indexOf('sign-in')).toBeLessThan(order.indexOf('payment'));
    expect(order.indexOf('payment')).toBeLessThan(order.indexOf('volumes'));
    for (const q of questions) {
      expect(q.question).toMatch(/\?$/);
      expect(q.recommended.length).toBeGreaterThan(0);
      expect(q.why.length).toBeGreaterThan(0);
    }
    // The idea names its audience ("for remote teams"): not asked.
    expect(order).not.toContain('audience');
    expect(await harness().credits(key)).toEqual(before);
    const listed = await harness().request({
      method: 'GET',
      url: '/api/v1/projects',
      headers: bearer(key.key),
    });
    expect(listed.json().data).toEqual([]);
  });

  it('does not ask about what the idea settles itself', async () => {
    const key = await harness().createKey('test');
    const res = await ask(key, {
      idea: 'A HIPAA-compliant iOS app for physiotherapists to send exercise plans to patients',
    });
    const ids = (res.json().data.questions as { id: string }[]).map((q) => q.id);
    expect(ids).not.toContain('compliance');
    expect(ids).not.toContain('platforms');
    expect(ids).not.toContain('audience');
  });

  it('answers the same questions to the same idea', async () => {
    const key = await harness().createKey('live');
    const idea = 'An MCP server that lets Claude query our Postgres warehouse read-only';
    const first = await ask(key, { idea, type: 'mcp' });
    const second = await ask(key, { idea, type: 'mcp' });
    expect(first.json().data).toEqual(second.json().data);
  });

  it('refuses bad input in the envelope, naming the field', async () => {
    for (const body of [
      {},
      { idea: 'short' },
      { idea: 'A long enough idea', type: 'desktop' },
      { idea: 'A long enough idea', extra: 1 },
    ]) {
      const res = await ask(await harness().createKey('test'), body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(res.json().error.request_id).toEqual(expect.any(String));
    }
  });

  it('needs a key, and limits each key', async () => {
    const anonymous = await harness().request({
      method: 'POST',
      url: '/api/v1/ideas/clarify',
      payload: { idea: 'A habit tracker for remote teams' },
    });
    expect(anonymous.statusCode).toBe(401);
    const key = await harness().createKey('test');
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await ask(key, { idea: 'A habit tracker for remote teams' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

/** Issue 32, item 1: `answers` on POST /projects are facts of the definition and the documents. */
describe('answers given at creation', () => {
  const harness = harnessFor('pglite', { generation: 'workers' });
  const { create, settle } = creation(harness);

  it('keeps each answer as a fact, never as an assumption, through to the brief', async () => {
    const key = await harness().createKey('test', { credits: 1000 });
    const idea = 'A booking tool for dog groomers with SMS reminders the day before';
    const res = await create(key, {
      idea,
      answers: [
        { question: 'sign-in', answer: 'Google Workspace single sign-on only' },
        { question: 'payment', answer: '19 dollars a month per groomer' },
      ],
    });
    expect(res.statusCode).toBe(202);
    const final = await settle(key, res.json().data.projectId, 60_000);
    const project = final.json().data.project;
    const q = project.questionnaire;
    expect(q.constraints).toContain('Sign-in: Google Workspace single sign-on only');
    expect(q.monetization).toBe('19 dollars a month per groomer');
    expect((q.assumptions ?? []).join('\n')).not.toMatch(/sign in|paid for/i);
    const brief = (project.documents as { filename: string; content: string }[]).find((d) =>
      /BRIEF/i.test(d.filename),
    )!.content;
    expect(brief).toContain('Google Workspace single sign-on only');
    expect(brief).not.toMatch(/How people sign in to \S+ is not stated/);
  });

  it('refuses answers that are not one line, too many, or of an unknown shape', async () => {
    const key = await harness().createKey('test');
    const idea = 'A habit tracker for remote teams';
    for (const answers of [
      [{ question: 'sign-in', answer: 'line one\nline two' }],
      [{ question: 'sign-in' }],
      Array.from({ length: 11 }, () => ({ question: 'sign-in', answer: 'SSO' })),
      [{ question: 'sign-in', answer: 'SSO', why: 'extra' }],
    ]) {
      const res = await create(key, { idea, answers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});
