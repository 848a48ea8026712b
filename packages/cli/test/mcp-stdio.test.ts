import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type Progress,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type McpToolName, mcp, Pgs, PgsAdmin, type Task, type TaskDetail } from '@pgs/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, NODE, type RealServer, ROOT } from '../../client/test/pgs-server.ts';
import { CLI_BIN, runCli, startRealCli, stopRealCli } from './cli-process.ts';

// Issue 19 items 5 and 6 over stdio: `pgs mcp` as a child process, driven by the official
// SDK's client, against the real server (another child process). Every tool has a test of
// its own in TOOL_TESTS, checked against what tools/list answers.

const IDEA = 'A habit tracker for remote teams that nudges people at the right time.';

/** `pgs mcp` started by the SDK's stdio client, the way Claude Desktop or Cursor start it. */
async function connectStdio(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'pgs-cli-tests', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: NODE,
      args: [CLI_BIN, 'mcp'],
      cwd: ROOT,
      env: { ...(cleanEnv() as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

interface ToolErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

function toolErrorOf(result: unknown): ToolErrorBody {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r)).toBe(true);
  const first = r.content[0];
  if (first?.type !== 'text') throw new Error(`no text in ${JSON.stringify(r)}`);
  return (JSON.parse(first.text) as { error: ToolErrorBody }).error;
}

function structured<T>(result: unknown): T {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r).slice(0, 500)).toBe(false);
  expect(r.content[0]?.type).toBe('text');
  return r.structuredContent as T;
}

interface ProjectOut {
  projectId: string;
  status: string;
  name?: string;
  creditsConsumed?: number;
  documents?: { filename: string; uri: string }[];
}

