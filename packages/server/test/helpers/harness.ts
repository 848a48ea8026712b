import { randomUUID } from 'node:crypto';
import { assertMatchesContract } from '@pgs/contract/testing';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { generateAdminToken } from '../../src/accounts/api-keys.ts';
import { Accounts, type CreatedKey } from '../../src/accounts/service.ts';
import { buildApp } from '../../src/app.ts';
import { completedStatus } from '../../src/generation/result.ts';
import type { RateLimitRule, RateLimitStore } from '../../src/limits/rate-limiter.ts';
import { createLimiters, RATE_LIMIT_RULES } from '../../src/limits/rules.ts';
import { type Database, openDatabase } from '../../src/storage/db.ts';
import type { Mode } from '../../src/storage/sql/accounts.ts';
import {
  insertDocument,
  insertProject,
  listDocuments,
  updateProject,
} from '../../src/storage/sql/projects.ts';
import { createTestDatabase, postgresUnavailable } from './services.ts';

export type Backend = 'pglite' | 'postgres';

/** The backends to run a suite on: PGlite always, PostgreSQL when reachable (always in CI). */
export async function backends(): Promise<Backend[]> {
  return (await postgresUnavailable()) === undefined ? ['pglite', 'postgres'] : ['pglite'];
}

export const DOCS_URL = 'http://docs.test/pgs';

export interface HarnessOptions {
  rules?: Partial<Record<keyof typeof RATE_LIMIT_RULES, RateLimitRule>>;
  store?: (database: Database) => RateLimitStore;
  bodyLimitBytes?: number;
  /** Adds routes or hooks to the app before it is ready (e.g. a route that throws). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** The real app on a real database, with helpers that check every response against the contract. */
export interface Harness {
  app: FastifyInstance;
  database: Database;
  adminToken: string;
  accounts: Accounts;
  /** `app.inject()` plus a contract check of the response. */
  request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse>;
  /** A new account with one key. */
  createKey(mode?: Mode, options?: { accountId?: string; credits?: number }): Promise<CreatedKey>;
  seedProject(key: CreatedKey, state: ProjectSeed): Promise<string>;
  close(): Promise<void>;
}

export type ProjectSeed =
  | { status: 'in_progress'; estimatedCompletionMs?: number }
  | { status: 'completed'; documents?: number }
  | { status: 'failed'; message?: string };

export async function startHarness(
  backend: Backend,
  options: HarnessOptions = {},
): Promise<Harness> {
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: Database;
  if (backend === 'postgres') {
    const created = await createTestDatabase();
    dropDatabase = created.drop;
    database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  } else {
    database = await openDatabase({ kind: 'memory' });
  }
  const adminToken = generateAdminToken();
  const store = options.store?.(database) ?? { kind: 'memory' };
  const limiters = await createLimiters(store, { ...RATE_LIMIT_RULES, ...options.rules });
  const app = await buildApp({
    config: {
      docsUrl: DOCS_URL,
      bodyLimitBytes: options.bodyLimitBytes ?? 65_536,
      trustProxy: false,
    },
    database,
    adminToken,
    limiters,
  });
  await options.extend?.(app);
  await app.ready();
  const accounts = new Accounts(database.db);

  return {
    app,
    database,
    adminToken,
    accounts,
    async request(opts) {
      const res = await app.inject(opts);
      assertMatchesContract(opts.method ?? 'GET', opts.url, res);
      return res;
    },
    createKey: (mode = 'test', opts = {}) =>
      accounts.createKey({ mode, accountId: opts.accountId, credits: opts.credits }),
    async seedProject(key, seed) {
      const id = randomUUID();
      const now = Date.now();
      const row = await insertProject(database.db, {
        id,
        accountId: key.accountId,
        mode: key.mode,
        status: 'in_progress',
        idea: 'A habit tracker for remote teams that nudges people at the right time.',
        estimatedCompletionAt:
          seed.status === 'in_progress'
            ? new Date(now + (seed.estimatedCompletionMs ?? 60_000))
            : null,
      });
      if (seed.status === 'failed') {
        await updateProject(database.db, id, {
          status: 'failed',
          errorCode: 'generation_failed',
          errorMessage:
            seed.message ??
            'The AI service timed out while generating the project. Your credits have been refunded.',
        });
      }
      if (seed.status === 'completed') {
        const count = seed.documents ?? 2;
        for (let i = 0; i < count; i++) {
          await insertDocument(database.db, {
            projectId: id,
            type: i === 0 ? 'project-brief' : `doc-${i}`,
            filename: i === 0 ? 'PROJECT_BRIEF.md' : `DOC_${i}.md`,
            content: `# Document ${i}\n\nHabit tracking for remote teams.`,
            stage: i === 0 ? 'project-brief' : 'requirements',
            tokensUsed: 100 + i,
            generatedAt: new Date(now),
            position: i,
          });
        }
        const named = {
          ...row,
          name: 'TeamPulse',
          description: 'A habit tracker for remote teams.',
          type: 'web' as const,
          questionnaire: {
            targetAudience: 'Remote teams',
            monetization: 'Per-seat subscription',
            techStack: ['TypeScript', 'PostgreSQL'],
            platforms: ['web'],
          },
        };
        const data = completedStatus(named, await listDocuments(database.db, id), {
          creditsConsumed: 5 * count,
          generationTimeMs: 1234,
          documentsGenerated: count,
        });
        await updateProject(database.db, id, {
          ...named,
          status: 'completed',
          creditsConsumed: 5 * count,
          generationTimeMs: 1234,
          resultBody: JSON.stringify({ success: true, data }),
          completedAt: new Date(now),
        });
      }
      return id;
    },
    async close() {
      await app.close();
      await database.close();
      await dropDatabase?.();
    },
  };
}

/** `Authorization: Bearer <key>` */
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
