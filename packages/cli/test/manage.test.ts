import type { ProjectSummary } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';

// pgs list, pgs cancel and pgs delete in-process against a small fake API; the SDK's
// retry pauses are virtual.

const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';

const summary = (n: number, extra: Partial<ProjectSummary> = {}): ProjectSummary => ({
  projectId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  status: 'completed',
  name: `Garden ${n}`,
  ideaExcerpt: 'A habit tracker for remote teams',
  type: 'web',
  createdAt: `2026-01-0${n}T10:00:00.000Z`,
  completedAt: `2026-01-0${n}T10:01:00.000Z`,
  creditsConsumed: 47,
  costUsd: 0,
  errorCode: null,
  ...extra,
});
const page = (items: ProjectSummary[], hasMore: boolean) =>
  json(200, { success: true, data: items, has_more: hasMore });
const cancelled = {
  projectId: ID,
  status: 'failed',
  error: {
    code: 'generation_cancelled',
    message:
      'The project was cancelled. 13 credits were charged for the 2 documents already generated; the remaining 34 were released.',
  },
};

useFakeApi();

describe('pgs list', () => {
  const three = [
    summary(3, { status: 'in_progress', name: null, completedAt: null, creditsConsumed: null }),
    summary(2, {
      status: 'failed',
      errorCode: 'generation_cancelled',
      creditsConsumed: 13,
      costUsd: null,
    }),
    summary(1, { costUsd: 0.004213 }),
  ];

  it('on a terminal: a table (the cost in dollars, an unnamed project by its idea), and the command for the next page', async () => {
    server.reply(page(three, true));
    const r = await pgs(['list', '--limit', '3', '--status', 'completed'], { tty: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        'ID                                    STATUS              TYPE  CREATED               COST       NAME',
        '00000000-0000-4000-8000-000000000003  in_progress         web   2026-01-03T10:00:00Z  $0         "A habit tracker for remote teams"',
        '00000000-0000-4000-8000-000000000002  failed (cancelled)  web   2026-01-02T10:00:00Z  -          Garden 2',
        '00000000-0000-4000-8000-000000000001  completed           web   2026-01-01T10:00:00Z  $0.004213  Garden 1',
        `More: pgs list --status completed --limit 3 --starting-after ${summary(1).projectId}`,
        '',
      ].join('\n'),
    );
    expect(server.requests.map((q) => q.url)).toEqual([
      '/api/v1/projects?limit=3&status=completed',
    ]);
  });

  it('piped: one tab-separated line per project, no header', async () => {
    server.reply(page(three, false));
    const r = await pgs(['list', '--starting-after', summary(4).projectId]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.split('\n')[0]).toBe(
      `${summary(3).projectId}\tin_progress\tweb\t2026-01-03T10:00:00Z\t$0\t"A habit tracker for remote teams"`,
    );
    expect(r.stdout.split('\n')[1]).toBe(
      `${summary(2).projectId}\tfailed (cancelled)\tweb\t2026-01-02T10:00:00Z\t-\tGarden 2`,
    );
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(server.requests[0]?.url).toBe(`/api/v1/projects?starting_after=${summary(4).projectId}`);
  });

  it('an unnamed project: its idea in quotes, cut to the column and kept on one line', async () => {
    const long = `A   booking app\tfor a dental clinic ${'with reminders and records '.repeat(4)}`;
    const excerpt = `${long.replace(/\s+/g, ' ').slice(0, 119).trimEnd()}…`;
    server.reply(
      page(
        [
          summary(3, { name: null, ideaExcerpt: excerpt }),
          summary(2, { name: null, ideaExcerpt: `${'🦷'.repeat(70)}` }),
          summary(1, { name: null, ideaExcerpt: 'Short' }),
        ],
        false,
      ),
    );
    const r = await pgs(['list']);
    const names = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[5]);
    expect(names).toEqual([
      '"A booking app for a dental clinic with reminders and reco…"',
      `"${'🦷'.repeat(57)}…"`,
      '"Short"',
    ]);
    // At most 60 characters (code points: an emoji is never halved), quotes included.
    for (const name of names) expect([...name!].length).toBeLessThanOrEqual(60);
  });

  it('--json: one line with the items as the API lists them and hasMore', async () => {
    server.reply(page(three, true));
    const r = await pgs(['list', '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(JSON.parse(r.stdout)).toEqual({ data: three, hasMore: true });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--all: every page, 100 at a time, each after the last id of the one before', async () => {
    server.reply(page([summary(3), summary(2)], true), page([summary(1)], false));
    const r = await pgs(['list', '--all', '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(JSON.parse(r.stdout).data.map((p: ProjectSummary) => p.name)).toEqual([
      'Garden 3',
      'Garden 2',
      'Garden 1',
    ]);
    expect(server.requests.map((q) => q.url)).toEqual([
      '/api/v1/projects?limit=100',
      `/api/v1/projects?limit=100&starting_after=${summary(2).projectId}`,
    ]);
  });

  it('no projects on a terminal says so', async () => {
    server.reply(page([], false));
    const r = await pgs(['list', '--status', 'in_progress'], { tty: true });
    expect(r.stdout).toBe('No in_progress projects.\n');
  });

  it('bad flags are usage errors before any request', async () => {
    for (const argv of [
      ['list', '--status', 'cancelled'],
      ['list', '--limit', '0'],
      ['list', '--limit', '101'],
      ['list', '--all', '--starting-after', ID],
      ['list', 'extra'],
    ]) {
      const r = await pgs(argv);
      expect(r.code, argv.join(' ')).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('pgs cancel', () => {
  it('says what was charged', async () => {
    server.reply(json(200, { success: true, data: cancelled }));
    const r = await pgs(['cancel', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(`Cancelled project ${ID}. ${cancelled.error.message}\n`);
    const [post] = server.requests;
    expect(post).toMatchObject({ method: 'POST', url: `/api/v1/projects/${ID}/cancel`, body: '' });
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('--json: the status as the API returns it', async () => {
    server.reply(json(200, { success: true, data: cancelled }));
    const r = await pgs(['cancel', ID, '--json']);
    expect(JSON.parse(r.stdout)).toEqual(cancelled);
  });

  it('a finished project: exit 12 with the reason and a hint', async () => {
    server.reply(
      json(
        409,
        envelope(
          'PROJECT_NOT_IN_PROGRESS',
          'The project is already completed; only a project in progress can be cancelled.',
          'req_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
          { resource_type: 'project', resource_id: ID, status: 'completed' },
        ),
      ),
    );
    const r = await pgs(['cancel', ID]);
    expect(r.code).toBe(EXIT.CONFLICT);
    expect(r.stderr).toBe(
      'error: The project is already completed; only a project in progress can be cancelled. (PROJECT_NOT_IN_PROGRESS, req_01JD6WQ8V4Z9K3M2N5P7R8S0TA)\n' +
        'Only a project in progress can be cancelled. See its state with: pgs status ID\n',
    );
  });

  it('an unknown project: exit 4; no ID: exit 2', async () => {
    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    expect((await pgs(['cancel', ID])).code).toBe(EXIT.NOT_FOUND);
    expect((await pgs(['cancel'])).code).toBe(EXIT.USAGE);
  });
});

describe('pgs delete', () => {
  it('deletes and says so; --json prints one line', async () => {
    server.reply((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const r = await pgs(['delete', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(`Deleted project ${ID}.\n`);
    expect(server.requests[0]).toMatchObject({ method: 'DELETE', url: `/api/v1/projects/${ID}` });
    const j = await pgs(['delete', ID, '--json']);
    expect(JSON.parse(j.stdout)).toEqual({ projectId: ID, deleted: true });
  });

  it('an unknown (or already deleted) project: exit 4', async () => {
    server.reply(
      json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier exists.')),
    );
    const r = await pgs(['delete', ID]);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stderr).toMatch(/RESOURCE_NOT_FOUND/);
  });
});
