import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SleepFn } from '@pgs/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  envelope,
  type Handler,
  hang,
  json,
  startServer,
  type TestServer,
} from '../../client/test/http-server.ts';
import type { Env } from '../src/config.ts';
import { EXIT, run } from '../src/index.ts';

// The project commands in-process against a small fake API; time is virtual (an
// injected SDK clock), so waits paced at the server's 10–30 s take no time.

const KEY = 'pgs_test_abcdefghijklmnopqrstuvwxyz0123456789';
const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';
const IDEA = 'A habit tracker for remote teams';

const accepted: Handler = json(
  202,
  { success: true, data: { projectId: ID, status: 'in_progress', estimatedCompletionMs: 20_000 } },
  { location: `/api/v1/projects/${ID}`, 'retry-after': '20' },
);
const running = (estimatedCompletionMs: number): Handler =>
  json(
    200,
    { success: true, data: { projectId: ID, status: 'in_progress', estimatedCompletionMs } },
    { 'retry-after': '12' },
  );
const documents = ['PROJECT_BRIEF.md', 'README.md', 'ARCHITECTURE.md'].map((filename) => ({
  type: 'doc',
  filename,
  content: `# ${filename}`,
  generated_at: '2026-11-22T10:00:00.000Z',
  stage: 'design',
  tokens_used: 10,
}));
const completed = json(200, {
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
const failed = json(200, {
  success: true,
  data: {
    projectId: ID,
    status: 'failed',
    error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
  },
});

/** The event stream of a project: `events` as [type, data] pairs, numbered from 1. */
const stream =
  (...events: [string, unknown][]): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.end(
      events
        .map(([type, data], i) => `id: ${i + 1}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`)
        .join(''),
    );
  };
const docEvent = (filename: string): [string, unknown] => [
  'document.completed',
  {
    type: 'doc',
    filename,
    stage: 'design',
    tokens_used: 10,
    generated_at: '2026-11-22T10:00:00.000Z',
  },
];
const completedEvents = stream(
  ['status', { projectId: ID, status: 'in_progress', estimatedCompletionMs: 20_000 }],
  ['stage.started', { stage: 'design' }],
  ...documents.map((d) => docEvent(d.filename)),
  ['project.completed', { status: 'completed', documentsGenerated: 3, creditsConsumed: 19 }],
);
const failedEvents = stream(
  ['status', { projectId: ID, status: 'in_progress', estimatedCompletionMs: 20_000 }],
  [
    'project.failed',
    {
      status: 'failed',
      error: { code: 'generation_failed', message: 'The AI service timed out. Credits refunded.' },
    },
  ],
);

let server: TestServer;
let tmp: string;
beforeAll(async () => {
  server = await startServer();
  tmp = await mkdtemp(join(tmpdir(), 'pgs-cli-projects-'));
});
afterAll(async () => {
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

async function pgs(
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

beforeEach(() => {
  server.reply(json(500, { message: 'no handler' }));
});

describe('pgs generate', () => {
  it('creates, follows the event stream, writes into ./<name-slug>/ and summarises', async () => {
    server.reply(accepted, completedEvents, completed);
    const cwd = await mkdtemp(join(tmp, 'gen-'));
    const r = await pgs(
      ['generate', 'A', 'habit', 'tracker', 'for', 'remote', 'teams', '--type', 'web'],
      { cwd },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.sleeps).toEqual([]);
    expect(r.stdout).toBe(
      [
        `Created project ${ID} (about 20 s of generation estimated)`,
        'stage: design',
        'document: PROJECT_BRIEF.md (10 tokens)',
        'document: README.md (10 tokens)',
        'document: ARCHITECTURE.md (10 tokens)',
        'completed: 3 documents, 19 credits consumed',
        'Wrote 3 documents to teampulse:',
        `  ${join('teampulse', 'PROJECT_BRIEF.md')}`,
        `  ${join('teampulse', 'README.md')}`,
        `  ${join('teampulse', 'ARCHITECTURE.md')}`,
        '',
        '  Project     TeamPulse',
        '  Type        web',
        '  Documents   3',
        '  Credits     19 consumed',
        '  Generated   in 1.2 s',
        `  Project id  ${ID}`,
        '',
      ].join('\n'),
    );
    expect((await readdir(join(cwd, 'teampulse'))).sort()).toEqual(
      documents.map((d) => d.filename).sort(),
    );
    expect(await readFile(join(cwd, 'teampulse', 'README.md'), 'utf8')).toBe('# README.md');

    const [post] = server.requests;
    expect(post?.method).toBe('POST');
    expect(post?.url).toBe('/api/v1/projects');
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(post?.body ?? '')).toEqual({ idea: IDEA, type: 'web' });
    expect(server.requests.map((q) => q.url)).toEqual([
      '/api/v1/projects',
      `/api/v1/projects/${ID}/events`,
      `/api/v1/projects/${ID}`,
    ]);
    expect(server.requests[1]?.headers.accept).toBe('text/event-stream');

    // Again in the same directory: the earlier files stay, the new ones go next to them.
    server.reply(accepted, completedEvents, completed);
    const again = await pgs(['generate', IDEA], { cwd });
    expect(again.stdout).toContain('Wrote 3 documents to teampulse-2:');
  });

  it('sends --name and --simulate; --poll-interval replaces the server pace', async () => {
    server.reply(accepted, running(500), completed);
    const r = await pgs([
      'generate',
      IDEA,
      '--name',
      'Pulse',
      '--simulate',
      'completed',
      '--duration',
      '1.5s',
      '--poll-interval',
      '250ms',
      '--out',
      join(tmp, 'named'),
    ]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.sleeps).toEqual([250]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      idea: IDEA,
      name: 'Pulse',
      simulate: { outcome: 'completed', durationMs: 1_500 },
    });
  });

  it('--json prints the final status only; --no-wait prints the id', async () => {
    server.reply(accepted, completedEvents, completed);
    const r = await pgs(['generate', IDEA, '--json', '--out', join(tmp, 'json')]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ projectId: ID, status: 'completed' });
    expect((await readdir(join(tmp, 'json'))).length).toBe(3);

    server.reply(accepted);
    const id = await pgs(['generate', IDEA, '--no-wait']);
    expect(id).toMatchObject({ code: 0, stdout: `${ID}\n` });
    expect(id.stderr).toBe(`Follow it with: pgs wait ${ID} --out DIR\n`);
    expect(server.requests).toHaveLength(1);
    const created = await pgs(['generate', IDEA, '--no-wait', '--json']);
    expect(JSON.parse(created.stdout)).toEqual({
      projectId: ID,
      status: 'in_progress',
      estimatedCompletionMs: 20_000,
    });
  });

  it('a failed project exits 9; --json prints its status too', async () => {
    server.reply(accepted, failedEvents, failed);
    const text = await pgs(['generate', IDEA]);
    expect(text.code).toBe(EXIT.GENERATION_FAILED);
    expect(text.stderr).toBe(
      'error: generation failed: The AI service timed out. Credits refunded. (generation_failed)\n',
    );
    server.reply(accepted, failedEvents, failed);
    const asJson = await pgs(['generate', IDEA, '--json']);
    expect(asJson.code).toBe(9);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ status: 'failed' });
  });

  it.each([
    [402, 'INSUFFICIENT_CREDITS', EXIT.INSUFFICIENT_CREDITS, /pgs credits grant/],
    [400, 'VALIDATION_ERROR', EXIT.VALIDATION, /idea: too short/],
    [401, 'AUTHENTICATION_FAILED', EXIT.AUTHENTICATION, /rejected the API key .*PGS_API_KEY/],
  ])('a %i %s on create exits %i with a hint', async (status, code, exit, hint) => {
    server.reply(
      json(
        status,
        envelope(code, `failed with ${status}`, undefined, {
          invalid_fields: { idea: 'too short' },
        }),
      ),
    );
    const r = await pgs(['generate', IDEA]);
    expect(r.code).toBe(exit);
    expect(r.stderr).toMatch(hint);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [['generate'], /missing the idea/],
    [['generate', IDEA, '--type', 'desktop'], /--type must be web, mobile or mcp/],
    [['generate', IDEA, '--simulate', 'maybe'], /--simulate must be completed or failed/],
    [['generate', IDEA, '--duration', '100'], /--duration needs --simulate/],
    [['generate', IDEA, '--simulate', 'failed', '--duration', 'soon'], /--duration must be/],
    [['generate', IDEA, '--simulate', 'failed', '--duration', '11m'], /at most 600 s/],
    [['generate', IDEA, '--no-wait', '--out', 'x'], /--no-wait writes nothing/],
    [['generate', IDEA, '--name', ' '], /--name must not be empty/],
    [['generate', IDEA, '--max-wait=forever'], /--max-wait must be a duration/],
    [['status'], /missing the project ID/],
    [['wait', ID, 'extra'], /unexpected argument "extra"/],
    [['credits', 'extra'], /unknown command "credits extra"/],
  ])('usage error for %j, before any request', async (argv, message) => {
    const r = await pgs(argv);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(message);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a --out that holds files before creating the project', async () => {
    const r = await pgs(['generate', IDEA, '--out', tmp]);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toContain(`--out ${tmp} is not empty`);
    expect(server.requests).toHaveLength(0);
  });

  it('without a key: exit 3 and how to get one, before any request', async () => {
    const r = await pgs(['generate', IDEA], { env: { PGS_API_KEY: undefined } });
    expect(r.code).toBe(EXIT.AUTHENTICATION);
    expect(r.stderr).toContain('no API key: pass --api-key or set PGS_API_KEY');
    expect(r.stderr).toContain('npx pgs keys create --mode test --credits 1000');
    expect(server.requests).toHaveLength(0);
    const asJson = await pgs(['credits', '--json'], { env: { PGS_API_KEY: '' } });
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { code: 'API_KEY_MISSING' } });
  });
});

