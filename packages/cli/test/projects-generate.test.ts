import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import {
  accepted,
  completed,
  completedEvents,
  documents,
  failed,
  failedEvents,
  ID,
  IDEA,
  pgs,
  running,
  server,
  tmp,
  useProjectsServer,
} from './projects-fixture.ts';

// pgs generate in-process against a small fake API (see projects-fixture.ts).

useProjectsServer();

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

  it('sends --detail as given; without it, no detail (the server default, standard)', async () => {
    for (const detail of ['brief', 'standard', 'deep']) {
      server.reply(accepted);
      const r = await pgs(['generate', IDEA, '--type', 'mcp', '--detail', detail, '--no-wait']);
      expect(r).toMatchObject({ code: EXIT.OK, stdout: `${ID}\n` });
      expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({
        idea: IDEA,
        type: 'mcp',
        detail,
      });
    }
    server.reply(accepted);
    await pgs(['generate', IDEA, '--no-wait']);
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({ idea: IDEA });
    const help = await pgs(['generate', '--help']);
    expect(help.stdout).toContain('[--detail brief|standard|deep]');
    expect(help.stdout).toMatch(/--detail brief\|standard\|deep\n\s+how much the documents say/);
  });

  it('sends --style as requirementStyle (docs/requirement-style.md)', async () => {
    server.reply(accepted);
    const r = await pgs(['generate', IDEA, '--style', 'gherkin', '--no-wait']);
    expect(r).toMatchObject({ code: EXIT.OK, stdout: `${ID}\n` });
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({
      idea: IDEA,
      requirementStyle: 'gherkin',
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
    [
      ['generate', IDEA, '--detail', 'short'],
      /--detail must be brief, standard or deep, not "short"/,
    ],
    [['generate', IDEA, '--detail', 'Brief'], /--detail must be brief, standard or deep/],
    [['generate', IDEA, '--detail='], /--detail must be brief, standard or deep, not ""/],
    [['generate', IDEA, '--style', 'cucumber'], /--style must be ears or gherkin, not "cucumber"/],
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
