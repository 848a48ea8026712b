import { conformanceResult, type McpToolResult } from '@pgs/contract';
import { digestArgument } from '../../conformance/digest.ts';
import type { ConformanceChecks } from '../../conformance/service.ts';
import type { McpCall } from './call.ts';

type Handler = (args: Record<string, unknown>, call: McpCall) => Promise<McpToolResult>;

/**
 * check_conformance (issue 31, item 5) on the service the REST route calls: the same checks of
 * the digest (its shape here, since a tool's schema says only "an object"), the same
 * refusals (another key's project is RESOURCE_NOT_FOUND), the same stored check.
 *
 * @example
 * await conformanceTool(checks).check_conformance({ projectId, repository }, call);
 */
export function conformanceTool(checks: ConformanceChecks): Record<'check_conformance', Handler> {
  return {
    check_conformance: async (args, call) => {
      const projectId = args.projectId as string;
      const repository = digestArgument(args.repository, 'repository');
      const check = await checks.create(call.principal, projectId, { context: { repository } });
      return conformanceResult(check);
    },
  };
}
