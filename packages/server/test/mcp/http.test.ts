import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import {
  DOCUMENT_URI_TEMPLATE,
  MCP_TOOL_NAMES,
  MCP_TOOLS,
  type McpToolName,
  PROJECT_TYPES,
  SINGLE_LINE_RULE,
  type Task,
  type TaskContext,
  type TaskDetail,
} from '@pgs/contract';
import { assertMatchesContract } from '@pgs/contract/testing';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedKey } from '../../src/accounts/service.ts';
import { documentPlan } from '../../src/runs/catalogue.ts';
import { listProjectEvents } from '../../src/storage/sql/events.ts';
import { bearer, type Harness, roomy, startHarness } from '../helpers/harness.ts';
import { completedWithPlan, planDocument } from '../helpers/tasks.ts';
import { waitFor } from '../helpers/wait.ts';
import { connectMcp, structured, toolErrorOf } from './mcp-client.ts';

/**
 * Issue 19 items 1 to 4 and 6, over Streamable HTTP: the official SDK's client against the
 * real app (offline engine, real queue) on an ephemeral port. Every tool has a test of its
 * own in TOOL_TESTS, which the first test checks against what tools/list answers.
 */

const IDEA = 'A habit tracker for remote teams that nudges people at the right time.';

interface ProjectOut {
  projectId: string;
  status: string;
  name?: string;
  description?: string;
  type?: string;
  estimatedCompletionMs?: number;
  creditsConsumed?: number;
  documents?: { filename: string; uri: string }[];
  error?: { code: string; message: string };
}

let h: Harness;
let url: string;
let key: CreatedKey;
let client: Client;
/** A project generate_project ran to its end, with the progress it reported. */
let generated: { project: ProjectOut; progress: Progress[]; content: unknown[] };
/** The project generate_project's test starts without wait: its brief has an undecided question. */
let undecided: string;

const rest = async (path: string, as: CreatedKey = key) => {
  const res = await h.request({ method: 'GET', url: `/api/v1${path}`, headers: bearer(as.key) });
  return res;
};

