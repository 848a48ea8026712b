/**
 * What check_conformance answers (issue 31, item 5), on both MCP servers: the totals and each
 * requirement's status in words, the drift and the suggested change; the check whole in the
 * structured content.
 */
import type { components } from '../generated/types.ts';
import type { McpToolResult } from './results.ts';

type ConformanceCheck = components['schemas']['ConformanceCheck'];

/**
 * The check as an agent reads it.
 *
 * @example
 * conformanceResult(await pgs.projects.conformance.create(projectId, { context: { repository } }));
 */
export function conformanceResult(check: ConformanceCheck): McpToolResult {
  const { report } = check;
  const lines =
    report === undefined
      ? [`Check ${check.id}: ${check.status}${check.error ? ` (${check.error.message})` : ''}.`]
      : [
          `${report.totals.tested} tested, ${report.totals.implemented} implemented, ${report.totals.missing} missing of ${report.totals.requirements} requirements; ${report.totals.drift} drift.`,
          ...report.requirements.map((r) => `- ${r.id} ${r.status}: ${r.title}`),
          ...(report.suggestedChange === null
            ? []
            : [`Suggested change request: ${report.suggestedChange}`]),
        ];
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: {
      checkId: check.id,
      status: check.status,
      ...(check.totals === null ? {} : { totals: check.totals }),
      ...(report === undefined ? {} : { report }),
    },
  };
}
