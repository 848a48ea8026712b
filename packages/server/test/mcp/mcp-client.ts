import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/**
 * The official SDK's client on Streamable HTTP to `<base>/mcp` with `key` as a Bearer token,
 * connected (initialize done).
 *
 * @example
 * const client = await connectMcp(url, key.key);
 */
export async function connectMcp(
  base: string,
  key: string,
  options: Pick<StreamableHTTPClientTransportOptions, 'fetch'> = {},
): Promise<Client> {
  const client = new Client({ name: 'pgs-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', base), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      ...options,
    }),
  );
  return client;
}

/** The catalogue error a tool error carries (asserting it is one). */
export interface ToolErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  request_id?: string;
}

/**
 * The error of a tool result: asserts `isError` and parses its one text, the API's error.
 *
 * @example
 * expect(toolErrorOf(await client.callTool({ name: 'get_project', arguments })).code).toBe('RESOURCE_NOT_FOUND');
 */
export function toolErrorOf(result: unknown): ToolErrorBody {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const first = r.content[0];
  if (first?.type !== 'text') throw new Error(`no text in ${JSON.stringify(r)}`);
  return (JSON.parse(first.text) as { error: ToolErrorBody }).error;
}

/**
 * The structured content of a successful tool result (asserting it is one, with a short
 * text first).
 *
 * @example
 * const { balance } = structured<{ balance: number }>(await client.callTool({ name: 'get_credits' }));
 */
export function structured<T>(result: unknown): T {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r).slice(0, 500)).toBe(false);
  expect(r.content[0]?.type).toBe('text');
  return r.structuredContent as T;
}
