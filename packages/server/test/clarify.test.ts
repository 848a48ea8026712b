import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
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
