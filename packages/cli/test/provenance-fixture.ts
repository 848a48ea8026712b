import type { PartProvenance, Provenance } from '@pgs/client';

// Provenances served by the fake API, shared by provenance.test.ts and cost.test.ts.

/** A project id. */
export const ID = '7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21';

/** A part of the offline engine, with `extra` over it. */
export const part = (kind: string, extra: Partial<PartProvenance> = {}): PartProvenance => ({
  kind,
  engine: 'offline',
  promptVersion: `${kind}@2+system@2`,
  inputTokens: 1000,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 500,
  tokensUsed: 1500,
  costUsd: 0,
  attempts: 1,
  repairs: 0,
  durationMs: 120,
  initialFindings: [],
  findings: [],
  trimmedContext: [],
  createdAt: '2026-11-25T03:35:27.000Z',
  ...extra,
});

/** Every part by the offline engine: $0. */
export const offline: Provenance = {
  projectId: ID,
  status: 'completed',
  detail: 'standard',
  requirementStyle: 'ears',
  conventionsVersion: null,
  language: null,
  writtenInEnglish: [],
  context: null,
  totals: {
    inputTokens: 3000,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 1500,
    costUsd: 0,
  },
  definition: part('definition', { promptVersion: 'definition@2' }),
  documents: [part('project-brief'), part('readme')],
};

/** Parts by two models, priced as docs/cost.md prices them: $0.010500 + $0.057750 + $0.005100. */
export const byModel: Provenance = {
  projectId: ID,
  status: 'completed',
  detail: 'standard',
  requirementStyle: 'ears',
  conventionsVersion: null,
  language: null,
  writtenInEnglish: [],
  context: null,
  totals: {
    inputTokens: 34000,
    cachedInputTokens: 23000,
    cacheWriteTokens: 5000,
    outputTokens: 4500,
    costUsd: 0.07335,
  },
  definition: part('definition', {
    engine: 'anthropic:claude-sonnet-4-5',
    promptVersion: 'definition@2',
    costUsd: 0.0105,
  }),
  documents: [
    part('project-brief', {
      engine: 'anthropic:claude-sonnet-4-5',
      inputTokens: 26000,
      cachedInputTokens: 20000,
      cacheWriteTokens: 5000,
      outputTokens: 2000,
      tokensUsed: 28000,
      costUsd: 0.05775,
    }),
    part('product-requirements', {
      engine: 'openai:gpt-4.1-mini',
      inputTokens: 7000,
      cachedInputTokens: 3000,
      outputTokens: 2000,
      tokensUsed: 9000,
      costUsd: 0.0051,
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

/** One part by a model without a price: its cost, and so the total, is unknown. */
export const unpriced: Provenance = {
  ...byModel,
  totals: { ...byModel.totals, inputTokens: 35000, outputTokens: 5000, costUsd: null },
  documents: [
    ...byModel.documents,
    part('readme', { engine: 'openai-compatible:llama3.1:8b', costUsd: null }),
  ],
};
