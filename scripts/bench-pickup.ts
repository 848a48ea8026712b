/**
 * The pickup group of `npm run bench`: how long a created project waits before its first
 * model call reaches the provider (a fake speaking Chat Completions on loopback, called by
 * the real provider package), on PGlite and on PostgreSQL. Projects are created one at a
 * time, so each pickup is measured on an idle queue; each is cancelled once picked up.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startFakeAi } from '../packages/server/test/helpers/fake-ai.ts';
import { answerPrompt } from '../packages/server/test/helpers/prompt-context.ts';
import { api, newKey, quantile, startServer, stop } from './bench-common.ts';

const SAMPLES = Number(process.env.BENCH_PICKUP_SAMPLES ?? 40);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database on the PostgreSQL server, or undefined (with the reason printed). */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const name = `pgs_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 2_000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    console.log(`  PostgreSQL: skipped (${DATABASE_URL} unreachable: ${(error as Error).message})`);
    return undefined;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function measure(backend: 'PGlite' | 'PostgreSQL', env: Record<string, string>) {
  const waiting = new Map<string, (at: number) => void>();
  const fake = await startFakeAi((call) => {
    const at = performance.now();
    const marker = /pickup-[0-9a-f]{12}/.exec(call.prompt)?.[0];
    if (marker !== undefined) {
      waiting.get(marker)?.(at);
      waiting.delete(marker);
    }
    const answer = answerPrompt(call.prompt);
    return call.schema === undefined
      ? { kind: 'text', text: answer }
      : { kind: 'json', value: JSON.parse(answer) };
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-'));
  const server = await startServer(dataDir, {
    PGS_TEST_MODELS: 'openai-compatible:bench',
    PGS_OPENAI_COMPATIBLE_BASE_URL: fake.baseURL,
    ...env,
  });
  const fromPost: number[] = [];
  const fromAnswer: number[] = [];
  try {
    // Creation and cancel allow 30 a minute per key.
    const keys: string[] = [];
    for (let i = 0; i < SAMPLES + 3; i++) {
      if (i % 14 === 0) keys.push(await newKey(server));
      const client = { ...server, key: keys.at(-1)! };
      const marker = `pickup-${randomBytes(6).toString('hex')}`;
      const first = new Promise<number>((resolve) => waiting.set(marker, resolve));
      const posted = performance.now();
      const created = await api(client, 'POST', '/api/v1/projects', {
        idea: `A community fridge map for a neighbourhood (${marker})`,
      });
      const answered = performance.now();
      if (created.status !== 202) throw new Error(`create: ${created.status} ${created.text}`);
      const called = await Promise.race([
        first,
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error(`no model call within 30 s (${marker})`)), 30_000),
        ),
      ]);
      // The first three warm the process up (module loading, prepared statements).
      if (i >= 3) {
        fromPost.push(called - posted);
        fromAnswer.push(called - answered);
      }
      const id = JSON.parse(created.text).data.projectId as string;
      await api(client, 'POST', `/api/v1/projects/${id}/cancel`);
    }
  } finally {
    await stop(server.child);
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const show = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms`;
  };
  console.log(
    `  ${backend.padEnd(10)} POST sent → first model call: ${show(fromPost)}; 202 received → first model call: ${show(fromAnswer)} (${fromPost.length} projects; aim p50 ≤ 5 ms, p99 ≤ 15 ms)`,
  );
}

/** Prints pickup latency p50/p99 on PGlite and PostgreSQL. */
export async function pickupBench(): Promise<void> {
  console.log(
    '\njob pickup (create → first model call reaches the provider), one project at a time:',
  );
  await measure('PGlite', {});
  const database = await freshDatabase();
  if (database === undefined) return;
  try {
    await measure('PostgreSQL', {
      DATABASE_URL: database.url,
      PGS_ADMIN_TOKEN: `bench-${randomBytes(16).toString('hex')}`,
    });
  } finally {
    await database.drop();
  }
}
