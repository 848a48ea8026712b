import { PLANTED_SECRETS } from '@pgs/contract/testing/secrets';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlCarriesKey } from '../../src/accounts/api-keys.ts';
import { projectContexts } from '../../src/storage/schema.ts';
import { bearer } from '../helpers/harness.ts';
import { type FuzzRequest, requestArb } from './arbitraries.ts';
import { type Answer, checkExchange, describeCase, leakedSecrets, within } from './check.ts';
import { type FuzzApp, fuzzBudget, startFuzzApp } from './fuzz-app.ts';
import { exchange, rawRequestArb } from './raw.ts';

/**
 * Issue 11 item 1: generated requests to every route of the real app (docs/security.md
 * "Fuzzing"), through inject() and, for what inject() cannot send (repeated headers, odd
 * request lines, CONNECT, a missing Host, chunked or conflicting framing, raw bytes), over a
 * socket. Properties: every request answered, no 5xx; every error in the envelope with its
 * request id (equal to X-Request-ID); answers of the contract's operations match it; a
 * refused request stores nothing and moves no balance; the ledger audit finds no drift at
 * the end. The routes come from the app's own onRoute hook, so a new route is fuzzed
 * without editing this file.
 */

const budget = fuzzBudget({ ci: 5_000, local: 1_000 });
const rawBudget = fuzzBudget({ ci: 1_000, local: 300 });

