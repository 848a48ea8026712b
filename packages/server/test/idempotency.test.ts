import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { IDEMPOTENCY_TTL_MS, requestHash, STALE_CLAIM_MS } from '../src/api/idempotency.ts';
import { priceOf } from '../src/runs/pricing.ts';
import { creditLedger, idempotencyKeys, projects } from '../src/storage/schema.ts';
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
} from '../src/storage/sql/idempotency.ts';
import { backends, bearer, type Harness, roomy, startHarness } from './helpers/harness.ts';

/**
 * Issue 3 item 2 and docs/api.md "Idempotency": Idempotency-Key on POST /api/v1/projects.
 * Replays, 422 for another body, 409 for an in-flight duplicate, scope per account and mode,
 * errors not remembered.
 */

const IDEA = 'A web app where a climbing gym posts route setting schedules and members vote.';

const requestHashOf = (body: unknown) => requestHash('createProject', body);

let counter = 0;
const newKey = () => `idem-${Date.now()}-${++counter}-${Math.random().toString(36).slice(2)}`;

describe.each(await backends())('Idempotency-Key on POST /api/v1/projects on %s', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(backend, {
      generation: 'workers',
      rules: roomy('create', 'credits'),
    });
  });
  afterAll(async () => h?.close());

  /** POSTs a raw JSON text (so key order and spacing are the client's). */
  const postRaw = (key: CreatedKey, payload: string, idempotencyKey?: string) =>
    h.request({
      method: 'POST',
      url: '/api/v1/projects',
      headers: {
        ...bearer(key.key),
        'content-type': 'application/json',
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
      payload,
    });
  const post = (key: CreatedKey, body: unknown, idempotencyKey?: string) =>
    postRaw(key, JSON.stringify(body), idempotencyKey);
  const projectsOf = (key: CreatedKey) =>
    h.database.db
      .select()
      .from(projects)
      .where(and(eq(projects.accountId, key.accountId), eq(projects.mode, key.mode)));
  const reservesOf = async (key: CreatedKey) =>
    (
      await h.database.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.accountId, key.accountId), eq(creditLedger.mode, key.mode)))
    ).filter((m) => m.kind === 'reserve');
  const credits = (key: CreatedKey) => h.credits(key);
  const expectReplayOf = (replay: LightMyRequestResponse, first: LightMyRequestResponse) => {
    expect(replay.statusCode).toBe(first.statusCode);
    expect(replay.body).toBe(first.body);
    expect(replay.headers.location).toBe(first.headers.location);
    expect(replay.headers['retry-after']).toBe(first.headers['retry-after']);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // A replay is a new request: its own request id.
    expect(replay.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  };

  it('the same key and body replay the first response, with Idempotent-Replayed: true; one project, one reservation', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const idem = newKey();
    const body = { idea: IDEA, type: 'web' };
    const first = await post(key, body, idem);
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const projectId = first.json().data.projectId;

    const second = await post(key, body, idem);
    expectReplayOf(second, first);
    expect(second.json().data.projectId).toBe(projectId);
    const third = await post(key, body, idem);
    expectReplayOf(third, first);

    expect((await projectsOf(key)).map((p) => p.id)).toEqual([projectId]);
    expect((await reservesOf(key)).map((m) => m.movementKey)).toEqual([
      `project:${projectId}:reserve`,
    ]);
    expect((await credits(key)).balance).toBe(200 - priceOf('web'));
  });

  it('a body with its keys in another order (and other spacing) is the same request', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const idem = newKey();
    const first = await postRaw(
      key,
      JSON.stringify({
        idea: IDEA,
        type: 'web',
        name: 'Crux Board',
        simulate: { outcome: 'completed', durationMs: 0 },
      }),
      idem,
    );
    expect(first.statusCode).toBe(202);
    const reordered = `{ "simulate": { "durationMs": 0, "outcome": "completed" },
      "name": "Crux Board", "type": "web", "idea": ${JSON.stringify(IDEA)} }`;
    const second = await postRaw(key, reordered, idem);
    expectReplayOf(second, first);
    expect(await projectsOf(key)).toHaveLength(1);
  });

  it('the same key with another body → 422 IDEMPOTENCY_KEY_REUSED; nothing created', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const idem = newKey();
    const first = await post(key, { idea: IDEA }, idem);
    expect(first.statusCode).toBe(202);
    for (const other of [
      { idea: `${IDEA} With a café.` },
      { idea: IDEA, type: 'web' },
      { idea: IDEA, name: 'Crux' },
    ]) {
      const res = await post(key, other, idem);
      expect(res.statusCode).toBe(422);
      const { error } = res.json();
      expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(error.details).toEqual({ idempotency_key: idem });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await projectsOf(key)).toHaveLength(1);
    expect(await reservesOf(key)).toHaveLength(1);
    // The original is still replayed.
    expectReplayOf(await post(key, { idea: IDEA }, idem), first);
  });

  it('a duplicate while the first is still processing → 409 IDEMPOTENCY_CONFLICT with Retry-After: 1', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const idem = newKey();
    const body = { idea: IDEA };
    // Hold the key the way a request that is still running holds it.
    const claimed = await claimIdempotencyKey(h.database.db, {
      accountId: key.accountId,
      mode: key.mode,
      key: idem,
      operation: 'createProject',
      requestHash: requestHashOf(body),
      expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
      staleBefore: new Date(Date.now() - STALE_CLAIM_MS),
    });
    expect(claimed).toBeUndefined();

    const res = await post(key, body, idem);
    expect(res.statusCode).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    const { error } = res.json();
    expect(error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(error.details).toEqual({ idempotency_key: idem, retry_after: 1 });
    // Another body under the same key is still a reuse, in flight or not.
    expect((await post(key, { idea: `${IDEA} Also bouldering.` }, idem)).statusCode).toBe(422);
    expect(await projectsOf(key)).toEqual([]);
    expect(await reservesOf(key)).toEqual([]);
    expect(await credits(key)).toMatchObject({ balance: 200, reserved: 0 });
  });

  it('a claim whose request died (older than 60 s, still processing) is taken over', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const idem = newKey();
    const body = { idea: IDEA };
    await h.database.db.insert(idempotencyKeys).values({
      accountId: key.accountId,
      mode: key.mode,
      key: idem,
      operation: 'createProject',
      requestHash: requestHashOf(body),
      state: 'processing',
      createdAt: new Date(Date.now() - STALE_CLAIM_MS - 5_000),
      expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
    });
    const res = await post(key, body, idem);
    expect(res.statusCode).toBe(202);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expectReplayOf(await post(key, body, idem), res);
    expect(await projectsOf(key)).toHaveLength(1);
  });

  it('concurrent duplicates: exactly one project; every answer is the 202, its replay or a 409', async () => {
    const key = await h.createKey('test', { credits: 200 });
    const idem = newKey();
    const body = { idea: IDEA, type: 'web' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(key, body, idem)));
    const created = answers.filter(
      (res) => res.statusCode === 202 && res.headers['idempotent-replayed'] === undefined,
    );
    expect(created).toHaveLength(1);
    const original = created[0]!;
    for (const res of answers) {
      if (res === original) continue;
      if (res.statusCode === 409) {
        expect(res.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
        expect(res.headers['retry-after']).toBe('1');
      } else {
        expectReplayOf(res, original);
      }
    }
    const projectId = original.json().data.projectId;
    expect((await projectsOf(key)).map((p) => p.id)).toEqual([projectId]);
    expect(await reservesOf(key)).toHaveLength(1);
    expect((await credits(key)).balance).toBe(200 - priceOf('web'));
    // Once the first has finished, a retry is a replay.
    expectReplayOf(await post(key, body, idem), original);
  });

  it('is scoped per account and mode: the same key elsewhere creates its own project', async () => {
    const idem = newKey();
    const body = { idea: IDEA };
    const a = await h.createKey('test', { credits: 100 });
    const b = await h.createKey('test', { credits: 100 });
    const aLive = await h.createKey('live', { accountId: a.accountId, credits: 100 });
    const aAgain = await h.createKey('test', { accountId: a.accountId });

    const fromA = await post(a, body, idem);
    const fromB = await post(b, body, idem);
    const fromALive = await post(aLive, body, idem);
    for (const res of [fromA, fromB, fromALive]) {
      expect(res.statusCode).toBe(202);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    const ids = [fromA, fromB, fromALive].map((res) => res.json().data.projectId);
    expect(new Set(ids).size).toBe(3);
    expect(await projectsOf(a)).toHaveLength(1);
    expect(await projectsOf(b)).toHaveLength(1);
    expect(await projectsOf(aLive)).toHaveLength(1);
    // Another key of the same account and mode shares the scope: it replays A's answer.
    expectReplayOf(await post(aAgain, body, idem), fromA);
  });

  it('errors are not remembered: 402, then a grant, then the same key and body → 202', async () => {
    const key = await h.createKey('test', { credits: 10 });
    const idem = newKey();
    const body = { idea: IDEA, type: 'web' };
    for (let i = 0; i < 2; i++) {
      const refused = await post(key, body, idem);
      expect(refused.statusCode).toBe(402);
      expect(refused.json().error.code).toBe('INSUFFICIENT_CREDITS');
      expect(refused.json().error.details).toEqual({ required: priceOf('web'), available: 10 });
      expect(refused.headers['idempotent-replayed']).toBeUndefined();
    }
    await h.accounts.grantCredits({ accountId: key.accountId, mode: 'test', amount: 100 });
    const accepted = await post(key, body, idem);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.headers['idempotent-replayed']).toBeUndefined();
    expectReplayOf(await post(key, body, idem), accepted);
    expect(await projectsOf(key)).toHaveLength(1);
    expect((await credits(key)).balance).toBe(110 - priceOf('web'));
  });

  it('a validation error does not use up the key', async () => {
    const key = await h.createKey('test', { credits: 100 });
    const idem = newKey();
    const bad = await post(key, { idea: 'short' }, idem);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    const good = await post(key, { idea: IDEA }, idem);
    expect(good.statusCode).toBe(202);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a key of 255 characters is accepted; 256 characters or a non-visible character → 400 VALIDATION_ERROR', async () => {
    const key = await h.createKey('test', { credits: 100 });
    for (const idem of ['k'.repeat(256), 'k'.repeat(1_000), 'has space', 'tab\there']) {
      const res = await post(key, { idea: IDEA }, idem);
      expect(res.statusCode, JSON.stringify(idem)).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(error.details.invalid_fields)).toEqual(['Idempotency-Key']);
    }
    expect(await projectsOf(key)).toEqual([]);
    expect(await reservesOf(key)).toEqual([]);

    const longest = `k${'0123456789'.repeat(25)}${'z'.repeat(4)}`;
    expect(longest).toHaveLength(255);
    const first = await post(key, { idea: IDEA }, longest);
    expect(first.statusCode).toBe(202);
    expectReplayOf(await post(key, { idea: IDEA }, longest), first);
  });

  it('the periodic sweep deletes expired keys and keeps live ones', async () => {
    const key = await h.createKey('test', { credits: 500 });
    const claim = (idem: string, expiresAt: Date) =>
      claimIdempotencyKey(h.database.db, {
        accountId: key.accountId,
        mode: key.mode,
        key: idem,
        operation: 'createProject',
        requestHash: requestHashOf({ idea: IDEA }),
        expiresAt,
        staleBefore: new Date(Date.now() - STALE_CLAIM_MS),
      });
    const expired = newKey();
    const live = newKey();
    await claim(expired, new Date(Date.now() - 1_000));
    await claim(live, new Date(Date.now() + IDEMPOTENCY_TTL_MS));
    expect(await deleteExpiredIdempotencyKeys(h.database.db)).toBeGreaterThanOrEqual(1);
    const left = await h.database.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.accountId, key.accountId));
    expect(left.map((row) => row.key)).toEqual([live]);
  });
});
