/** A schema as the MCP SDK's request schemas offer it (zod's `safeParse`), structurally. */
export interface McpRequestSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** A JSON-RPC error answer. */
export interface McpErrorResponse {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string; data: Record<string, unknown> };
}

/**
 * The InvalidParams answer to a request whose params do not have its method's shape
 * (`arguments: null`, a `uri` that is a number), or undefined when the request is fine or
 * not one of `schemas`. Both MCP servers check a request with it before the SDK's dispatch,
 * which parses params itself and answers a failed parse as an internal error (−32603),
 * blaming the server for the client's request (found by the MCP fuzz). `data` names the
 * fields as the API's VALIDATION_ERROR does.
 *
 * @example
 * const refusal = invalidParamsResponse(message, { 'tools/call': CallToolRequestSchema });
 * if (refusal) return transport.send(refusal);
 */
export function invalidParamsResponse(
  message: unknown,
  schemas: Readonly<Record<string, McpRequestSchema>>,
): McpErrorResponse | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (typeof method !== 'string' || !Object.hasOwn(schemas, method)) return undefined;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const parsed = schemas[method]!.safeParse(message);
  if (parsed.success) return undefined;
  const invalid: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path.map(String).join('.') || 'params';
    invalid[field] ??= issue.message;
  }
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32602,
      message: `The params of ${method} are not valid: ${Object.keys(invalid).join(', ')}.`,
      data: { code: 'VALIDATION_ERROR', details: { invalid_fields: invalid } },
    },
  };
}
