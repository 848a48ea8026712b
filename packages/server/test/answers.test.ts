import { parseDocument, registerItems } from '@pgs/contract/document';
import { describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { revisionCharge } from '../src/runs/revision-plan.ts';
import { creation, header } from './helpers/creation.ts';
import { bearer, harnessFor, roomy } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 32, item 2: a completed project's open questions and assumptions, answered later as
 * a revision, through the real app, queue, workers and offline engine (every answer checked
 * against the contract by the harness): the answered entries closed as decisions D-n in the
 * brief, their IDs never listed or accepted again, credits as for a revision.
 */

const IDEA =
  'A web app for small veterinary clinics to book appointments online and send vaccine reminders by SMS.';

interface Question {
  id: string;
  kind: 'question' | 'assumption';
  question: string;
  recommended: string;
  leaveOpen?: boolean;
}

describe('answering a project later', () => {
  const harness = harnessFor('pglite', {
    generation: 'workers',
    rules: roomy('status', 'create', 'downloads', 'list', 'manage'),
  });
  const { create, settle } = creation(harness);
  const api = (
    key: CreatedKey,
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    harness().request({
      method,
      url: `/api/v1/projects${url}`,
      headers: {
        ...bearer(key.key),
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const questionsOf = async (key: CreatedKey, id: string) => {
    const res = await api(key, 'GET', `/${id}/questions`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.questions as Question[];
  };
  const completedProject = async (key: CreatedKey) => {
    const id = (await create(key, { idea: IDEA, type: 'web' })).json().data.projectId as string;
    expect((await settle(key, id, 60_000)).json().data.status).toBe('completed');
    return id;
  };

  it('closes the answered entries as decisions, rewrites the brief, and never takes them again', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const id = await completedProject(key);
    const open = await questionsOf(key, id);
    const question = open.find((q) => q.kind === 'question');
    const assumption = open.find((q) => q.kind === 'assumption');
    expect(question?.id).toMatch(/^Q-\d+$/);
    expect(assumption?.id).toMatch(/^A-\d+$/);
    for (const q of open) expect(q.recommended.length).toBeGreaterThan(0);
    // A question PGS knows no answer to says so: accepting its recommendation leaves it open.
    expect(open.some((q) => q.leaveOpen === true)).toBe(true);
    for (const q of open) {
      expect(q.leaveOpen === true, q.id).toBe(q.recommended.startsWith('Not decided'));
    }
    // Questions first, then the assumptions.
    expect(open.findIndex((q) => q.kind === 'assumption')).toBeGreaterThan(
      open.findIndex((q) => q.kind === 'question'),
    );

    const answers = {
      [question!.id]: 'Google Workspace single sign-on only',
      [assumption!.id]: assumption!.recommended,
    };
    const idempotency = { 'idempotency-key': `answers-${id}` };
    const started = await api(key, 'POST', `/${id}/answers`, { answers }, idempotency);
    expect(started.statusCode, started.body).toBe(202);
    expect(header(started, 'location')).toBe(`/api/v1/projects/${id}/revisions/2`);
    expect(started.json().data).toMatchObject({ projectId: id, revision: 2 });
    const replayed = await api(key, 'POST', `/${id}/answers`, { answers }, idempotency);
    expect(replayed.body).toBe(started.body);
    expect(header(replayed, 'idempotent-replayed')).toBe('true');

    const revision = await waitFor(
      async () => {
        const data = (await api(key, 'GET', `/${id}/revisions/2`)).json().data;
        return data.status === 'in_progress' ? undefined : data;
      },
      { timeoutMs: 60_000, what: 'the answers revision to end' },
    );
    expect(revision.status, JSON.stringify(revision.error)).toBe('completed');
    expect(revision.changeRequest).toContain(`- ${question!.id} (`);
    expect(revision.deltas).toEqual([]);
    expect(revision.documentsChanged).toContain('PROJECT_BRIEF.md');
    const kinds = (revision.project.documents as { type: string; filename: string }[])
      .filter((d) => revision.documentsChanged.includes(d.filename))
      .map((d) => d.type);
    expect(revision.metadata.creditsConsumed).toBe(revisionCharge('web', kinds));

    const brief = (revision.project.documents as { type: string; content: string }[]).find(
      (d) => d.type === 'project-brief',
    )!.content;
    const left = registerItems(parseDocument(brief, { filename: 'PROJECT_BRIEF.md' })).map(
      (item) => item.id,
    );
    // The answered IDs are gone; every other entry keeps its number.
    expect([...left].sort()).toEqual(
      open
        .map((q) => q.id)
        .filter((q) => !(q in answers))
        .sort(),
    );
    expect(brief).toContain('### Decisions');
    expect(brief).toContain('**D-1**');
    expect(brief).toContain('Google Workspace single sign-on only');

    const after = await questionsOf(key, id);
    expect(after.map((q) => q.id).sort()).toEqual([...left].sort());
    const again = await api(key, 'POST', `/${id}/answers`, {
      answers: { [question!.id]: 'Email and password' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('VALIDATION_ERROR');
    expect(again.json().error.details.invalid_fields[`answers.${question!.id}`]).toMatch(
      /already answered/,
    );
  });

  it('refuses what it cannot answer: unknown IDs, blank answers, another account, a project not completed', async () => {
    const key = await harness().createKey('test', { credits: 500 });
    const stranger = await harness().createKey('test', { credits: 500 });
    const id = await completedProject(key);
    const [first] = await questionsOf(key, id);
    const refused = async (answers: unknown) => {
      const res = await api(key, 'POST', `/${id}/answers`, { answers });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      return res.json().error.details.invalid_fields as Record<string, string>;
    };
    expect(Object.keys(await refused({ 'Q-99': 'Yes' }))).toEqual(['answers.Q-99']);
    expect(await refused({ [first!.id]: '   ' })).toEqual({
      [`answers.${first!.id}`]: 'must not be blank',
    });
    expect((await refused({ [first!.id]: 'x'.repeat(1001) }))[`answers.${first!.id}`]).toMatch(
      /1000/,
    );
    expect(Object.keys(await refused({}))).toEqual(['answers']);
    expect((await api(key, 'POST', `/${id}/answers`, { answers: [] })).statusCode).toBe(400);
    // Nothing was started, nothing reserved.
    expect((await api(key, 'GET', `/${id}/revisions`)).json().data).toHaveLength(1);

    for (const res of [
      await api(stranger, 'GET', `/${id}/questions`),
      await api(stranger, 'POST', `/${id}/answers`, { answers: { [first!.id]: 'Yes' } }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('RESOURCE_NOT_FOUND');
    }

    const running = (
      await create(key, {
        idea: IDEA,
        type: 'web',
        simulate: { outcome: 'completed', durationMs: 60_000 },
      })
    ).json().data.projectId as string;
    for (const res of [
      await api(key, 'GET', `/${running}/questions`),
      await api(key, 'POST', `/${running}/answers`, { answers: { 'Q-1': 'Yes' } }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('PROJECT_NOT_COMPLETED');
    }
  });
});
