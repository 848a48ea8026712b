import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';
import { byModel, ID, offline, part, unpriced } from './provenance-fixture.ts';

// pgs cost in-process against a small fake API (see fake-api.ts).

useFakeApi();

describe('pgs cost', () => {
  it('models on a terminal: the total, a row per part, the total row, the cache share', async () => {
    server.reply(json(200, { success: true, data: byModel }));
    const r = await pgs(['cost', ID], { tty: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        `Project ${ID}: completed; cost $0.073350.`,
        '',
        'PART                  ENGINE                       INPUT  CACHED  CACHE WRITE  OUTPUT  COST',
        'definition            anthropic:claude-sonnet-4-5  1000   0       0            500     $0.010500',
        'project-brief         anthropic:claude-sonnet-4-5  26000  20000   5000         2000    $0.057750',
        'product-requirements  openai:gpt-4.1-mini          7000   3000    0            2000    $0.005100',
        'total                                              34000  23000   5000         4500    $0.073350',
        '',
        'Cache served 68 % of input tokens (23000 of 34000).',
        '',
      ].join('\n'),
    );
    expect(server.requests.map((q) => [q.method, q.url])).toEqual([
      ['GET', `/api/v1/projects/${ID}/provenance`],
    ]);
  });

  it('a model without a price: unknown, never a guess, with a line naming the engine', async () => {
    server.reply(json(200, { success: true, data: unpriced }));
    const r = await pgs(['cost', ID], { tty: true });
    expect(r.code).toBe(EXIT.OK);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Project ${ID}: completed; cost unknown.`);
    expect(lines).toContainEqual(
      expect.stringMatching(/^readme +openai-compatible:llama3\.1:8b +1000 +0 +0 +500 +unknown$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^total +35000 +23000 +5000 +5000 +unknown$/),
    );
    expect(lines.slice(-2)).toEqual([
      'Cache served 66 % of input tokens (23000 of 35000).',
      'unknown: no price is known for openai-compatible:llama3.1:8b (or a model tried before it, ' +
        'or parts stored before PGS recorded costs). PGS_MODEL_PRICES on the server sets prices (docs/cost.md).',
    ]);
  });

  it('an unknown cost on the offline engine is a fallback or an old part, not a price it lacks', async () => {
    const fallback = {
      ...offline,
      totals: { ...offline.totals, costUsd: null },
      documents: [part('project-brief'), part('readme', { costUsd: null }), part('impact')],
    };
    server.reply(json(200, { success: true, data: fallback }));
    const r = await pgs(['cost', ID], { tty: true });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^readme +offline .* unknown$/));
    expect(lines.slice(-2)).toEqual([
      'unknown: the offline engine is free, but a model tried before it has no price (or parts ' +
        'stored before PGS recorded costs). PGS_MODEL_PRICES on the server sets prices (docs/cost.md).',
      "$0: the offline engine, PGS's built-in engine with no AI model, is free.",
    ]);
  });

  it('the offline engine: $0 everywhere, and a note that it is free', async () => {
    server.reply(json(200, { success: true, data: offline }));
    const r = await pgs(['cost', ID], { tty: true });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        `Project ${ID}: completed; cost $0.`,
        '',
        'PART           ENGINE   INPUT  CACHED  CACHE WRITE  OUTPUT  COST',
        'definition     offline  1000   0       0            500     $0',
        'project-brief  offline  1000   0       0            500     $0',
        'readme         offline  1000   0       0            500     $0',
        'total                   3000   0       0            1500    $0',
        '',
        'Cache served 0 % of input tokens (0 of 3000).',
        "$0: the offline engine, PGS's built-in engine with no AI model, is free.",
        '',
      ].join('\n'),
    );
  });

  it('piped: one tab-separated line per part and the total line, no header, no notes', async () => {
    server.reply(json(200, { success: true, data: unpriced }));
    const r = await pgs(['cost', ID]);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout).toBe(
      [
        'definition\tanthropic:claude-sonnet-4-5\t1000\t0\t0\t500\t$0.010500',
        'project-brief\tanthropic:claude-sonnet-4-5\t26000\t20000\t5000\t2000\t$0.057750',
        'product-requirements\topenai:gpt-4.1-mini\t7000\t3000\t0\t2000\t$0.005100',
        'readme\topenai-compatible:llama3.1:8b\t1000\t0\t0\t500\tunknown',
        'total\t\t35000\t23000\t5000\t5000\tunknown',
        '',
      ].join('\n'),
    );
  });

  it('nothing generated yet: says so on a terminal, a zero total line piped', async () => {
    const empty = {
      projectId: ID,
      status: 'in_progress',
      totals: { ...offline.totals, inputTokens: 0, outputTokens: 0 },
      definition: null,
      documents: [],
    };
    server.reply(json(200, { success: true, data: empty }));
    const tty = await pgs(['cost', ID], { tty: true });
    expect(tty.code).toBe(EXIT.OK);
    expect(tty.stdout).toBe(`Project ${ID}: in progress; nothing generated yet.\n`);
    const piped = await pgs(['cost', ID]);
    expect(piped.stdout).toBe('total\t\t0\t0\t0\t0\t$0\n');
  });

  it('--json: one line, the totals and the parts as the API serves them', async () => {
    server.reply(json(200, { success: true, data: unpriced }));
    const r = await pgs(['cost', ID, '--json']);
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({
      projectId: ID,
      status: 'completed',
      totals: unpriced.totals,
      parts: [unpriced.definition, ...unpriced.documents],
    });
    // null stays null: an unknown cost is not written as 0.
    expect(JSON.parse(r.stdout).totals.costUsd).toBeNull();
  });

  it('--revision N reads revision N and says so', async () => {
    server.reply(json(200, { success: true, data: byModel }));
    const r = await pgs(['cost', ID, '--revision', '3'], { tty: true });
    expect(r.code).toBe(EXIT.OK);
    expect(r.stdout.split('\n')[0]).toBe(`Project ${ID}, revision 3: completed; cost $0.073350.`);
    expect(server.requests.map((q) => q.url)).toEqual([
      `/api/v1/projects/${ID}/provenance?revision=3`,
    ]);
  });

  it('a revision that failed exits 12 and points at the history', async () => {
    server.reply(
      json(
        409,
        envelope(
          'PROJECT_NOT_COMPLETED',
          'Revision 2 failed, so it has no documents; its credits were refunded.',
          undefined,
          { resource_type: 'revision', resource_id: `${ID}/revisions/2`, status: 'failed' },
        ),
      ),
    );
    const r = await pgs(['cost', ID, '--revision', '2']);
    expect(r.code).toBe(EXIT.CONFLICT);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Revision 2 failed');
    expect(r.stderr).toContain(`See the project's revisions with: pgs history ${ID}`);
  });

  it('usage errors exit 2 before any request; --help and the program help list it', async () => {
    for (const argv of [
      ['cost'],
      ['cost', ID, 'extra'],
      ['cost', ID, '--revision', '0'],
      ['cost', ID, '--revision', '1.5'],
      ['cost', ID, '--layout', 'kiro'],
    ]) {
      expect((await pgs(argv)).code, argv.join(' ')).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
    const help = await pgs(['cost', '--help']);
    expect(help.code).toBe(EXIT.OK);
    expect(help.stdout).toContain('Usage: pgs cost ID [--revision N] [--json]');
    expect(help.stdout).toContain('PGS_MODEL_PRICES');
    expect(help.stdout).toContain('Exit codes:');
    const all = await pgs(['--help']);
    expect(all.stdout).toMatch(/^ {2}cost +Show what a project's model calls cost, part by part$/m);
  });
});
