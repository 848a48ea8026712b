import { ERROR_CODES, MCP_TOOL_NAMES, OPERATION_ERROR_CODES } from '@pgs/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { bearer } from '../helpers/harness.ts';
import { answerProblems, within } from './check.ts';
import { type FuzzApp, fuzzBudget, startFuzzApp } from './fuzz-app.ts';

/**
 * Issue 19, the fuzz of what reaches the tools: generated MCP messages (tool calls with good,
 * odd and missing arguments, resource reads of real and forged URIs, prompts, lists, unknown
 * methods and shapes), each from one of three keys, to the real app's `/mcp`, alone or in a
 * batch (or an empty batch instead) under an MCP revision with or without batches. Properties:
 * every request is answered, HTTP errors in the envelope (routes.test.ts checks that of
 * every route), no answer is an internal error (a JSON-RPC −32603 or an INTERNAL_ERROR tool
 * error: a tool that throws what it did not expect), every tool error carries a code of the
 * catalogue, a batch that is empty or sent under 2025-06-18 or later is refused as Invalid
 * Request, and a call refused (a tool error or a JSON-RPC error) stores nothing.
 */

const budget = fuzzBudget({ ci: 2_000, local: 300 });
const CODES = new Set<string>([...ERROR_CODES, ...OPERATION_ERROR_CODES]);

interface Sent {
  key: CreatedKey;
  message: Record<string, unknown>;
  /** How it is sent: alone, alone in a batch, or an empty batch instead. */
  shape: 'single' | 'batch' | 'empty';
  /** The `MCP-Protocol-Version` header, when sent. */
  version: string | undefined;
}

/** Whether a body must be refused as a batch: empty, or under a revision without batches. */
const refusedBatch = ({ shape, version }: Sent) =>
  shape === 'empty' || (shape === 'batch' && version !== undefined && version >= '2025-06-18');