/** inject() takes one value per header name: the last one given wins. */
function injectHeaders(request: FuzzRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  // defineProperty: a header named __proto__ must stay a header, not become a prototype.
  for (const [name, value] of request.headers) {
    Object.defineProperty(headers, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return headers;
}

describe('fuzzing every route', () => {
  let fuzz: FuzzApp;
  let listening: Promise<number> | undefined;
  /** The app on an ephemeral port, for what only a socket can send. */
  const port = () => {
    listening ??= fuzz.app
      .listen({ port: 0, host: '127.0.0.1' })
      .then((url) => Number(new URL(url).port));
    return listening;
  };
  beforeAll(async () => {
    fuzz = await startFuzzApp();
  });
  afterAll(async () => fuzz?.close());

  it('knows the app routes from its onRoute hook', () => {
    const seen = new Set(fuzz.routes.map((r) => `${r.method} ${r.url}`));
    // A few that must be there: the hook saw routes of every plugin.
    for (const route of [
      'POST /api/v1/projects',
      'GET /api/v1/projects/:projectId/events',
      'POST /admin/v1/keys',
      'GET /admin/v1/audit',
      'GET /health',
    ]) {
      expect(seen).toContain(route);
    }
  });

  it(
    `answers ${budget.runs} generated requests without a 5xx, in the envelope, storing nothing when refused`,
    async () => {
      const operations = new Map(fuzz.routes.map((r) => [`${r.method} ${r.url}`, r.operationId]));
      let state = await fuzz.snapshot();
      const tried = new Map<string, number>();
      const property = fc.asyncProperty(requestArb(fuzz), async (request) => {
        tried.set(request.route, (tried.get(request.route) ?? 0) + 1);
        let answer: Answer | undefined;
        try {
          answer = await within(
            10_000,
            fuzz.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: injectHeaders(request),
              ...(request.body === undefined ? {} : { payload: request.body }),
            }),
            'inject',
          );
          const operationId =
            request.method === request.route.split(' ')[0]
              ? operations.get(request.route)
              : undefined;
          const checked = await checkExchange(fuzz, request, answer, operationId, state);
          state = checked.after;
          // A key in the URL, however encoded, is refused before anything else reads it.
          if (urlCarriesKey(request.url) && answer.statusCode !== 403) {
            checked.problems.push(`a key in the URL answered ${answer.statusCode}, not 403`);
          }
          if (checked.problems.length > 0) throw new Error(checked.problems.join('\n'));
        } catch (error) {
          state = await fuzz.snapshot();
          throw new Error(`${(error as Error).message}\n${describeCase(request, answer)}`);
        }
      });
      const started = Date.now();
      const details = await fc.check(property, {
        numRuns: budget.runs,
        ...budget.limit,
        ...(process.env.PGS_FUZZ_SEED ? { seed: Number(process.env.PGS_FUZZ_SEED) } : {}),
      });
      if (details.failed) {
        throw new Error(
          `${fc.defaultReportMessage(details)}\n${(details.errorInstance as Error | undefined)?.message}`,
        );
      }
      console.info(
        `fuzz (inject): ${details.numRuns} requests in ${Date.now() - started} ms, seed ${details.seed}` +
          (details.interrupted ? ' (stopped by the time limit)' : ''),
      );
      expect(details.numRuns).toBeGreaterThanOrEqual(budget.minimum);
      // Every route got its share (once the run is long enough for that to be expected).
      if (details.numRuns >= 20 * fuzz.routes.length) {
        for (const route of fuzz.routes) {
          expect(tried.get(`${route.method} ${route.url}`) ?? 0, route.url).toBeGreaterThan(0);
        }
      }

      // And the ledger still agrees with every balance after all that.
      const audit = await fuzz.app.inject({
        method: 'GET',
        url: '/admin/v1/audit',
        headers: bearer(fuzz.adminToken),
      });
      expect(audit.json().data).toMatchObject({ ok: true, drift: [] });
      // No line of the log holds a key or the admin token, in any encoding the fuzz sent.
      expect(fuzz.logLines.length).toBeGreaterThan(details.numRuns);
      const secrets = [
        fuzz.keys.test.key,
        fuzz.keys.live.key,
        fuzz.keys.other.key,
        fuzz.adminToken,
      ];
      expect(leakedSecrets(fuzz.logLines, secrets).slice(0, 3)).toEqual([]);
      // The secrets planted in digests (issue 27): in no log line and no stored digest.
      const stored = JSON.stringify(await fuzz.database.db.select().from(projectContexts));
      for (const { format, secret } of PLANTED_SECRETS) {
        expect(stored.includes(secret), format).toBe(false);
        expect(fuzz.logLines.filter((line) => line.includes(secret)).length, format).toBe(0);
      }
    },
    budget.timeoutMs,
  );

  it(
    `answers ${rawBudget.runs} raw requests, each in the envelope with a request id, storing nothing when refused`,
    async () => {
      let state = await fuzz.snapshot();
      const property = fc.asyncProperty(rawRequestArb(fuzz), async (request) => {
        let answer: Answer | undefined;
        try {
          answer = await exchange(await port(), request.bytes, request.method === 'HEAD');
          const checked = await checkExchange(
            fuzz,
            { ...request.base, method: request.method },
            answer,
            undefined,
            state,
            { contract: false },
          );
          state = checked.after;
          if (checked.problems.length > 0) throw new Error(checked.problems.join('\n'));
        } catch (error) {
          state = await fuzz.snapshot();
          throw new Error(
            `${(error as Error).message}\n→ ${answer ? `${answer.statusCode} ${answer.body.slice(0, 300)}` : 'no answer'}`,
          );
        }
      });
      const started = Date.now();
      const details = await fc.check(property, {
        numRuns: rawBudget.runs,
        ...rawBudget.limit,
        ...(process.env.PGS_FUZZ_SEED ? { seed: Number(process.env.PGS_FUZZ_SEED) } : {}),
      });
      if (details.failed) {
        throw new Error(
          `${fc.defaultReportMessage(details)}\n${(details.errorInstance as Error | undefined)?.message}`,
        );
      }
      console.info(
        `fuzz (raw HTTP): ${details.numRuns} requests in ${Date.now() - started} ms, seed ${details.seed}` +
          (details.interrupted ? ' (stopped by the time limit)' : ''),
      );
      expect(details.numRuns).toBeGreaterThanOrEqual(rawBudget.minimum);

      const audit = await fuzz.app.inject({
        method: 'GET',
        url: '/admin/v1/audit',
        headers: bearer(fuzz.adminToken),
      });
      expect(audit.json().data).toMatchObject({ ok: true, drift: [] });
    },
    rawBudget.timeoutMs,
  );
});
