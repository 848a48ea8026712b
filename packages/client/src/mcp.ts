import {
  answeredResult,
  checkArguments,
  claimedTaskResult,
  clarifyResult,
  conformanceResult,
  creditsResult,
  DOCUMENT_RESOURCE_TEMPLATE,
  DOCUMENT_URI_TEMPLATE,
  DOCUMENTS_PER_TYPE,
  documentResource,
  documentResult,
  documentUri,
  GenerationProgress,
  getPrompt,
  invalidParamsResponse,
  MCP_CONSTRAINTS,
  MCP_INSTRUCTIONS,
  MCP_RESOURCE_NOT_FOUND,
  MCP_SERVER_INFO,
  MCP_TOOL_NAMES,
  MCP_TOOLS,
  NEW_PROJECT_SPEC_PROMPT,
  parseDocumentUri,
  projectListResult,
  projectQuestionsResult,
  projectResult,
  protocolErrorCode,
  SINGLE_LINE_FORMAT,
  syncResult,
  taskListResult,
  toolError,
  traceResult,
  updatedTaskResult,
} from '@pgs/contract';

export type {
  ArgumentProblems as McpArgumentProblems,
  CheckedArguments as McpCheckedArguments,
  DocumentResource as McpDocumentResource,
  McpEmbeddedResource,
  McpErrorResponse,
  McpJsonSchema,
  McpProgress,
  McpRequestSchema,
  McpResourceLink,
  McpTextContent,
  McpToolAnnotations,
  McpToolDefinition,
  McpToolErrorInit,
  McpToolName,
  McpToolResult,
  PromptOutcome as McpPromptOutcome,
} from '@pgs/contract';

/**
 * PGS over the Model Context Protocol, what an MCP server of PGS needs besides the API
 * calls: the tool definitions, argument checks, results, progress, the document resources
 * and the prompt, exactly as the server's `/mcp` uses them (they come from the contract).
 * The CLI's stdio bridge, `pgs mcp`, is built on them; so can your own. The types are
 * exported beside it (`McpToolResult`, `McpToolName`…).
 *
 * @example
 * import { mcp, Pgs } from '@pgs/client';
 * const tools = mcp.MCP_TOOLS; // what tools/list answers
 * const result = mcp.projectResult(await new Pgs({ apiKey }).projects.get(projectId));
 */
export const mcp = {
  MCP_TOOLS,
  MCP_TOOL_NAMES,
  MCP_SERVER_INFO,
  MCP_INSTRUCTIONS,
  MCP_CONSTRAINTS,
  MCP_RESOURCE_NOT_FOUND,
  DOCUMENT_URI_TEMPLATE,
  DOCUMENT_RESOURCE_TEMPLATE,
  DOCUMENTS_PER_TYPE,
  NEW_PROJECT_SPEC_PROMPT,
  checkArguments,
  projectResult,
  projectListResult,
  documentResult,
  creditsResult,
  traceResult,
  taskListResult,
  claimedTaskResult,
  updatedTaskResult,
  conformanceResult,
  syncResult,
  clarifyResult,
  projectQuestionsResult,
  answeredResult,
  toolError,
  GenerationProgress,
  SINGLE_LINE_FORMAT,
  documentUri,
  documentResource,
  parseDocumentUri,
  protocolErrorCode,
  getPrompt,
  invalidParamsResponse,
} as const;
