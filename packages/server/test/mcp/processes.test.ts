import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, LISTENING, type Proc, startServerProcess } from '../helpers/process.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/services.ts';
import { connectMcp, structured } from './mcp-client.ts';

const WORKER_RUNNING = /PGS worker running/;
const skip = await postgresUnavailable();

/**
 * Issue 19 item 1: /mcp behind several API processes. Two `PGS_ROLE=api` processes and a
 * worker on one PostgreSQL database; one MCP client whose requests a round-robin "load
 * balancer" (its fetch) spreads over both, so no two consecutive requests reach the same
 * process. Stateless mode needs nothing shared but the database: the client initializes on
 * one, lists on the other, waits for a generation on one (woken by the worker's NOTIFY),
 * and reads its documents on both.
 */
describe.skipIf(skip !== undefined)('MCP across two API processes on PostgreSQL', () => {
  const adminToken = `admin-${randomBytes(16).toString('hex')}`;
  const processes: Proc[] = [];
  let drop: () => Promise<void> = async () => {};
  const bases: string[] = [];
  const served = new Map<string, number>();
  let client: Client;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    const env = { DATABASE_URL: database.url, PGS_ADMIN_TOKEN: adminToken };
    const api1 = startServerProcess({ ...env, PGS_ROLE: 'api' });
    const api2 = startServerProcess({ ...env, PGS_ROLE: 'api' });
    const worker = startServerProcess({ ...env, PGS_ROLE: 'worker' });
    processes.push(api1, api2, worker);
    const [m1, m2] = await Promise.all([
      api1.waitForOutput(LISTENING, 120_000),
      api2.waitForOutput(LISTENING, 120_000),
      worker.waitForOutput(WORKER_RUNNING, 120_000),
    ]);
    bases.push(`http://127.0.0.1:${m1[1]}`, `http://127.0.0.1:${m2[1]}`);
    const created = await callApi(bases[0]!, 'POST', '/admin/v1/keys', adminToken, {
      mode: 'test',
      credits: 1_000,
    });
    expect(created.status).toBe(201);
    let next = 0;
    // The load balancer: each request to the next process in turn.
    const balanced: typeof fetch = (input, init) => {
      const base = bases[next++ % bases.length]!;
      served.set(base, (served.get(base) ?? 0) + 1);
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(new URL(url.pathname, base), init);
    };
    client = await connectMcp(bases[0]!, created.json.data.key, { fetch: balanced });
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await drop();
  });

  it('serves one client from both processes: list, generate with progress, read', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('generate_project');

    const progress: Progress[] = [];
    const generated = structured<{
      projectId: string;
      status: string;
      documents: { uri: string }[];
    }>(
      await client.callTool(
        {
          name: 'generate_project',
          arguments: { idea: 'A noticeboard for a block of flats', type: 'web', wait: true },
        },
        undefined,
        { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
      ),
    );
    expect(generated.status).toBe('completed');
    expect(progress.map((p) => p.progress)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);

    for (let i = 0; i < 2; i++) {
      const again = structured<{ status: string }>(
        await client.callTool({
          name: 'get_project',
          arguments: { projectId: generated.projectId },
        }),
      );
      expect(again.status).toBe('completed');
      const uri = generated.documents[i]!.uri;
      const { contents } = await client.readResource({ uri });
      expect(contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    }
    const credits = structured<{ balance: number }>(
      await client.callTool({ name: 'get_credits', arguments: {} }),
    );
    expect(credits.balance).toBe(1_000 - 47);
    // Both processes answered (the balancer alternates; the client's GET counts too).
    expect([...served.keys()].sort()).toEqual([...bases].sort());
    for (const base of bases) expect(served.get(base)).toBeGreaterThan(2);
  });
});
