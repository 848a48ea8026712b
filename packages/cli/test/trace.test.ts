import type { Trace } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';

// pgs trace in-process against a small fake API (see fake-api.ts).

const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';

const requirement = (
  n: number,
  extra: Partial<Trace['coverage']['requirements'][number]> = {},
) => ({
  id: `FR-${n}`,
  title: `Requirement ${n}`,
  priority: 'must' as const,
  criteria: [`FR-${n}.1`, `FR-${n}.2`],
  stories: [`US-${n}`],
  components: ['Reminder worker'],
  tasks: [`T-${n}`],
  ...extra,
});

const trace: Trace = {
  nodes: [],
  edges: [],
  coverage: {
    requirements: [
      requirement(1),
      requirement(2, {
        title:
          'A signed-in user can meet online in at most three steps and sees the result immediately, every time',
        priority: 'should',
        criteria: [],
        stories: ['US-2', 'US-3', 'US-4', 'US-5', 'US-6'],
        components: [],
        tasks: [],
      }),
      (({ priority: _, ...fr }) => fr)(requirement(3, { stories: [] })),
    ],
    totals: {
      frs: 3,
      withCriterion: 2,
      withStory: 2,
      withComponent: 2,
      withTask: 2,
      musts: 1,
      mustsWithStory: 1,
    },
  },
  findings: [
    {
      rule: 'task-dependency',
      severity: 'critical',
      message: 'T-1 and T-3 depend on each other.',
      document: 'IMPLEMENTATION_PLAN.md',
      section: 'Tasks',
      ids: ['T-1', 'T-3'],
    },
    {
      rule: 'fr-without-criterion',
      severity: 'high',
      message: 'FR-2 has no acceptance criteria.',
      document: 'PRODUCT_REQUIREMENTS.md',
      section: 'Functional requirements',
      ids: ['FR-2'],
    },
    {
      rule: 'fr-without-task',
      severity: 'high',
      message: 'FR-2 is not implemented by any task.',
      document: 'PRODUCT_REQUIREMENTS.md',
      ids: ['FR-2'],
    },
    { rule: 'near-empty-section', severity: 'medium', message: 'The section is nearly empty.' },
  ],
};
// Properties whose value is undefined are not sent: what the API would have answered.
const answered = JSON.parse(JSON.stringify(trace)) as Trace;

useFakeApi();

describe('pgs trace', () => {
  it('prints the coverage matrix with its gaps, the totals, then the findings by severity', async () => {
    server.reply(json(200, { success: true, data: trace }));
    const r = await pgs(['trace', ID], { tty: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        'Coverage: 3 requirements, 2 with a gap (GAP)',
        '',
        'ID    PRIORITY  CRITERIA  STORIES            COMPONENTS       TASKS  TITLE',
        'FR-1  must      2         US-1               Reminder worker  T-1    Requirement 1',
        'FR-2  should    GAP       US-2 US-3 US-4 +2  GAP              GAP    A signed-in user can meet online in at most three steps and…',
        'FR-3  -         2         GAP                Reminder worker  T-3    Requirement 3',
        '',
        'Totals: 2 of 3 with criteria, 2 with a story, 2 with a component, 2 with a task; 1 of 1 Must with a story',
        '',
        'Findings: 4 (1 critical, 2 high, 1 medium, 0 low)',
        '',
        'CRITICAL (1)',
        '  task-dependency: T-1 and T-3 depend on each other. [IMPLEMENTATION_PLAN.md › Tasks]',
        '',
        'HIGH (2)',
        '  fr-without-criterion: FR-2 has no acceptance criteria. [PRODUCT_REQUIREMENTS.md › Functional requirements]',
        '  fr-without-task: FR-2 is not implemented by any task. [PRODUCT_REQUIREMENTS.md]',
        '',
        'MEDIUM (1)',
        '  near-empty-section: The section is nearly empty.',
        '',
      ].join('\n'),
    );
    expect(server.requests.map((q) => [q.method, q.url])).toEqual([
      ['GET', `/api/v1/projects/${ID}/trace`],
    ]);
  });

  it("adds the latest conformance check's totals in one line after the coverage totals", async () => {
    const conformance = {
      checkId: 'chk_01JD6WQ8V4Z9K3M2N5P7R8S0TA',
      createdAt: '2026-11-28T15:00:00.123Z',
      tested: 1,
      implemented: 1,
      missing: 1,
      drift: 2,
    };
    server.reply(json(200, { success: true, data: { ...trace, conformance } }));
    const r = await pgs(['trace', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toContain(
      'with a story\nConformance: 1 tested, 1 implemented, 1 missing, 2 drift ' +
        '(check chk_01JD6WQ8V4Z9K3M2N5P7R8S0TA, 2026-11-28T15:00:00Z)\n\nFindings: 4',
    );
  });

  it('piped, the same text: a matrix is read, not cut', async () => {
    server.reply(json(200, { success: true, data: trace }));
    const tty = await pgs(['trace', ID], { tty: true });
    server.reply(json(200, { success: true, data: trace }));
    const piped = await pgs(['trace', ID]);
    expect(piped.stdout).toBe(tty.stdout);
  });

  it('no requirement and no finding say so', async () => {
    const empty: Trace = {
      nodes: [],
      edges: [],
      coverage: {
        requirements: [],
        totals: {
          frs: 0,
          withCriterion: 0,
          withStory: 0,
          withComponent: 0,
          withTask: 0,
          musts: 0,
          mustsWithStory: 0,
        },
      },
      findings: [],
    };
    server.reply(json(200, { success: true, data: empty }));
    const r = await pgs(['trace', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      'Coverage: the documents define no functional requirement (FR-n).\n\nFindings: none\n',
    );
  });

  it('--json: one line, the trace as the API returns it', async () => {
    server.reply(json(200, { success: true, data: trace }));
    const r = await pgs(['trace', ID, '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual(answered);
  });

  it('a project in progress exits 12 and says to wait for it', async () => {
    server.reply(
      json(
        409,
        envelope(
          'PROJECT_NOT_COMPLETED',
          'The project is still being generated; its trace is available once it is completed.',
          undefined,
          { resource_type: 'project', resource_id: ID, status: 'in_progress' },
        ),
      ),
    );
    const r = await pgs(['trace', ID]);
    expect(r.code).toBe(EXIT.CONFLICT);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('its trace is available once it is completed');
    expect(r.stderr).toContain(`Wait for it with: pgs wait ${ID}, then run this command again.`);
    expect(server.requests).toHaveLength(1);

    server.reply(json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier.')));
    const missing = await pgs(['trace', ID, '--json']);
    expect(missing.code).toBe(EXIT.NOT_FOUND);
    expect(JSON.parse(missing.stderr)).toMatchObject({
      success: false,
      error: { code: 'RESOURCE_NOT_FOUND' },
    });
  });

  it('usage errors exit 2 before any request; --help lists it', async () => {
    for (const argv of [['trace'], ['trace', ID, 'extra'], ['trace', ID, '--layout', 'kiro']]) {
      expect((await pgs(argv)).code, argv.join(' ')).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
    const help = await pgs(['trace', '--help']);
    expect(help.code).toBe(EXIT.OK);
    expect(help.stdout).toContain('Usage: pgs trace ID [--json]');
    expect(help.stdout).toContain('GAP');
    const all = await pgs(['--help']);
    expect(all.stdout).toMatch(
      /^ {2}trace +Show a completed project's coverage matrix and findings$/m,
    );
  });
});
