import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SleepFn } from '@pgs/client';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Handler, json, startServer, type TestServer } from '../../client/test/http-server.ts';
import type { Env } from '../src/config.ts';
import { run } from '../src/index.ts';

// Shared by the projects-*.test.ts files: the project commands in-process against a small
// fake API; time is virtual (an injected SDK clock), so waits paced at the server's 10–30 s
// take no time.

export const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
export const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
export const IDEA = 'A habit tracker for remote teams';

export const accepted: Handler = json(
  202,
  { success: true, data: { projectId: ID, status: 'in_progress', estimatedCompletionMs: 20_000 } },
  { location: `/api/v1/projects/${ID}`, 'retry-after': '20' },
);
export const running = (estimatedCompletionMs: number): Handler =>
  json(
    200,
    { success: true, data: { projectId: ID, status: 'in_progress', estimatedCompletionMs } },
    { 'retry-after': '12' },
  );
export const documents = ['PROJECT_BRIEF.md', 'README.md', 'ARCHITECTURE.md'].map((filename) => ({
  type: 'doc',
  filename,
  content: `# ${filename}`,
  generated_at: '2026-11-22T10:00:00.000Z',
  stage: 'design',
  tokens_used: 10,
}));
export const completed = json(200, {
  success: true,
  data: {
    projectId: ID,
    status: 'completed',
    project: {
      name: 'TeamPulse',
      description: 'A habit tracker for remote teams.',
      type: 'web',
      questionnaire: { targetAudience: 'teams', monetization: 'seats', techStack: ['TS'] },
      documents,
    },
    metadata: { creditsConsumed: 19, generationTimeMs: 1_234, documentsGenerated: 3 },
  },
});
export const failed = json(200, {
  success: true,
  data: {
    projectId: ID,
    status: 'failed',
    error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
  },
});

/** The event stream of a project: `events` as [type, data] pairs, numbered from 1. */
export const stream =
  (...events: [string, unknown][]): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.end(
      events
        .map(([type, data], i) => `id: ${i + 1}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`)
        .join(''),
    );
  };
export const docEvent = (filename: string): [string, unknown] => [
  'document.completed',
  {
    type: 'doc',
    filename,
    stage: 'design',
    tokens_used: 10,
    generated_at: '2026-11-22T10:00:00.000Z',
  },
];
export const completedEvents = stream(
  ['status', { projectId: ID, status: 'in_progress', estimatedCompletionMs: 20_000 }],
  ['stage.started', { stage: 'design' }],
  ...documents.map((d) => docEvent(d.filename)),
  ['project.completed', { status: 'completed', documentsGenerated: 3, creditsConsumed: 19 }],
);
export const failedEvents = stream(
  ['status', { projectId: ID, status: 'in_progress', estimatedCompletionMs: 20_000 }],
  [
    'project.failed',
    {
      status: 'failed',
      error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
    },
  ],
);

/** The fake API and a scratch directory of the calling test file, set by `useProjectsServer()`. */
export let server: TestServer;
export let tmp: string;

/** Starts the fake API and the scratch directory for the calling file, and resets the handler before each test. */
export function useProjectsServer(): void {
  beforeAll(async () => {
    server = await startServer();
    tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-projects-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.reply(json(500, { message: 'no handler' }));
  });
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

export async function pgs(
  argv: string[],
  { env = {}, cwd, signal }: { env?: Env; cwd?: string; signal?: AbortSignal } = {},
): Promise<Result> {
  let stdout = '';
  let stderr = '';
  let t = Date.parse('2026-11-22T10:00:00Z');
  const sleeps: number[] = [];
  const sleep: SleepFn = async (ms) => {
    sleeps.push(ms);
    t += ms;
  };
  const code = await run(argv, {
    env: { PGS_BASE_URL: server.url, PGS_API_KEY: KEY, ...env },
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: cwd ?? (await mkdtemp(join(tmp, 'cwd-'))),
    client: { sleep, now: () => t },
    signal,
  });
  return { code, stdout, stderr, sleeps };
}