describe('pgs mcp: MCP over stdio, forwarded to the HTTP API', { timeout: 120_000 }, () => {
  let server: RealServer;
  let tmp: string;
  let pgs: Pgs;
  let client: Client;
  let other: string;
  let generated: { project: ProjectOut; progress: Progress[] };

  beforeAll(async () => {
    ({ server, tmp } = await startRealCli());
    pgs = new Pgs({ apiKey: server.apiKey, baseUrl: server.url });
    const admin = new PgsAdmin({ adminToken: await server.adminToken(), baseUrl: server.url });
    other = (await admin.keys.create({ mode: 'test', credits: 100 })).key;
    client = await connectStdio({ PGS_API_KEY: server.apiKey, PGS_BASE_URL: server.url });
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'generate_project', arguments: { idea: IDEA, type: 'web', wait: true } },
      undefined,
      { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
    );
    generated = { project: structured<ProjectOut>(result), progress };
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await stopRealCli(server, tmp);
  });

  /** A test of each tool over stdio; a tool without one fails the first test. */
  const TOOL_TESTS: Record<McpToolName, () => Promise<void>> = {
    async generate_project() {
      const { project, progress } = generated;
      expect(project.status).toBe('completed');
      // The progress steps are the project's stored events, in their order.
      const written: string[] = [];
      for await (const event of pgs.projects.events(project.projectId, { lastEventId: '0' })) {
        if (event.type === 'document.completed') written.push(event.data.filename);
      }
      const total = mcp.DOCUMENTS_PER_TYPE.web;
      expect(progress).toEqual([
        { progress: 0, total, message: expect.stringMatching(/^Generating, about/) },
        ...written.map((filename, i) => ({
          progress: i + 1,
          total,
          message: `${filename} written (${i + 1} of ${total}).`,
        })),
      ]);
      // Without wait: the in-progress status at once.
      const started = structured<ProjectOut>(
        await client.callTool({ name: 'generate_project', arguments: { idea: IDEA, type: 'mcp' } }),
      );
      expect(started.status).toBe('in_progress');
      await pgs.projects.waitForCompletion(started.projectId);
    },
    async get_project() {
      const { project } = generated;
      const status = await pgs.projects.get(project.projectId);
      if (status.status !== 'completed') throw new Error('the project did not complete');
      const result = await client.callTool({
        name: 'get_project',
        arguments: { projectId: project.projectId },
      });
      expect(structured(result)).toEqual(project);
      expect(project).toMatchObject({
        name: status.project.name,
        creditsConsumed: status.metadata.creditsConsumed,
      });
      expect(
        (result.content as { type: string }[]).filter((c) => c.type === 'resource_link'),
      ).toHaveLength(status.project.documents.length);
    },
    async list_projects() {
      const page = await pgs.projects.list({ limit: 100 });
      expect(
        structured(await client.callTool({ name: 'list_projects', arguments: { limit: 100 } })),
      ).toEqual({ projects: page.data, hasMore: page.hasMore });
    },
    async read_document() {
      const { projectId } = generated.project;
      const markdown = await pgs.projects.document(projectId, 'USER_STORIES.md');
      expect(
        structured<{ markdown: string }>(
          await client.callTool({
            name: 'read_document',
            arguments: { projectId, filename: 'USER_STORIES.md' },
          }),
        ).markdown,
      ).toBe(markdown);
    },
    async get_credits() {
      expect(structured(await client.callTool({ name: 'get_credits', arguments: {} }))).toEqual(
        await pgs.credits.get(),
      );
    },
    async get_trace() {
      const { projectId } = generated.project;
      const trace = await pgs.projects.trace(projectId);
      expect(
        structured(await client.callTool({ name: 'get_trace', arguments: { projectId } })),
      ).toEqual({
        projectId,
        totals: trace.coverage.totals,
        requirements: trace.coverage.requirements,
        findings: trace.findings,
        // The plan's delivery, as the REST trace carries it (issue 30).
        progress: trace.progress,
      });
    },
    async list_tasks() {
      const { projectId } = generated.project;
      const tasks = await pgs.projects.tasks.list(projectId);
      expect(tasks.length).toBeGreaterThan(3);
      expect(
        structured(await client.callTool({ name: 'list_tasks', arguments: { projectId } })),
      ).toEqual({ projectId, tasks });
      const done = structured<{ tasks: Task[] }>(
        await client.callTool({ name: 'list_tasks', arguments: { projectId, status: 'done' } }),
      );
      expect(done.tasks).toEqual(await pgs.projects.tasks.list(projectId, { status: 'done' }));
    },
    async next_task() {
      const { projectId } = generated.project;
      const result = await client.callTool({
        name: 'next_task',
        arguments: { projectId, agent: 'stdio-1' },
      });
      const claimed = structured<{ ready: boolean; task: Task; etag: string }>(result);
      expect(claimed).toMatchObject({ ready: true, task: { status: 'in_progress' } });
      expect(claimed.task.lease?.agent).toBe('stdio-1');
      const { etag } = await pgs.projects.tasks.get(projectId, claimed.task.id);
      expect(claimed.etag).toBe(etag);
      // The pack as the server renders it for Accept: text/markdown.
      expect((result.content as { text: string }[])[1]?.text).toBe(
        await pgs.projects.tasks.context(projectId, claimed.task.id, { format: 'markdown' }),
      );
    },
    async update_task() {
      const { projectId } = generated.project;
      // The agent's claim again: the task it holds, and its etag.
      const { task, etag } = structured<{ task: Task; etag: string }>(
        await client.callTool({ name: 'next_task', arguments: { projectId, agent: 'stdio-1' } }),
      );
      const done = structured<{ task: TaskDetail; etag: string }>(
        await client.callTool({
          name: 'update_task',
          arguments: { projectId, taskId: task.id, status: 'done', note: 'Over stdio.', etag },
        }),
      );
      expect(done.task).toMatchObject({ id: task.id, status: 'done', lease: null });
      expect(done.task.history.at(-1)).toMatchObject({ to: 'done', note: 'Over stdio.' });
      expect(
        toolErrorOf(
          await client.callTool({
            name: 'update_task',
            arguments: { projectId, taskId: task.id, status: 'todo', etag },
          }),
        ),
      ).toMatchObject({ code: 'PRECONDITION_FAILED', details: { etag: done.etag } });
    },
    async check_conformance() {
      // The generated project checked against a small repository: the same check the API
      // stores, read back through the SDK.
      const { projectId } = generated.project;
      const repository = {
        name: 'habits',
        files: [{ path: 'src/routes/habits.ts', content: "router.get('/habits', list);\n" }],
        citations: [{ id: 'FR-1.1', path: 'test/habits.test.ts', line: 1, text: "it('FR-1.1')" }],
      };
      const result = structured<{ checkId: string; status: string; report: unknown }>(
        await client.callTool({ name: 'check_conformance', arguments: { projectId, repository } }),
      );
      expect(result.status).toBe('succeeded');
      expect(result.report).toEqual(
        (await pgs.projects.conformance.get(projectId, result.checkId)).report,
      );
    },
    async sync_project() {
      // Forwarded to POST …/syncs through the SDK: a connection the key does not own is the
      // API's 404, as a tool error with its code.
      const { projectId } = generated.project;
      const result = await client.callTool({
        name: 'sync_project',
        arguments: { projectId, connectionId: 'con_01JD3Q2V8Y7K6M5N4P3R2S1T0V' },
      });
      expect(toolErrorOf(result)).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    },
    async clarify_idea() {
      const result = await client.callTool({ name: 'clarify_idea', arguments: { idea: IDEA } });
      expect(structured<{ questions: unknown[] }>(result).questions).toEqual(
        await pgs.ideas.clarify({ idea: IDEA }),
      );
    },
    async answer_questions() {
      // Forwarded to GET …/questions and POST …/answers through the SDK.
      const { projectId } = generated.project;
      const listed = structured<{ questions: { id: string; recommended: string }[] }>(
        await client.callTool({ name: 'answer_questions', arguments: { projectId } }),
      );
      expect(listed.questions).toEqual(await pgs.projects.questions(projectId));
      const refused = await client.callTool({
        name: 'answer_questions',
        arguments: { projectId, answers: { 'Q-99': 'Yes' } },
      });
      expect(toolErrorOf(refused)).toMatchObject({ code: 'VALIDATION_ERROR' });
      const [first] = listed.questions;
      const started = structured<{ revision: number; status: string }>(
        await client.callTool({
          name: 'answer_questions',
          arguments: { projectId, answers: { [first!.id]: first!.recommended } },
        }),
      );
      expect(started).toMatchObject({ status: 'in_progress' });
      // Ended before the tests that read documents go on.
      const revision = await pgs.projects.revisions.waitForCompletion(projectId, started.revision);
      expect(revision).toMatchObject({ status: 'completed' });
      expect(revision.changeRequest).toContain(first!.id);
    },
  };

  it('lists the same tools as /mcp, each described, with schemas and a test of its own', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'pgs' });
    const { tools } = await client.listTools();
    expect(tools).toEqual(JSON.parse(JSON.stringify(mcp.MCP_TOOLS)));
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(Object.hasOwn(TOOL_TESTS, tool.name), `${tool.name} has no test`).toBe(true);
    }
  });

  for (const name of mcp.MCP_TOOL_NAMES) {
    it(`tool ${name}`, async () => TOOL_TESTS[name]());
  }

  it('reads a document as a resource', async () => {
    const { projectId, documents } = generated.project;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(documents!.map((d) => d.uri)),
    );
    const uri = mcp.documentUri(projectId, 'ARCHITECTURE.md');
    const { contents } = await client.readResource({ uri });
    expect(contents).toEqual([
      {
        uri,
        mimeType: 'text/markdown',
        text: await pgs.projects.document(projectId, 'ARCHITECTURE.md'),
      },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([mcp.DOCUMENT_URI_TEMPLATE]);
  });

  it('offers the new_project_spec prompt', async () => {
    const prompt = await client.getPrompt({ name: 'new_project_spec', arguments: { idea: IDEA } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('generate_project');
  });

  it('answers bad arguments with a tool error naming the field', async () => {
    expect(
      toolErrorOf(
        await client.callTool({
          name: 'read_document',
          arguments: { projectId: generated.project.projectId, filename: '../etc/passwd' },
        }),
      ),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { invalid_fields: { filename: expect.stringMatching(/^must match pattern/) } },
    });
  });

  it('answers params of the wrong shape with InvalidParams', async () => {
    await expect(
      client.request({ method: 'resources/read', params: { uri: 42 } }, ReadResourceResultSchema),
    ).rejects.toMatchObject({ code: -32602, data: { code: 'VALIDATION_ERROR' } });
  });

  it("answers another account's project with a not-found tool error", async () => {
    const theirs = await connectStdio({ PGS_API_KEY: other, PGS_BASE_URL: server.url });
    try {
      const error = toolErrorOf(
        await theirs.callTool({
          name: 'get_project',
          arguments: { projectId: generated.project.projectId },
        }),
      );
      expect(error).toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        details: { resource_type: 'project', resource_id: generated.project.projectId },
      });
      await expect(
        theirs.readResource({ uri: generated.project.documents![0]!.uri }),
      ).rejects.toMatchObject({ code: -32002, data: { code: 'RESOURCE_NOT_FOUND' } });
      const { projectId } = generated.project;
      for (const [name, args] of [
        ['list_tasks', { projectId }],
        ['next_task', { projectId, agent: 'intruder' }],
        ['update_task', { projectId, taskId: 'T-1', status: 'done' }],
      ] as const) {
        expect(toolErrorOf(await theirs.callTool({ name, arguments: args }))).toMatchObject({
          code: 'RESOURCE_NOT_FOUND',
          details: { resource_type: 'project' },
        });
      }
    } finally {
      await theirs.close();
    }
  });

  it('answers every call of a bad key with AUTHENTICATION_FAILED, and stops at once without one', async () => {
    const bad = await connectStdio({
      PGS_API_KEY: 'pgs_test_0000000000000000000000000000000000000000',
      PGS_BASE_URL: server.url,
    });
    try {
      expect(toolErrorOf(await bad.callTool({ name: 'get_credits', arguments: {} }))).toMatchObject(
        {
          code: 'AUTHENTICATION_FAILED',
          details: { field: 'authorization', issue: 'invalid_key' },
        },
      );
    } finally {
      await bad.close();
    }
    const none = await runCli(['mcp'], { ...cleanEnv(), PGS_BASE_URL: server.url });
    expect(none.code).toBe(3);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('PGS_API_KEY');
  });
});
