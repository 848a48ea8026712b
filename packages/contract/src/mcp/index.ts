/**
 * PGS over the Model Context Protocol, the parts both MCP servers share (the API server's
 * `/mcp` and the CLI's `pgs mcp`): tool definitions, argument checks, results, progress,
 * the document resources and the prompt. No dependency: the servers wire them into the
 * official SDK. Decisions: docs/mcp.md.
 */
export {
  type ArgumentProblems,
  type CheckedArguments,
  checkArguments,
  SINGLE_LINE_FORMAT,
  SUPPORTED_KEYWORDS,
} from './arguments.ts';
export { conformanceResult } from './conformance-results.ts';
export { invalidParamsResponse, type McpErrorResponse, type McpRequestSchema } from './params.ts';
export { answeredResult, clarifyResult, projectQuestionsResult } from './question-results.ts';
export {
  DOCUMENT_RESOURCE_TEMPLATE,
  DOCUMENT_URI_TEMPLATE,
  type DocumentResource,
  documentResource,
  documentUri,
  getPrompt,
  MCP_RESOURCE_NOT_FOUND,
  NEW_PROJECT_SPEC_PROMPT,
  type PromptOutcome,
  parseDocumentUri,
  protocolErrorCode,
} from './resources.ts';
export {
  creditsResult,
  DOCUMENTS_PER_TYPE,
  documentResult,
  GenerationProgress,
  type McpEmbeddedResource,
  type McpProgress,
  type McpResourceLink,
  type McpTextContent,
  type McpToolErrorInit,
  type McpToolResult,
  projectListResult,
  projectResult,
  toolError,
  traceResult,
} from './results.ts';
export { syncResult } from './sync-results.ts';
export { claimedTaskResult, taskListResult, updatedTaskResult } from './task-results.ts';
export {
  MCP_CONSTRAINTS,
  MCP_INSTRUCTIONS,
  MCP_SERVER_INFO,
  MCP_TOOL_NAMES,
  MCP_TOOLS,
  type McpJsonSchema,
  type McpToolAnnotations,
  type McpToolDefinition,
  type McpToolName,
} from './tools.ts';
