import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { creditLedger, projects } from '../../src/storage/schema.ts';
import type { Harness } from './harness.ts';
import { waitFor } from './wait.ts';

/**
 * What the creation suites (create-project*.test.ts) share: the shape of an in-progress
 * body, a header read that insists on one value, and requests and reads bound to a harness.
 */

/** The keys of an in-progress status body, sorted. */
export const IN_PROGRESS_KEYS = ['estimatedCompletionMs', 'projectId', 'status'];

/** The value of a response header sent once. */
export function header(res: LightMyRequestResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  expect(value, `header ${name}`).toBeDefined();
  expect(Array.isArray(value), `header ${name} sent once`).toBe(false);
  return String(value);
}

/**
 * Requests and database reads on `harness()` (a function: suites start their harness in
 * `beforeAll`, after this is called).
 *
 * @example
 * const { create, settle } = creation(() => h);
 * const final = await settle(key, (await create(key, { idea })).json().data.projectId);
 */
export function creation(harness: () => Harness) {
  const get = (key: CreatedKey, id: string, headers?: Record<string, string>) =>
    harness().getProject(key, id, headers);
  return {
    create: (key: CreatedKey, body: unknown, headers?: Record<string, string>) =>
      harness().createProject(key, body, headers),
    get,
    credits: (key: CreatedKey) => harness().credits(key),
    /** Polls the project until it leaves in_progress; returns the final response. */
    settle: (key: CreatedKey, id: string, timeoutMs = 20_000) =>
      waitFor(
        async () => {
          const res = await get(key, id);
          expect(res.statusCode).toBe(200);
          const data = res.json().data;
          if (data.status === 'in_progress') {
            expect(Object.keys(data).sort()).toEqual(IN_PROGRESS_KEYS);
            expect(data.estimatedCompletionMs).toBeGreaterThanOrEqual(0);
            return undefined;
          }
          return res;
        },
        { timeoutMs, what: `project ${id} to finish` },
      ),
    /** The account's projects, as stored. */
    projectsOf: (key: CreatedKey) =>
      harness().database.db.select().from(projects).where(eq(projects.accountId, key.accountId)),
    /** The key's ledger in the order it was written (an unordered SELECT has no order). */
    ledgerOf: (key: CreatedKey) =>
      harness()
        .database.db.select()
        .from(creditLedger)
        .where(eq(creditLedger.accountId, key.accountId))
        .orderBy(asc(creditLedger.id)),
  };
}
