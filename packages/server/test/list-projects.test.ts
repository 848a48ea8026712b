import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../src/accounts/service.ts';
import { insertProject, updateProject } from '../src/storage/sql/projects.ts';
import { backends, bearer, harnessFor, roomy } from './helpers/harness.ts';

/**
 * Issue 8 item 4: GET /projects, the account's projects newest first in pages
 * (docs/api.md "Listing"). Projects are stored directly: listing reads rows, so no
 * worker runs here.
 */

const IDEA = 'A web dashboard where community gardeners share compost schedules and seed swaps.';

describe.each(await backends())('listing projects on %s', (backend) => {
  // The list limit keeps its documented value: its headers are checked below.
  const harness = harnessFor(backend, { rules: roomy('status', 'create', 'credits') });

  const list = (key: CreatedKey, query = '') =>
    harness().request({ method: 'GET', url: `/api/v1/projects${query}`, headers: bearer(key.key) });

  describe('GET /projects', () => {
    let key: CreatedKey;
    /** Every project of `key`, newest first, with its status. */
    let expected: { id: string; status: string }[];

    beforeAll(async () => {
      key = await harness().createKey('test');
      const base = Date.parse('2026-01-01T00:00:00Z');
      const statuses = ['in_progress', 'completed', 'failed'] as const;
      const rows: { id: string; status: string; createdAt: number }[] = [];
      for (let i = 0; i < 25; i++) {
        const id = randomUUID();
        // Three projects share each instant, so the id decides among them.
        const createdAt = base + Math.floor(i / 3) * 1000;
        const status = statuses[i % 3]!;
        await insertProject(harness().database.db, {
          id,
          accountId: key.accountId,
          mode: key.mode,
          status: 'in_progress',
          idea: IDEA,
          type: 'web',
          createdAt: new Date(createdAt),
        });
        if (status !== 'in_progress') {
          await updateProject(harness().database.db, id, {
            status,
            name: `Garden ${i}`,
            completedAt: new Date(createdAt + 500),
            creditsConsumed: status === 'completed' ? 47 : 0,
            ...(status === 'failed' ? { errorCode: 'generation_failed', errorMessage: 'x' } : {}),
          });
        }
        rows.push({ id, status, createdAt });
      }
      expected = rows
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .map(({ id, status }) => ({ id, status }));
      // Projects the key must never see: another account's, and its own account's live ones.
      const other = await harness().createKey('test');
      const live = await harness().createKey('live', { accountId: key.accountId });
      for (const owner of [other, live]) {
        for (let i = 0; i < 3; i++) await harness().seedProject(owner, { status: 'completed' });
      }
    });

    /** Follows `starting_after` to the end; returns the pages. */
    async function allPages(query: string) {
      const pages: { data: Array<Record<string, unknown>>; has_more: boolean }[] = [];
      let after: string | undefined;
      for (let n = 0; n < 20; n++) {
        const cursor = after === undefined ? '' : `&starting_after=${after}`;
        const res = await list(key, `?${query}${cursor}`);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.success).toBe(true);
        pages.push(body);
        if (!body.has_more) return pages;
        after = body.data.at(-1).projectId;
      }
      throw new Error('more than 20 pages');
    }

    it('pages through 25 projects 10 at a time: newest first, no duplicates, has_more false at the end', async () => {
      const pages = await allPages('limit=10');
      expect(pages.map((p) => p.data.length)).toEqual([10, 10, 5]);
      expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
      const ids = pages.flatMap((p) => p.data.map((d) => d.projectId));
      expect(new Set(ids).size).toBe(25);
      expect(ids).toEqual(expected.map((e) => e.id));
    });

    it('items are small summaries: name null until defined, no documents', async () => {
      const res = await list(key, '?limit=3');
      const items = res.json().data as Array<Record<string, unknown>>;
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual([
          'completedAt',
          'costUsd',
          'createdAt',
          'creditsConsumed',
          'errorCode',
          'ideaExcerpt',
          'name',
          'progress',
          'projectId',
          'status',
          'type',
        ]);
      }
      const running = items.find((i) => i.status === 'in_progress');
      expect(running).toMatchObject({
        name: null,
        // A project not yet named reads as the start of its idea (here the whole of it).
        ideaExcerpt: IDEA,
        type: 'web',
        completedAt: null,
        creditsConsumed: null,
        errorCode: null,
      });
      const failed = (await list(key, '?status=failed&limit=1')).json().data[0];
      expect(failed).toMatchObject({ status: 'failed', errorCode: 'generation_failed' });
      expect(new Date(failed.completedAt).toISOString()).toBe(failed.completedAt);
    });

    it('defaults to 20 per page', async () => {
      const body = (await list(key)).json();
      expect(body.data).toHaveLength(20);
      expect(body.has_more).toBe(true);
    });

    it('filters by status, paging within the filter', async () => {
      for (const status of ['in_progress', 'completed', 'failed']) {
        const pages = await allPages(`limit=3&status=${status}`);
        const ids = pages.flatMap((p) => p.data.map((d) => d.projectId));
        expect(ids).toEqual(expected.filter((e) => e.status === status).map((e) => e.id));
        expect(pages.flatMap((p) => p.data).every((d) => d.status === status)).toBe(true);
      }
    });

    it('a cursor of another account, of the other mode, or unknown → 400 naming starting_after', async () => {
      const other = await harness().createKey('test');
      const foreign = await harness().seedProject(other, { status: 'completed' });
      const live = await harness().createKey('live', { accountId: key.accountId });
      const otherMode = await harness().seedProject(live, { status: 'completed' });
      for (const cursor of [foreign, otherMode, randomUUID()]) {
        const res = await list(key, `?starting_after=${cursor}`);
        expect(res.statusCode).toBe(400);
        const { error } = res.json();
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(Object.keys(error.details.invalid_fields)).toEqual(['starting_after']);
      }
    });

    it('bad parameters → 400 VALIDATION_ERROR naming them', async () => {
      const cases: [string, string][] = [
        ['?limit=0', 'limit'],
        ['?limit=101', 'limit'],
        ['?limit=ten', 'limit'],
        ['?status=cancelled', 'status'],
        ['?starting_after=not-a-uuid', 'starting_after'],
        ['?startingAfter=7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21', 'startingAfter'],
      ];
      for (const [query, field] of cases) {
        const res = await list(key, query);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
        expect(Object.keys(res.json().error.details.invalid_fields), query).toEqual([field]);
      }
    });

    it('counts against its own limit, 60 per minute', async () => {
      const res = await list(key, '?limit=1');
      expect(res.headers['x-ratelimit-limit']).toBe('60');
    });

    it('a key with no projects gets an empty page', async () => {
      const empty = await harness().createKey('test');
      expect((await list(empty)).json()).toEqual({ success: true, data: [], has_more: false });
    });
  });
});
