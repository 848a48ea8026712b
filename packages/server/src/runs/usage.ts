import type { CallUsage } from '../models/usage.ts';

/**
 * A part's token usage and cost as the provenance row stores them: tokens as the providers
 * reported them, the cost in whole millionths of a dollar (null when a model had no price).
 *
 * @example
 * await insertProvenance(tx, { projectId, kind, ...usageColumns(produced.usage), … });
 */
export function usageColumns(usage: CallUsage): {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costMicroUsd: number | null;
} {
  return {
    inputTokens: usage.input,
    outputTokens: usage.output,
    cacheReadTokens: usage.cacheRead,
    cacheWriteTokens: usage.cacheWrite,
    costMicroUsd: usage.costUsd === null ? null : Math.round(usage.costUsd * 1e6),
  };
}