describe('pgs wait, status and credits', () => {
  it('--max-wait ends the wait with exit 11 and says how to resume', async () => {
    server.reply(running(60_000));
    const out = join(tmp, 'later');
    const r = await pgs(['wait', ID, '--max-wait', '30s', '--out', out]);
    expect(r.code).toBe(EXIT.WAIT_TIMEOUT);
    expect(r.sleeps).toEqual([12_000, 12_000, 6_000]);
    expect(r.stderr).toBe(
      `error: project ${ID} was still in progress after 30 s (about 60 s left)\n` +
        `The project keeps generating on the server. Wait for it again with: pgs wait ${ID} --out ${out}\n`,
    );
  });

  it('Ctrl-C while waiting exits 130 and says how to resume', async () => {
    server.reply(accepted, hang);
    const interrupt = new AbortController();
    const pending = pgs(['generate', IDEA, '--out', join(tmp, 'interrupted')], {
      signal: interrupt.signal,
    });
    while (server.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
    interrupt.abort();
    const r = await pending;
    expect(r.code).toBe(EXIT.INTERRUPTED);
    expect(r.stderr).toContain('error: interrupted\n');
    expect(r.stderr).toContain(`pgs wait ${ID} --out ${join(tmp, 'interrupted')}`);
  });

  it('wait without --out lists the documents and says how to write them', async () => {
    server.reply(running(3_000), completed);
    const r = await pgs(['wait', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain('Documents:\n  PROJECT_BRIEF.md\n');
    expect(r.stdout).toContain(`Write them to a directory with: pgs wait ${ID} --out DIR\n`);
    expect(server.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      `GET /api/v1/projects/${ID}`,
      `GET /api/v1/projects/${ID}`,
    ]);
  });

  it('status prints each state, exits 0 for all three, and --json the status itself', async () => {
    server.reply(running(12_300), failed, completed);
    expect((await pgs(['status', ID])).stdout).toBe(
      `Project ${ID}: in_progress, about 13 s left\n`,
    );
    const f = await pgs(['status', ID]);
    expect(f).toMatchObject({
      code: 0,
      stdout: `Project ${ID}: failed: The AI service timed out. Credits refunded. (generation_failed)\n`,
    });
    const c = await pgs(['status', ID, '--json']);
    expect(JSON.parse(c.stdout)).toMatchObject({ status: 'completed', projectId: ID });
  });

  it('status of an unknown project exits 4 with a hint about modes', async () => {
    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    const r = await pgs(['status', ID]);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stderr).toContain('Live and test keys see separate projects');
  });

  it('credits prints the balance; --json the object', async () => {
    server.reply(json(200, { success: true, data: { mode: 'test', balance: 953, reserved: 47 } }));
    expect((await pgs(['credits'])).stdout).toBe(
      '953 test credits available, 47 reserved by projects in progress.\n',
    );
    expect(JSON.parse((await pgs(['credits', '--json'])).stdout)).toEqual({
      mode: 'test',
      balance: 953,
      reserved: 47,
    });
    expect(server.requests[0]?.url).toBe('/api/v1/credits');
  });
});

describe('help', () => {
  it.each([['generate'], ['status'], ['wait'], ['credits']])(
    'pgs %s --help lists its options, the key options and the exit codes',
    async (name) => {
      const r = await pgs([name, '--help']);
      expect(r.code).toBe(EXIT.OK);
      expect(r.stdout).toContain(`Usage: pgs ${name}`);
      expect(r.stdout).toContain('--api-key KEY');
      expect(r.stdout).toContain('PGS_BASE_URL');
      expect(r.stdout).toContain('Exit codes:');
      expect(r.stdout).toMatch(/ {2}9 {2}generation failed/);
      expect(server.requests).toHaveLength(0);
    },
  );

  it('says the progress shows only what the API exposes', async () => {
    const generate = await pgs(['generate', '-h']);
    expect(generate.stdout).toContain("follows the project's event stream");
    const r = await pgs(['wait', '-h']);
    expect(r.stdout).toContain('reports only the status and the estimated');
    expect(r.stdout).toContain('no stage or count of documents done is shown');
    const credits = await pgs(['credits', '--help']);
    expect(credits.stdout).toContain('pgs credits grant --account ID');
  });

  it('the program help lists the project commands first', async () => {
    const r = await pgs(['--help']);
    for (const name of ['generate', 'status', 'wait', 'credits ', 'keys create', 'credits grant']) {
      expect(r.stdout).toContain(`  ${name}`);
    }
    expect(r.stdout.indexOf('generate')).toBeLessThan(r.stdout.indexOf('keys create'));
    expect(r.stdout).toContain('npx pgs keys create --mode test --credits 1000');
  });
});
