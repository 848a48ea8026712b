import type { PartProvenance, Provenance } from '@pgs/client';
import { describe, expect, it } from 'vitest';
import { envelope, json } from '../../client/test/http-server.ts';
import { EXIT } from '../src/index.ts';
import { pgs, server, useFakeApi } from './fake-api.ts';

const NO_TOTALS = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  costUsd: null,
};

// pgs provenance in-process against a small fake API (see fake-api.ts).

const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';

const part = (kind: string, extra: Partial<PartProvenance> = {}): PartProvenance => ({
  kind,
  engine: 'offline',
  promptVersion: `${kind}@2+system@2`,
  inputTokens: 1000,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 500,
  tokensUsed: 1500,
  costUsd: null,
  attempts: 1,
  repairs: 0,
  durationMs: 120,
  initialFindings: [],
  findings: [],
  trimmedContext: [],
  createdAt: '2026-11-25T03:35:27.000Z',
  ...extra,
});

const offline: Provenance = {
  projectId: ID,
  status: 'completed',
  totals: NO_TOTALS,
  definition: part('definition', { promptVersion: 'definition@2' }),
  documents: [part('project-brief'), part('readme')],
};

const byModel: Provenance = {
  projectId: ID,
  status: 'completed',
  totals: NO_TOTALS,
  definition: part('definition', {
    engine: 'anthropic:claude-sonnet-4-5',
    promptVersion: 'definition@2',
  }),
  documents: [
    part('project-brief', { engine: 'anthropic:claude-sonnet-4-5' }),
    part('product-requirements', {
      engine: 'openai:gpt-4.1-mini',
      tokensUsed: 9000,
      attempts: 3,
      repairs: 1,
      initialFindings: [{ rule: 'missing-section', severity: 'high', message: 'No "Goals".' }],
      findings: [
        { rule: 'fr-without-task', severity: 'medium', message: 'FR-2 has no task.' },
        { rule: 'placeholder', severity: 'high', message: 'A "TBD" is left in "Scope".' },
      ],
    }),
  ],
};

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
        'PART           ENGINE   PROMPT                    TOKENS  ATTEMPTS  REPAIRS  FINDINGS',
        'definition     offline  definition@2              1500    1         0        none',
        'project-brief  offline  project-brief@2+system@2  1500    1         0        none',
        'readme         offline  readme@2+system@2         1500    1         0        none',
        '',
        'Total: 4500 tokens, 3 model calls, 0 repairs; findings: none',
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
    expect(lines).toContain(
      'product-requirements  openai:gpt-4.1-mini          product-requirements@2+system@2  9000    3         1        1 high, 1 medium',
    );
    expect(lines).toContain(
      'Total: 12000 tokens, 5 model calls, 1 repair; findings: 1 high, 1 medium',
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
    ]) {
      expect((await pgs(argv)).code, argv.join(' ')).toBe(EXIT.USAGE);
    }
    expect(server.requests).toHaveLength(0);
    const help = await pgs(['provenance', '--help']);
    expect(help.code).toBe(EXIT.OK);
    expect(help.stdout).toContain('Usage: pgs provenance ID [--json]');
    expect(help.stdout).toContain('PGS_MODELS');
    const all = await pgs(['--help']);
    expect(all.stdout).toMatch(
      /^ {2}provenance +Show which engine wrote each part of a project, and what the gate found$/m,
    );
  });
});