beforeAll(async () => {
  h = await startHarness('pglite', {
    generation: 'workers',
    rules: roomy('status', 'create', 'list', 'downloads', 'credits', 'mcp', 'tasks'),
  });
  url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  key = await h.createKey('test', { credits: 1_000 });
  client = await connectMcp(url, key.key);
  const progress: Progress[] = [];
  const result = await client.callTool(
    { name: 'generate_project', arguments: { idea: IDEA, type: 'web', wait: true } },
    undefined,
    { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
  );
  generated = {
    project: structured<ProjectOut>(result),
    progress,
    content: result.content as unknown[],
  };
});

afterAll(async () => {
  await client?.close();
  await h?.close();
});

/** A test of each tool, over HTTP; a tool without one fails the first test below. */
const TOOL_TESTS: Record<McpToolName, () => Promise<void>> = {
  async generate_project() {
    // With wait: progress notifications in the order of the project's events, then the end.
    const { project, progress } = generated;
    expect(project.status).toBe('completed');
    const plan = documentPlan('web');
    expect(progress[0]).toMatchObject({ progress: 0, total: plan.length });
    const events = await listProjectEvents(h.database.db, project.projectId);
    const written = events
      .filter((e) => e.type === 'document.completed')
      .map((e) => (e.data as { filename: string }).filename);
    expect(progress.slice(1).map((p) => p.message)).toEqual(
      written.map((filename, i) => `${filename} written (${i + 1} of ${plan.length}).`),
    );
    expect(progress.map((p) => p.progress)).toEqual(plan.map((_, i) => i).concat(plan.length));
    // Charged as createProject charges: the web price, from the key's balance.
    expect(project.creditsConsumed).toBe(47);
    expect((await rest('/credits')).json().data.balance).toBe(1_000 - 47 - spent);

    // Without wait: the in-progress status at once, then get_project follows it. With
    // clarify_idea's answers, facts of the definition, and the language (canonicalised) and
    // requirement style, settings, as createProject's.
    const started = structured<ProjectOut>(
      await client.callTool({
        name: 'generate_project',
        arguments: {
          idea: 'A web app for small veterinary clinics to book appointments online and send vaccine reminders by SMS.',
          answers: { 'sign-in': 'Google Workspace single sign-on only' },
          language: 'PT-br',
          requirementStyle: 'gherkin',
        },
      }),
    );
    spent += 50; // no type: the dearest price is held, then the rest released
    expect(started).toEqual({
      projectId: expect.any(String),
      status: 'in_progress',
      estimatedCompletionMs: expect.any(Number),
    });
    const ended = await waitFor(
      async () => {
        const now = structured<ProjectOut>(
          await client.callTool({
            name: 'get_project',
            arguments: { projectId: started.projectId },
          }),
        );
        return now.status === 'in_progress' ? undefined : now;
      },
      { what: 'the project generated without wait to end' },
    );
    expect(ended.status).toBe('completed');
    undecided = started.projectId;
    spent -= 50 - (ended.creditsConsumed ?? 0);
    const definition = (await rest(`/projects/${started.projectId}`)).json().data.project;
    expect(definition.questionnaire.constraints).toContain(
      'Sign-in: Google Workspace single sign-on only',
    );
    expect((await rest(`/projects/${started.projectId}/provenance`)).json().data).toMatchObject({
      language: 'pt-BR',
      requirementStyle: 'gherkin',
    });
  },

  async clarify_idea() {
    const result = await client.callTool({ name: 'clarify_idea', arguments: { idea: IDEA } });
    const { questions } = structured<{ questions: { id: string }[] }>(result);
    // The questions POST /ideas/clarify asks, free.
    const res = await h.request({
      method: 'POST',
      url: '/api/v1/ideas/clarify',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ idea: IDEA }),
    });
    expect(questions.length).toBeGreaterThan(0);
    expect(questions).toEqual(res.json().data.questions);
  },

  async answer_questions() {
    const { projectId } = generated.project;
    // Without answers: the open entries, as REST lists them.
    type Entry = { id: string; recommended: string; leaveOpen?: true };
    const listed = structured<{ questions: Entry[] }>(
      await client.callTool({ name: 'answer_questions', arguments: { projectId } }),
    );
    expect(listed.questions).toEqual(
      (await rest(`/projects/${projectId}/questions`)).json().data.questions,
    );
    // An entry PGS has nothing to recommend for says so, not its placeholder as a recommendation.
    const other = await client.callTool({
      name: 'answer_questions',
      arguments: { projectId: undecided },
    });
    const open = structured<{ questions: Entry[] }>(other).questions.find(
      (q) => q.leaveOpen === true,
    )!;
    const line = (other.content as { text: string }[])[0]!.text
      .split('\n')
      .find((l) => l.startsWith(`- ${open.id}: `));
    expect(line).toContain('No recommended answer: leave it open');
    expect(line).not.toContain(open.recommended);
    const refused = await client.callTool({
      name: 'answer_questions',
      arguments: { projectId, answers: { 'Q-99': 'Yes' } },
    });
    expect(toolErrorOf(refused)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { invalid_fields: { 'answers.Q-99': expect.any(String) } },
    });
    const first = listed.questions.find((q) => q.leaveOpen !== true);
    const started = structured<{ projectId: string; revision: number; status: string }>(
      await client.callTool({
        name: 'answer_questions',
        arguments: { projectId, answers: { [first!.id]: first!.recommended } },
      }),
    );
    expect(started).toEqual({ projectId, revision: expect.any(Number), status: 'in_progress' });
    const ended = await waitFor(
      async () => {
        const data = (await rest(`/projects/${projectId}/revisions/${started.revision}`)).json()
          .data;
        return data.status === 'in_progress' ? undefined : data;
      },
      { what: 'the answers revision to end' },
    );
    expect(ended.status).toBe('completed');
    spent += ended.metadata.creditsConsumed;
    const left = structured<{ questions: { id: string }[] }>(
      await client.callTool({ name: 'answer_questions', arguments: { projectId } }),
    );
    expect(left.questions.map((q) => q.id)).not.toContain(first!.id);
  },

  async get_project() {
    const { project, content } = generated;
    const status = (await rest(`/projects/${project.projectId}`)).json().data;
    const again = await client.callTool({
      name: 'get_project',
      arguments: { projectId: project.projectId.toUpperCase() },
    });
    expect(structured(again)).toEqual(project);
    expect(project).toMatchObject({
      name: status.project.name,
      description: status.project.description,
      type: 'web',
      creditsConsumed: status.metadata.creditsConsumed,
    });
    const filenames = status.project.documents.map((d: { filename: string }) => d.filename);
    expect(project.documents?.map((d) => d.filename)).toEqual(filenames);
    // A resource link per document, in the same order, after the one-line summary.
    expect(content.slice(1)).toEqual(
      filenames.map((filename: string) => ({
        type: 'resource_link',
        uri: `pgs://projects/${project.projectId}/documents/${filename}`,
        name: filename,
        title: `${status.project.name}: ${filename}`,
        mimeType: 'text/markdown',
      })),
    );
    expect(again.content).toEqual(content);

    const failed = await h.seedProject(key, { status: 'failed' });
    expect(
      structured(await client.callTool({ name: 'get_project', arguments: { projectId: failed } })),
    ).toEqual({
      projectId: failed,
      status: 'failed',
      error: { code: 'generation_failed', message: expect.stringContaining('refunded') },
    });
  },

  async list_projects() {
    const all = structured<{ projects: { projectId: string }[]; hasMore: boolean }>(
      await client.callTool({ name: 'list_projects', arguments: { limit: 100 } }),
    );
    const listed = (await rest('/projects?limit=100')).json();
    expect(all).toEqual({ projects: listed.data, hasMore: listed.has_more });
    expect(all.projects.map((p) => p.projectId)).toContain(generated.project.projectId);
    const one = structured<{ projects: unknown[]; hasMore: boolean }>(
      await client.callTool({ name: 'list_projects', arguments: { limit: 1 } }),
    );
    expect(one.projects).toHaveLength(1);
    expect(one.hasMore).toBe(true);
    const failed = structured<{ projects: { status: string }[] }>(
      await client.callTool({ name: 'list_projects', arguments: { status: 'failed' } }),
    );
    expect(failed.projects.every((p) => p.status === 'failed')).toBe(true);
  },

  async read_document() {
    const { projectId } = generated.project;
    const filename = 'PRODUCT_REQUIREMENTS.md';
    const markdown = (await rest(`/projects/${projectId}/documents/${filename}`)).body;
    const result = await client.callTool({
      name: 'read_document',
      arguments: { projectId, filename },
    });
    const uri = `pgs://projects/${projectId}/documents/${filename}`;
    expect(structured(result)).toEqual({ projectId, filename, uri, markdown });
    expect(result.content).toContainEqual({
      type: 'resource',
      resource: { uri, mimeType: 'text/markdown', text: markdown },
    });
    const missing = toolErrorOf(
      await client.callTool({
        name: 'read_document',
        arguments: { projectId, filename: 'NOPE.md' },
      }),
    );
    expect(missing).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource_type: 'document', resource_id: 'NOPE.md' },
    });
    const failed = await h.seedProject(key, { status: 'failed' });
    expect(
      toolErrorOf(
        await client.callTool({
          name: 'read_document',
          arguments: { projectId: failed, filename },
        }),
      ),
    ).toMatchObject({ code: 'PROJECT_NOT_COMPLETED', details: { status: 'failed' } });
  },

  async get_credits() {
    const credits = structured(await client.callTool({ name: 'get_credits', arguments: {} }));
    expect(credits).toEqual((await rest('/credits')).json().data);
  },

  async get_trace() {
    const { projectId } = generated.project;
    const trace = (await rest(`/projects/${projectId}/trace`)).json().data;
    const result = structured(
      await client.callTool({ name: 'get_trace', arguments: { projectId } }),
    );
    // With the plan's delivery, as the REST trace has it (issue 30).
    expect(trace.progress.tasks.total).toBeGreaterThan(0);
    expect(result).toEqual({
      projectId,
      totals: trace.coverage.totals,
      requirements: trace.coverage.requirements,
      findings: trace.findings,
      progress: trace.progress,
    });
    const running = await h.seedProject(key, { status: 'in_progress' });
    expect(
      toolErrorOf(await client.callTool({ name: 'get_trace', arguments: { projectId: running } })),
    ).toMatchObject({ code: 'PROJECT_NOT_COMPLETED', details: { status: 'in_progress' } });
  },

  async list_tasks() {
    // The generated project's plan, as GET …/tasks lists it, filters included.
    const { projectId } = generated.project;
    const list = async (args: Record<string, unknown>) =>
      structured<{ projectId: string; tasks: Task[] }>(
        await client.callTool({ name: 'list_tasks', arguments: { projectId, ...args } }),
      );
    const all = await list({});
    expect(all.tasks.length).toBeGreaterThan(3);
    expect(all).toEqual({
      projectId,
      tasks: (await rest(`/projects/${projectId}/tasks`)).json().data,
    });
    expect((await list({ status: 'todo' })).tasks).toEqual(all.tasks);
    expect((await list({ status: 'done' })).tasks).toEqual([]);
    expect((await list({ assignee: 'nobody' })).tasks).toEqual([]);
    expect(
      toolErrorOf(
        await client.callTool({ name: 'list_tasks', arguments: { projectId, status: 'finished' } }),
      ),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { invalid_fields: { status: expect.any(String) } },
    });
    const running = await h.seedProject(key, { status: 'in_progress' });
    expect(
      toolErrorOf(await client.callTool({ name: 'list_tasks', arguments: { projectId: running } })),
    ).toMatchObject({ code: 'PROJECT_NOT_COMPLETED', details: { status: 'in_progress' } });
  },

  async next_task() {
    // T-2 waits on T-1: one task is ready, and it goes to the first agent only.
    const projectId = await completedWithPlan(h.database, key, [
      planDocument(2, (n) => (n > 1 ? ['T-1'] : [])),
    ]);
    const claim = (agent: string) =>
      client.callTool({ name: 'next_task', arguments: { projectId, agent, leaseSeconds: 600 } });
    const result = await claim('claude-1');
    const claimed = structured<{ ready: boolean; task: Task; etag: string; context: TaskContext }>(
      result,
    );
    expect(claimed).toMatchObject({
      ready: true,
      task: {
        id: 'T-1',
        status: 'in_progress',
        assignee: 'claude-1',
        lease: { agent: 'claude-1' },
      },
    });
    const read = await rest(`/projects/${projectId}/tasks/T-1`);
    expect(claimed.etag).toBe(read.headers.etag);
    expect(claimed.context).toEqual(
      (await rest(`/projects/${projectId}/tasks/T-1/context`)).json().data,
    );
    // What the agent reads: what to do next, then the pack as GET …/context renders it.
    const markdown = await h.request({
      method: 'GET',
      url: `/api/v1/projects/${projectId}/tasks/T-1/context`,
      headers: { ...bearer(key.key), accept: 'text/markdown' },
    });
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining(`update_task with status done, this etag`) },
      { type: 'text', text: markdown.body },
    ]);
    expect(structured(await claim('codex-1'))).toEqual({ ready: false });
    expect(
      toolErrorOf(
        await client.callTool({
          name: 'next_task',
          arguments: { projectId, agent: 'claude-1\n## Injected' },
        }),
      ),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { invalid_fields: { agent: SINGLE_LINE_RULE } },
    });
  },

  async update_task() {
    const projectId = await completedWithPlan(h.database, key, [planDocument(2)]);
    const update = (args: Record<string, unknown>) =>
      client.callTool({ name: 'update_task', arguments: { projectId, ...args } });
    const { etag } = structured<{ etag: string }>(
      await client.callTool({ name: 'next_task', arguments: { projectId, agent: 'claude-1' } }),
    );
    const note = 'Store and tests in src/store.ts; run npm test.';
    const done = structured<{ task: TaskDetail; etag: string }>(
      await update({ taskId: 'T-1', status: 'done', note, etag }),
    );
    expect(done.task).toMatchObject({ id: 'T-1', status: 'done', lease: null });
    expect(done.task.history.at(-1)).toMatchObject({
      from: 'in_progress',
      to: 'done',
      note,
      keyId: key.keyId,
    });
    expect(done.etag).toBe((await rest(`/projects/${projectId}/tasks/T-1`)).headers.etag);
    // The etag of the claim is stale now; the move back is refused with the current one.
    expect(toolErrorOf(await update({ taskId: 'T-1', status: 'todo', etag }))).toMatchObject({
      code: 'PRECONDITION_FAILED',
      details: { resource_id: 'T-1', etag: done.etag },
    });
    expect(
      toolErrorOf(await update({ taskId: 'T-1', status: 'blocked', etag: done.etag })),
    ).toMatchObject({
      code: 'TASK_TRANSITION_NOT_ALLOWED',
      details: { from: 'done', to: 'blocked', allowed: ['todo', 'obsolete'] },
    });
    // Without an etag, the change applies to the task as it is.
    const blocked = structured<{ task: TaskDetail }>(
      await update({ taskId: 'T-2', status: 'blocked', note: 'Waiting for the CI account.' }),
    );
    expect(blocked.task).toMatchObject({ id: 'T-2', status: 'blocked' });
    expect(toolErrorOf(await update({ taskId: 'T-9', status: 'done' }))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource_type: 'task', resource_id: 'T-9' },
    });
  },

  async check_conformance() {
    // The conformance fixture's spec and repository (docs/conformance.md): the same check as
    // POST …/conformance, stored and read back by REST, its secrets never answered.
    const { DIGEST, FIXTURE_SECRET, SPEC_DOCUMENTS } = await import('../fixtures/conformance.ts');
    const kinds: Record<string, string> = {
      'PRODUCT_REQUIREMENTS.md': 'product-requirements',
      'ARCHITECTURE.md': 'architecture',
      'IMPLEMENTATION_PLAN.md': 'implementation-plan',
    };
    const projectId = await completedWithPlan(
      h.database,
      key,
      SPEC_DOCUMENTS.map((doc) => ({ ...doc, kind: kinds[doc.filename]! })),
    );
    const result = await client.callTool({
      name: 'check_conformance',
      arguments: { projectId, repository: DIGEST },
    });
    expect(JSON.stringify(result)).not.toContain(FIXTURE_SECRET);
    const out = structured<{ checkId: string; status: string; totals: Record<string, number> }>(
      result,
    );
    expect(out).toMatchObject({
      status: 'succeeded',
      totals: { tested: 1, implemented: 1, missing: 1 },
    });
    const stored = (await rest(`/projects/${projectId}/conformance/${out.checkId}`)).json().data;
    expect(structured(result)).toEqual({
      checkId: stored.id,
      status: 'succeeded',
      totals: stored.totals,
      report: stored.report,
    });
    expect(
      toolErrorOf(
        await client.callTool({
          name: 'check_conformance',
          arguments: { projectId, repository: { name: 'x', files: 'none' } },
        }),
      ),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'repository.files' } });
    const other = await h.createKey('test');
    const outsider = await connectMcp(url, other.key);
    try {
      expect(
        toolErrorOf(
          await outsider.callTool({
            name: 'check_conformance',
            arguments: { projectId, repository: DIGEST },
          }),
        ),
      ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    } finally {
      await outsider.close();
    }
  },
  async sync_project() {
    // The REST route's refusals through the same service (a whole sync against the GitHub
    // fake is test/tracker-sync.test.ts): a connection the key does not own is 404, named.
    const { projectId } = generated.project;
    const result = await client.callTool({
      name: 'sync_project',
      arguments: { projectId, connectionId: 'con_01JD3Q2V8Y7K6M5N4P3R2S1T0V', dryRun: true },
    });
    expect(toolErrorOf(result)).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource_type: 'connection' },
    });
    const refused = await client.callTool({
      name: 'sync_project',
      arguments: { projectId, connectionId: 'x', scope: 'everything' },
    });
    expect(toolErrorOf(refused)).toMatchObject({ code: 'VALIDATION_ERROR' });
  },
};
/** Credits the tests spent beyond the first project (kept exact for get_credits). */
let spent = 0;