describe('fuzzing the MCP tools, resources and prompt', () => {
  let fuzz: FuzzApp;
  beforeAll(async () => {
    fuzz = await startFuzzApp();
  });
  afterAll(async () => fuzz?.close());

  const messageArb = (): fc.Arbitrary<Sent> => {
    const t = fuzz.targets;
    const odd = fc.oneof(
      fc.constantFrom<unknown>(
        null,
        true,
        0,
        -1,
        1.5,
        1e308,
        '',
        ' ',
        '__proto__',
        '\u00e9',
        [],
        {},
      ),
      fc.string({ maxLength: 40 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const ids = fc.constantFrom(
      ...t.ownProjects,
      ...t.otherProjects,
      '00000000-0000-4000-8000-000000000000',
      t.ownProjects[0]!.toUpperCase(),
      'not-a-uuid',
    );
    const filenames = fc.constantFrom(...t.filenames, 'README.md', 'NOPE.md', '../x', '.env', '');
    const good: Record<string, fc.Arbitrary<unknown>> = {
      idea: fc.constantFrom(
        'A web dashboard where community gardeners share compost schedules.',
        'short',
        'x'.repeat(5_001),
      ),
      type: fc.constantFrom('web', 'mobile', 'mcp', 'desktop'),
      name: fc.constantFrom('Compost', '', 'x'.repeat(81)),
      // Never true: a held project (no worker here) would hold the call to its deadline.
      wait: fc.constantFrom(false, 'true', 1),
      projectId: ids,
      filename: filenames,
      limit: fc.oneof(fc.integer({ min: -2, max: 102 }), fc.constant(2.5)),
      status: fc.constantFrom('in_progress', 'completed', 'failed', 'done'),
    };
    const argumentsArb = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(
            fc.subarray(Object.keys(good)),
            fc.array(fc.tuple(fc.constantFrom('extra', 'revision', 'constructor'), odd), {
              maxLength: 1,
            }),
          )
          .chain(([names, extra]) =>
            fc
              .tuple(
                ...names.map((name) =>
                  fc.oneof({ weight: 4, arbitrary: good[name]! }, { weight: 1, arbitrary: odd }),
                ),
              )
              .map((values) =>
                Object.fromEntries([...names.map((name, i) => [name, values[i]]), ...extra]),
              ),
          ),
      },
      { weight: 1, arbitrary: odd },
    );
    const uri = fc.oneof(
      fc
        .tuple(ids, filenames)
        .map(([id, filename]) => `pgs://projects/${id}/documents/${filename}`),
      fc.constantFrom('pgs://projects/', 'file:///etc/passwd', 'https://example.com/x.md', ''),
      fc.string({ maxLength: 60 }),
    );
    const params = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .tuple(fc.constantFrom(...MCP_TOOL_NAMES, 'revise_project', '__proto__'), argumentsArb)
          .map(([name, args]) => ['tools/call', { name, arguments: args }] as const),
      },
      { weight: 2, arbitrary: uri.map((u) => ['resources/read', { uri: u }] as const) },
      {
        weight: 1,
        arbitrary: fc.oneof(ids, odd).map((cursor) => ['resources/list', { cursor }] as const),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom('new_project_spec', 'other'),
            fc.dictionary(fc.constantFrom('idea', 'type', 'x'), fc.string({ maxLength: 20 })),
          )
          .map(([name, args]) => ['prompts/get', { name, arguments: args }] as const),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom(
              'tools/list',
              'resources/templates/list',
              'prompts/list',
              'ping',
              'nope',
            ),
            fc.oneof(fc.constant(undefined), odd),
          )
          .map(([method, p]) => [method, p] as const),
      },
    );
    const shape = fc.oneof(
      { weight: 8, arbitrary: fc.constant('single' as const) },
      { weight: 1, arbitrary: fc.constantFrom('batch' as const, 'empty' as const) },
    );
    const version = fc.constantFrom(undefined, '2025-03-26', '2025-06-18', '2025-11-25');
    return fc
      .tuple(
        fc.constantFrom(fuzz.keys.test, fuzz.keys.live, fuzz.keys.other),
        params,
        shape,
        version,
      )
      .map(([key, [method, p], shape, version]) => ({
        key,
        message: { jsonrpc: '2.0', id: 7, method, ...(p === undefined ? {} : { params: p }) },
        shape,
        version,
      }));
  };

  it(
    `answers ${budget.runs} generated MCP messages with no internal error, storing nothing when refused`,
    async () => {
      let state = await fuzz.snapshot();
      const property = fc.asyncProperty(messageArb(), async (sent) => {
        const { key, message, shape, version } = sent;
        const url = '/mcp';
        const body = shape === 'single' ? message : shape === 'batch' ? [message] : [];
        const res = await within(
          10_000,
          fuzz.app.inject({
            method: 'POST',
            url,
            headers: {
              ...bearer(key.key),
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...(version === undefined ? {} : { 'mcp-protocol-version': version }),
            },
            payload: JSON.stringify(body),
          }),
          'inject',
        );
        const problems = answerProblems({ method: 'POST', url }, res, undefined);
        const after = await fuzz.snapshot();
        let refused = res.statusCode >= 400;
        if (refusedBatch(sent)) {
          const error = res.statusCode === 400 ? res.json().error : undefined;
          if (error?.details?.jsonrpc_error?.code !== -32600) {
            problems.push(
              'a batch the revision has no room for was not refused as Invalid Request',
            );
          }
        }
        if (res.statusCode === 200) {
          const data = res.body.split('\n').find((line) => line.startsWith('data: '));
          const answer = JSON.parse(data?.slice('data: '.length) ?? 'null') as {
            id?: unknown;
            result?: { isError?: boolean; content?: { type: string; text?: string }[] };
            error?: { code: number };
          } | null;
          if (answer?.id !== 7)
            problems.push(`no answer to the request: ${res.body.slice(0, 200)}`);
          if (answer?.error) {
            refused = true;
            if (answer.error.code === -32603) problems.push('a JSON-RPC internal error');
          } else if (answer?.result?.isError) {
            refused = true;
            const text = answer.result.content?.[0]?.text ?? '';
            const code = (JSON.parse(text) as { error: { code: string } }).error.code;
            if (!CODES.has(code)) problems.push(`tool error code ${code} is not the catalogue's`);
            if (code === 'INTERNAL_ERROR') problems.push(`an INTERNAL_ERROR tool error: ${text}`);
          }
        }
        if (refused && after !== state) problems.push(`refused, yet the state changed`);
        state = after;
        if (problems.length > 0) {
          throw new Error(
            `${problems.join('\n')}\n${key.mode} key, ${shape}, version ${version}: ${JSON.stringify(body).slice(0, 400)}\n→ ${res.statusCode} ${res.body.slice(0, 400)}`,
          );
        }
      });
      const details = await fc.check(property, {
        numRuns: budget.runs,
        ...budget.limit,
        ...(process.env.PGS_FUZZ_SEED ? { seed: Number(process.env.PGS_FUZZ_SEED) } : {}),
      });
      if (details.failed) {
        throw new Error(
          `${fc.defaultReportMessage(details)}\n${(details.errorInstance as Error | undefined)?.message}`,
        );
      }
      console.info(`fuzz (mcp): ${details.numRuns} messages, seed ${details.seed}`);
      expect(details.numRuns).toBeGreaterThanOrEqual(budget.minimum);
    },
    budget.timeoutMs,
  );
});
