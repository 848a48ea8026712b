import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { getPrompt, NEW_PROJECT_SPEC_PROMPT } from '@pgs/contract';

/**
 * The prompt `new_project_spec`: the client asks its user for the idea and the type, and
 * the prompt asks the agent to call generate_project and read the result. A bad argument
 * is InvalidParams, `data` naming the field as the API's VALIDATION_ERROR does.
 *
 * @example
 * const { messages } = mcpPrompts.get('new_project_spec', { idea: 'A habit tracker for remote teams' });
 */
export const mcpPrompts = {
  list() {
    return { prompts: [NEW_PROJECT_SPEC_PROMPT] };
  },

  get(name: string, args: Record<string, string> | undefined) {
    const outcome = getPrompt(name, args);
    if (outcome.ok) return outcome.result;
    throw new McpError(
      ErrorCode.InvalidParams,
      outcome.message,
      outcome.details && { code: 'VALIDATION_ERROR', details: outcome.details },
    );
  },
};