describe('MCP over Streamable HTTP (/mcp)', () => {
  it('lists every tool with a description, input and output schemas, and a test of its own', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    const problems: string[] = [];
    for (const tool of tools) {
      if (!tool.description?.trim()) problems.push(`${tool.name}: no description`);
      if (tool.inputSchema?.type !== 'object') problems.push(`${tool.name}: no input schema`);
      if (tool.outputSchema?.type !== 'object') problems.push(`${tool.name}: no output schema`);
      if (!Object.hasOwn(TOOL_TESTS, tool.name)) problems.push(`${tool.name}: no test`);
    }
    expect(problems).toEqual([]);
    expect(tools).toEqual(JSON.parse(JSON.stringify(MCP_TOOLS)));
  });

  // 1,500 until issue 31's two tools: check_conformance (125 tokens) and sync_project (145):
  // a tracker push and a repository check are one call each for an agent, or none at all.
  // 1,800 until issue 32's clarify_idea and answer_questions (docs/decisions.md).
  it('keeps the tool definitions under 2,000 tokens (o200k)', async () => {
    const { tools } = await client.listTools();
    const tokens = countTokens(JSON.stringify(tools));
    const instructions = countTokens(client.getInstructions() ?? '');
    console.info(
      `MCP tool definitions: ${tokens} tokens (o200k) for ${tools.length} tools; instructions ${instructions} more`,
    );
    expect(tokens).toBeLessThan(2_000);
  });

  for (const name of MCP_TOOL_NAMES) {
    it(`tool ${name}`, async () => TOOL_TESTS[name]());
  }

  it('initializes statelessly: the server, its capabilities and instructions, no session', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'pgs', version: '1.0.0' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.getInstructions()).toContain('generate_project');
    const res = await fetch(new URL('/mcp', url), {
      method: 'POST',
      headers: {
        ...bearer(key.key),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(await res.text()).toContain('"generate_project"');
  });

  it('reads documents as resources: the template, the listing, a read', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: DOCUMENT_URI_TEMPLATE, mimeType: 'text/markdown' }),
    ]);
    const { projectId, documents } = generated.project;
    const { resources } = await client.listResources();
    expect(resources.filter((r) => r.uri.includes(projectId)).map((r) => r.uri)).toEqual(
      documents?.map((d) => d.uri),
    );
    const uri = documents![0]!.uri;
    const read = await client.readResource({ uri });
    const filename = uri.split('/').at(-1);
    expect(read.contents).toEqual([
      {
        uri,
        mimeType: 'text/markdown',
        text: (await rest(`/projects/${projectId}/documents/${filename}`)).body,
      },
    ]);
    await expect(client.readResource({ uri: 'https://example.com/x.md' })).rejects.toMatchObject({
      code: -32602,
      data: { code: 'VALIDATION_ERROR' },
    });
    await expect(
      client.readResource({ uri: `pgs://projects/${projectId}/documents/NOPE.md` }),
    ).rejects.toMatchObject({ code: -32002, data: { code: 'RESOURCE_NOT_FOUND' } });
  });

  it('pages resources/list by project, newest first, with a cursor', async () => {
    const other = await h.createKey('test');
    const seeded: string[] = [];
    for (let i = 0; i < 11; i++) seeded.push(await h.seedProject(other, { status: 'completed' }));
    const mine = await connectMcp(url, other.key);
    try {
      const first = await mine.listResources();
      expect(first.nextCursor).toBe(seeded[1]);
      expect(new Set(first.resources.map((r) => r.uri.split('/')[3]))).toEqual(
        new Set(seeded.slice(1).reverse()),
      );
      const second = await mine.listResources({ cursor: first.nextCursor! });
      expect(second.nextCursor).toBeUndefined();
      expect(second.resources.map((r) => r.name)).toEqual(['PROJECT_BRIEF.md', 'DOC_1.md']);
      expect(second.resources[0]!.uri).toContain(seeded[0]);
    } finally {
      await mine.close();
    }
  });

  it('offers new_project_spec, which asks for the idea and the type and calls generate_project', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'new_project_spec',
        arguments: [
          expect.objectContaining({ name: 'idea', required: true }),
          expect.objectContaining({ name: 'type', required: false }),
        ],
      }),
    ]);
    const prompt = await client.getPrompt({
      name: 'new_project_spec',
      arguments: { idea: IDEA, type: 'mobile' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('generate_project');
    expect(text).toContain(JSON.stringify(IDEA));
    expect(text).toContain('"mobile"');
    await expect(
      client.getPrompt({ name: 'new_project_spec', arguments: { idea: IDEA, type: 'desktop' } }),
    ).rejects.toMatchObject({
      code: -32602,
      data: { details: { invalid_fields: { type: expect.any(String) } } },
    });
    expect(PROJECT_TYPES).not.toContain('desktop');
  });

  it('answers bad arguments with a tool error naming the field', async () => {
    const short = toolErrorOf(
      await client.callTool({
        name: 'generate_project',
        arguments: { idea: 'short', wait: 'yes' },
      }),
    );
    expect(short).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: {
        invalid_fields: {
          idea: 'must NOT have fewer than 10 characters',
          wait: 'must be boolean',
        },
      },
    });
    expect(short.message).toContain('idea');
    expect(
      toolErrorOf(await client.callTool({ name: 'generate_project', arguments: { type: 'web' } })),
    ).toMatchObject({ code: 'VALIDATION_ERROR', details: { missing_fields: ['idea'] } });
    expect(
      toolErrorOf(
        await client.callTool({
          name: 'list_projects',
          arguments: { limit: 0, status: 'done', cursor: 'x' },
        }),
      ).details,
    ).toEqual({
      invalid_fields: {
        limit: 'must be >= 1',
        status: 'must be one of in_progress, completed, failed',
        cursor: 'is not allowed',
      },
    });
    expect(
      toolErrorOf(await client.callTool({ name: 'get_project', arguments: { projectId: 'x' } }))
        .details,
    ).toEqual({ invalid_fields: { projectId: 'must be a valid uuid' } });
    // Nothing was created or charged by the refused generation.
    expect((await rest('/credits')).json().data.balance).toBe(1_000 - 47 - spent);
    // Params of the wrong shape are InvalidParams (the SDK alone would answer −32603).
    await expect(
      client.request(
        { method: 'tools/call', params: { name: 'get_credits', arguments: null } },
        CallToolResultSchema,
      ),
    ).rejects.toMatchObject({
      code: -32602,
      data: {
        code: 'VALIDATION_ERROR',
        details: { invalid_fields: { 'params.arguments': expect.any(String) } },
      },
    });
    // An unknown tool is the protocol's error, not a tool's.
    await expect(client.callTool({ name: 'revise_project', arguments: {} })).rejects.toBeInstanceOf(
      McpError,
    );
  });

  it("answers another account's or the other mode's project with a not-found tool error", async () => {
    const { projectId } = generated.project;
    const stranger = await h.createKey('test');
    const otherMode = await h.createKey('live', { accountId: key.accountId });
    for (const who of [stranger, otherMode]) {
      const theirs = await connectMcp(url, who.key);
      try {
        for (const [name, args] of [
          ['get_project', { projectId }],
          ['read_document', { projectId, filename: 'README.md' }],
          ['get_trace', { projectId }],
          ['list_tasks', { projectId }],
          ['next_task', { projectId, agent: 'intruder' }],
          ['update_task', { projectId, taskId: 'T-1', status: 'done' }],
        ] as const) {
          expect(toolErrorOf(await theirs.callTool({ name, arguments: args }))).toMatchObject({
            code: 'RESOURCE_NOT_FOUND',
            message: 'No project with this identifier exists.',
            details: { resource_type: 'project', resource_id: projectId },
          });
        }
        await expect(
          theirs.readResource({ uri: generated.project.documents![0]!.uri }),
        ).rejects.toMatchObject({ code: -32002, data: { code: 'RESOURCE_NOT_FOUND' } });
        const { projects } = structured<{ projects: { projectId: string }[] }>(
          await theirs.callTool({ name: 'list_projects', arguments: {} }),
        );
        expect(projects.map((p) => p.projectId)).not.toContain(projectId);
      } finally {
        await theirs.close();
      }
    }
  });

  it('answers a balance too short with INSUFFICIENT_CREDITS and creates nothing', async () => {
    const poor = await h.createKey('test', { credits: 10 });
    const theirs = await connectMcp(url, poor.key);
    try {
      const error = toolErrorOf(
        await theirs.callTool({ name: 'generate_project', arguments: { idea: IDEA, type: 'web' } }),
      );
      expect(error).toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
        details: { required: 47, available: 10 },
      });
      expect(error.request_id).toMatch(/^req_/);
      expect((await rest('/projects', poor)).json().data).toEqual([]);
    } finally {
      await theirs.close();
    }
  });

  it('refuses a bad key with 401 in the envelope and WWW-Authenticate', async () => {
    for (const authorization of [
      undefined,
      'Bearer pgs_test_0000000000000000000000000000000000000000',
    ]) {
      const res = await fetch(new URL('/mcp', url), {
        method: 'POST',
        headers: {
          ...(authorization === undefined ? {} : { authorization }),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      const body = await res.text();
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="pgs"/);
      expect(JSON.parse(body).error.code).toBe('AUTHENTICATION_FAILED');
      assertMatchesContract('POST', '/mcp', {
        statusCode: res.status,
        headers: Object.fromEntries(res.headers),
        body,
      });
    }
    // The SDK's client fails to connect, with the status and our envelope.
    await expect(
      connectMcp(url, 'pgs_test_0000000000000000000000000000000000000000'),
    ).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('AUTHENTICATION_FAILED'),
    });
  });

  it('answers what is not MCP over Streamable HTTP in the envelope (405, 406, 400)', async () => {
    // Errors are checked against the contract (the envelope); a 202 is not an operation of it.
    const send = async (method: string, headers: Record<string, string>, body?: string) => {
      const res = await h.app.inject({
        method: method as 'POST',
        url: '/mcp',
        headers: { ...bearer(key.key), ...headers },
        ...(body === undefined ? {} : { payload: body }),
      });
      if (res.statusCode >= 400) assertMatchesContract(method, '/mcp', res);
      return res;
    };
    const get = await send('GET', { accept: 'text/event-stream' });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const json = { 'content-type': 'application/json' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const notAcceptable = await send('POST', { ...json, accept: 'application/json' }, list);
    expect(notAcceptable.statusCode).toBe(406);
    expect(notAcceptable.json().error.details.invalid_fields).toHaveProperty('Accept');
    const both = { ...json, accept: 'application/json, text/event-stream' };
    const notRpc = await send('POST', both, JSON.stringify({ hello: 'world' }));
    expect(notRpc.statusCode).toBe(400);
    expect(notRpc.json().error.code).toBe('VALIDATION_ERROR');
    const version = await send('POST', { ...both, 'mcp-protocol-version': '1999-01-01' }, list);
    expect(version.statusCode).toBe(400);
    const notification = await send(
      'POST',
      both,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    expect(notification.statusCode).toBe(202);
  });
});
