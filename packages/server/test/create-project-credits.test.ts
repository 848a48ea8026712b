import { describe, expect, it } from 'vitest';
import { refundCredits } from '../src/credits/ledger.ts';
import { Projects } from '../src/projects/projects.ts';
import { priceOf, priceWithoutType } from '../src/runs/pricing.ts';
import { creation, header, IN_PROGRESS_KEYS } from './helpers/creation.ts';
import { backends, bearer, harnessFor, roomy } from './helpers/harness.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * Issue 3 items 5 and 6, docs/api.md "Credits" and "Simulated outcomes": what a creation
 * reserves, charges and refunds, and the simulated outcomes of test keys, end to end with
 * the real queue, workers and offline engine.
 */

describe.each(await backends())('creation: credits and simulations on %s', (backend) => {
  const harness = harnessFor(backend, {
    generation: 'workers',
    rules: roomy('status', 'create', 'credits'),
  });
  const { create, get, credits, settle, projectsOf, ledgerOf } = creation(harness);

  describe('credits', () => {
    it.each([
      { type: 'web' as const, balance: priceOf('web') - 1 },
      { type: 'mobile' as const, balance: priceOf('mobile') - 1 },
      { type: 'mcp' as const, balance: 0 },
    ])(
      '402 INSUFFICIENT_CREDITS for a $type project with $balance credits; nothing reserved',
      async ({ type, balance }) => {
        const key = await harness().createKey('test', { credits: balance });
        const res = await create(key, {
          idea: 'A tool that reminds a household when to descale the kettle and change filters.',
          type,
        });
        expect(res.statusCode).toBe(402);
        const { error } = res.json();
        expect(error.code).toBe('INSUFFICIENT_CREDITS');
        expect(error.details).toEqual({ required: priceOf(type), available: balance });
        expect(await projectsOf(key)).toEqual([]);
        expect((await ledgerOf(key)).every((m) => m.kind === 'grant')).toBe(true);
        expect(await credits(key)).toEqual({ mode: 'test', balance, reserved: 0 });
      },
    );

    it('the exact price is enough', async () => {
      const key = await harness().createKey('test', { credits: priceOf('mcp') });
      const res = await create(key, {
        idea: 'An MCP server that answers questions about a library catalogue and loans.',
      });
      expect(res.statusCode).toBe(202);
      const { data } = (await settle(key, res.json().data.projectId)).json();
      expect(data.status).toBe('completed');
      expect(await credits(key)).toEqual({ mode: 'test', balance: 0, reserved: 0 });
    });
  });

  describe('simulate', () => {
    it('completed after ~1500 ms: in_progress with a falling, never negative estimate, then completed', async () => {
      // The in-progress reads are made on a project held in progress (a 10-minute
      // simulation, cancelled after), so a loaded machine cannot finish it under them.
      const holder = await harness().createKey('test', { credits: 100 });
      const held = await create(holder, {
        idea: 'A web app where a book club votes on the next novel and schedules meetups.',
        simulate: { outcome: 'completed', durationMs: 600_000 },
      });
      expect(held.statusCode).toBe(202);
      expect(held.json().data.estimatedCompletionMs).toBeLessThanOrEqual(600_000 + 50);
      const heldId = held.json().data.projectId as string;

      const first = await get(holder, heldId);
      expect(first.statusCode).toBe(200);
      const firstData = first.json().data;
      expect(firstData.status).toBe('in_progress');
      expect(Object.keys(firstData).sort()).toEqual(IN_PROGRESS_KEYS);
      expect(firstData.estimatedCompletionMs).toBeGreaterThan(0);
      expect(header(first, 'cache-control')).toBe('no-cache');
      const retryAfter = Number(header(first, 'retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(10);
      expect(retryAfter).toBeLessThanOrEqual(30);
      // The price is held while it runs: with no type asked for, the dearest type's.
      expect(await credits(holder)).toEqual({
        mode: 'test',
        balance: 100 - priceWithoutType(),
        reserved: priceWithoutType(),
      });

      // A later read shows less time left; every read is a whole, non-negative number.
      const later = await waitFor(
        async () => {
          const data = (await get(holder, heldId)).json().data;
          expect(data.status).toBe('in_progress');
          expect(Number.isInteger(data.estimatedCompletionMs)).toBe(true);
          expect(data.estimatedCompletionMs).toBeGreaterThanOrEqual(0);
          return data.estimatedCompletionMs < firstData.estimatedCompletionMs
            ? (data.estimatedCompletionMs as number)
            : undefined;
        },
        { timeoutMs: 10_000, what: 'the estimate to fall' },
      );
      expect(later).toBeLessThan(firstData.estimatedCompletionMs);
      const cancelled = await harness().request({
        method: 'POST',
        url: `/api/v1/projects/${heldId}/cancel`,
        headers: bearer(holder.key),
      });
      expect(cancelled.statusCode).toBe(200);

      // A short simulation runs to its end.
      const key = await harness().createKey('test', { credits: 100 });
      const res = await create(key, {
        idea: 'A web app where a book club votes on the next novel and schedules meetups.',
        simulate: { outcome: 'completed', durationMs: 1_500 },
      });
      expect(res.statusCode).toBe(202);
      const accepted = res.json().data;
      expect(accepted.estimatedCompletionMs).toBeGreaterThan(0);
      expect(accepted.estimatedCompletionMs).toBeLessThanOrEqual(1_500 + 50);
      const final = await settle(key, accepted.projectId as string);
      const { data } = final.json();
      expect(data.status).toBe('completed');
      // The simulation kept it in progress for at least its duration.
      expect(data.metadata.generationTimeMs).toBeGreaterThanOrEqual(1_400);
      expect(data.metadata.creditsConsumed).toBe(priceOf('web'));
      expect(await credits(key)).toEqual({
        mode: 'test',
        balance: 100 - priceOf('web'),
        reserved: 0,
      });
    });

    it('failed: ends failed with generation_failed, the refund stated, in GET /credits and once in the ledger', async () => {
      const key = await harness().createKey('test', { credits: 120 });
      const res = await create(key, {
        idea: 'A mobile app that tracks the tides for sea swimmers on the go.',
        simulate: { outcome: 'failed', durationMs: 600 },
      });
      expect(res.statusCode).toBe(202);
      const id = res.json().data.projectId as string;
      const price = priceOf('mobile');
      const final = await settle(key, id);
      const { data } = final.json();
      expect(data.status).toBe('failed');
      expect(Object.keys(data).sort()).toEqual(['error', 'projectId', 'status']);
      expect(data.error.code).toBe('generation_failed');
      expect(data.error.message).toMatch(/refund/i);
      expect(header(final, 'cache-control')).toBe('private, max-age=86400');

      expect(await credits(key)).toEqual({ mode: 'test', balance: 120, reserved: 0 });
      const movements = (await ledgerOf(key)).filter((m) => m.projectId === id);
      expect(movements.map((m) => [m.movementKey, m.kind, m.amount])).toEqual([
        [`project:${id}:reserve`, 'reserve', -price],
        [`project:${id}:refund`, 'refund', price],
      ]);

      // The refund happens once, however often failure is reported again (a retried job).
      const again = new Projects(
        harness().database.db,
        { enqueue: async () => {} },
        () => 'offline',
      );
      expect(await again.fail(id, 'again')).toBe(false);
      await refundCredits(harness().database.db, {
        projectId: id,
        accountId: key.accountId,
        mode: 'test',
        reserved: price,
      });
      const after = (await ledgerOf(key)).filter((m) => m.movementKey === `project:${id}:refund`);
      expect(after).toHaveLength(1);
      expect(await credits(key)).toEqual({ mode: 'test', balance: 120, reserved: 0 });

      // A failed result never changes either.
      const reread = await get(key, id);
      expect(reread.body).toBe(final.body);
      const etag = header(reread, 'etag');
      expect((await get(key, id, { 'if-none-match': etag })).statusCode).toBe(304);
    });
  });
});
