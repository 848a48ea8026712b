import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';
import { byModel, ID, offline, unpriced } from './provenance-fixture.ts';

// pgs provenance in-process against a small fake API (see fake-api.ts).

useFakeApi();

describe('pgs provenance', () => {
  it('the offline engine: the table, the totals, then how to configure a model', async () => {
    server.reply(json(200, { success: true, data: offline }));
    const r = await pgs(['provenance', ID]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        `Project ${ID}: completed; written by the offline engine (no AI model).`,
        '',
        'PART           ENGINE   PROMPT                    TOKENS  CACHED  COST  ATTEMPTS  REPAIRS  FINDINGS',
        'definition     offline  definition@2              1500    0       $0    1         0        none',
        'project-brief  offline  project-brief@2+system@2  1500    0       $0    1         0        none',
        'readme         offline  readme@2+system@2         1500    0       $0    1         0        none',
        '',
        'Total: 4500 tokens (0 cached), cost $0, 3 model calls, 0 repairs; findings: none',
        '',
        "The offline engine is PGS's built-in engine: it drafts the documents from the idea by",
        'rules and templates, with no AI model. To generate with a model, set PGS_MODELS on the',
        'server (PGS_TEST_MODELS for test keys) and restart it, for example',
        'PGS_MODELS=openai:gpt-4.1-mini with OPENAI_API_KEY, or',
        'PGS_MODELS=anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY (the README section',
        '"Generating with AI models" has the details).',
        '',
      ].join('\n'),
    );
    expect(server.requests.map((q) => [q.method, q.url])).toEqual([
      ['GET', `/api/v1/projects/${ID}/provenance`],
    ]);
  });

  it('models: who wrote it, the findings by severity and each finding left, no offline note', async () => {
    server.reply(json(200, { success: true, data: byModel }));
    const r = await pgs(['provenance', ID], { tty: true });
    expect(r.code).toBe(EXIT.OK);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `Project ${ID}: completed; written by anthropic:claude-sonnet-4-5 and openai:gpt-4.1-mini.`,
    );
    expect(lines.slice(2, 6)).toEqual([
      'PART                  ENGINE                       PROMPT                           TOKENS  CACHED  COST       ATTEMPTS  REPAIRS  FINDINGS',
      'definition            anthropic:claude-sonnet-4-5  definition@2                     1500    0       $0.010500  1         0        none',
      'project-brief         anthropic:claude-sonnet-4-5  project-brief@2+system@2         28000   20000   $0.057750  1         0        none',
      'product-requirements  openai:gpt-4.1-mini          product-requirements@2+system@2  9000    3000    $0.005100  3         1        1 high, 1 medium',
    ]);
    // The cost is the API's total, not a sum of rounded cells.
    expect(lines).toContain(
      'Total: 38500 tokens (23000 cached), cost $0.073350, 5 model calls, 1 repair; findings: 1 high, 1 medium',
    );
    // The worst first, each with its part.
    expect(lines.slice(-3)).toEqual([
      'Findings the quality gate still reports:',
      '  product-requirements [high] placeholder: A "TBD" is left in "Scope".',
      '  product-requirements [medium] fr-without-task: FR-2 has no task.',
    ]);
    expect(r.stdout).not.toContain('PGS_MODELS');
  });

  it('a project with nothing generated yet says so', async () => {
    server.reply(
      json(200, {
        success: true,
        data: { projectId: ID, status: 'in_progress', definition: null, documents: [] },
      }),
    );
    const r = await pgs(['provenance', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(`Project ${ID}: in progress; nothing generated yet.\n`);
  });

  it('a model without a price: COST unknown, never a guess, and a line naming the engine', async () => {
    server.reply(json(200, { success: true, data: unpriced }));
    const r = await pgs(['provenance', ID]);
    expect(r.code).toBe(EXIT.OK);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^readme +openai-compatible:llama3\.1:8b +readme@2\+system@2 +1500 +0 +unknown +1 /,
      ),
    );
    const total = lines.findIndex((line) => line.startsWith('Total: '));
    expect(lines[total]).toBe(
      'Total: 40000 tokens (23000 cached), cost unknown, 6 model calls, 1 repair; findings: 1 high, 1 medium',
    );
    expect(lines[total + 1]).toBe(
      'unknown: no price is known for openai-compatible:llama3.1:8b (or a model tried before it, ' +
        'or parts stored before PGS recorded costs). PGS_MODEL_PRICES on the server sets prices (docs/cost.md).',
    );
  });

  it('--revision N reads revision N and says so', async () => {
    server.reply(json(200, { success: true, data: offline }));
    const r = await pgs(['provenance', ID, '--revision', '2']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.split('\n')[0]).toBe(
      `Project ${ID}, revision 2: completed; written by the offline engine (no AI model).`,
    );
    expect(server.requests.map((q) => q.url)).toEqual([
      `/api/v1/projects/${ID}/provenance?revision=2`,
    ]);
  });

  it('--revision of a revision the project lacks exits 4 and points at the history', async () => {
    server.reply(
      json(
        404,
        envelope('RESOURCE_NOT_FOUND', 'The project has no revision with this number.', undefined, {
          resource_type: 'revision',
          resource_id: `${ID}/revisions/9`,
        }),
      ),
    );
    const r = await pgs(['provenance', ID, '--revision', '9']);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stderr).toContain('The project has no revision with this number.');
    expect(r.stderr).toContain(`See the project's revisions with: pgs history ${ID}`);
  });

  it('--json: one line, the provenance as the API returns it', async () => {
    server.reply(json(200, { success: true, data: byModel }));
    const r = await pgs(['provenance', ID, '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual(byModel);
  });

  it('an unknown project exits 4, as JSON with --json', async () => {
    server.reply(json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier.')));
    const r = await pgs(['provenance', ID]);
    expect(r.code).toBe(EXIT.NOT_FOUND);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No project with this identifier.');
    server.reply(json(404, envelope('RESOURCE_NOT_FOUND', 'No project with this identifier.')));
    const missing = await pgs(['provenance', ID, '--json']);
    expect(missing.code).toBe(EXIT.NOT_FOUND);
    expect(JSON.parse(missing.stderr)).toMatchObject({
      success: false,
      error: { code: 'RESOURCE_NOT_FOUND' },
    });
  });

  it('usage errors exit 2 before any request; --help lists it', async () => {
    for (const argv of [
      ['provenance'],
      ['provenance', ID, 'extra'],
      ['provenance', ID, '--layout', 'kiro'],
      ['provenance', ID, '--revision', '0'],
      ['provenance', ID, '--revision', 'two'],
    ]) {
      expect((await pgs(argv)).code, argv.join(' ')).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
    const help = await pgs(['provenance', '--help']);
    expect(help.code).toBe(EXIT.OK);
    expect(help.stdout).toContain('Usage: pgs provenance ID [--revision N] [--json]');
    expect(help.stdout).toContain('PGS_MODEL_PRICES');
    expect(help.stdout).toContain('PGS_MODELS');
    const all = await pgs(['--help']);
    expect(all.stdout).toMatch(
      /^ {2}provenance +Show which engine wrote each part of a project, and what the gate found$/m,
    );
  });
});
