/**
 * The MCP face of PGS (issue 19): the tools, as both MCP servers list them (the API
 * server's `/mcp` and the CLI's stdio bridge, `pgs mcp`), so an agent sees the same
 * definitions whichever it connects to. Their text is read into every agent's context on
 * every session: the server's test measures it (o200k) and holds it under 2,000 tokens
 * (docs/mcp.md), so schemas say what a caller needs and no more (constraints, not prose).
 */
import { SINGLE_LINE_FORMAT, SINGLE_LINE_PATTERN } from '../single-line.ts';

/**
 * The contract's constraints the tools repeat. Literals rather than reads of
 * `openapiDocument`, so that carrying the definitions (the SDK does, for `pgs mcp`) never
 * needs the whole document; `mcp.test.ts` holds them equal to it.
 */
export const MCP_CONSTRAINTS = {
  idea: { minLength: 10, maxLength: 5000 },
  name: { minLength: 1, maxLength: 80, pattern: SINGLE_LINE_PATTERN },
  projectTypes: ['web', 'mobile', 'mcp'],
  projectStates: ['in_progress', 'completed', 'failed'],
  listLimit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  filename: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 100 },
  taskId: { pattern: '^T-[1-9][0-9]{0,5}$' },
  taskStatuses: ['todo', 'in_progress', 'blocked', 'done', 'obsolete'],
  agent: { minLength: 1, maxLength: 100, pattern: SINGLE_LINE_PATTERN },
  leaseSeconds: { minimum: 30, maximum: 86400 },
  note: { minLength: 1, maxLength: 2000 },
  language: { minLength: 2, maxLength: 35, pattern: '^[A-Za-z0-9-]+$' },
  requirementStyles: ['ears', 'gherkin'],
  version: '1.0.0',
} as const;
const C = MCP_CONSTRAINTS;

/** A JSON Schema as the tool definitions use it (a small subset: see `mcp/arguments.ts`). */
export type McpJsonSchema = { readonly [keyword: string]: unknown };

/** Hints for clients (MCP `ToolAnnotations`): read-only tools may be run without asking. */
export interface McpToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One tool as `tools/list` answers it. */
export interface McpToolDefinition {
  readonly name: McpToolName;
  readonly description: string;
  readonly inputSchema: McpJsonSchema & { readonly type: 'object' };
  readonly outputSchema: McpJsonSchema & { readonly type: 'object' };
  readonly annotations: McpToolAnnotations;
}

/** Every tool, in the order `tools/list` gives them. */
export const MCP_TOOL_NAMES = [
  'clarify_idea',
  'generate_project',
  'get_project',
  'list_projects',
  'read_document',
  'get_credits',
  'get_trace',
  'list_tasks',
  'next_task',
  'update_task',
  'check_conformance',
  'sync_project',
  'answer_questions',
] as const;

/** The name of one of {@link MCP_TOOLS}. */
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const projectId = { type: 'string', format: 'uuid' } as const;
const projectIdInput = {
  type: 'object',
  properties: { projectId },
  required: ['projectId'],
  additionalProperties: false,
} as const;

/** What generate_project and get_project answer: the project as far as it has got. */
const projectOutput = {
  type: 'object',
  properties: {
    projectId: string,
    status: { enum: [...C.projectStates] },
    name: string,
    description: string,
    type: string,
    estimatedCompletionMs: integer,
    creditsConsumed: integer,
    documents: {
      type: 'array',
      items: { type: 'object', properties: { filename: string, uri: string } },
    },
    error: { type: 'object', description: 'code, message' },
  },
  required: ['projectId', 'status'],
} as const;

const READ_ONLY = { readOnlyHint: true } as const;
const idea = { type: 'string', minLength: C.idea.minLength, maxLength: C.idea.maxLength } as const;
const projectType = {
  type: 'string',
  enum: [...C.projectTypes],
  description: 'default: inferred',
} as const;
/** Changes state, never destroys (MCP's default for a tool that writes is destructive). */
const WRITES = { destructiveHint: false } as const;
const object = { type: 'object' } as const;
const taskStatus = { type: 'string', enum: [...C.taskStatuses] } as const;

/**
 * The tool definitions. Revising a project with a change request (`revise_project`, a
 * `revision` argument of read_document) is left out; answering its open questions is
 * answer_questions, which lists them without `answers` (issue 32). The
 * task tools (issue 30) are what an agent's loop needs: list_tasks, next_task (a claim, with
 * the context pack) and update_task (status and note, against next_task's etag); renewing a
 * lease is next_task again (an agent holding a task gets it back, its lease renewed), and
 * assigning a task to a person stays with the API, the SDK and the CLI.
 *
 * @example
 * const generate = MCP_TOOLS.find((tool) => tool.name === 'generate_project');
 */
export const MCP_TOOLS: readonly McpToolDefinition[] = [
  {
    name: 'clarify_idea',
    description: 'Up to 5 questions an idea leaves open, with recommended answers. Free.',
    inputSchema: {
      type: 'object',
      properties: { idea, type: { type: 'string', enum: [...C.projectTypes] } },
      required: ['idea'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { questions: { type: 'array' } },
      required: ['questions'],
    },
    annotations: READ_ONLY,
  },
  {
    name: 'generate_project',
    description:
      'Spec documents from an idea; costs credits (web 47, mobile/mcp 50). wait: true reports progress; else poll get_project.',
    inputSchema: {
      type: 'object',
      properties: {
        idea,
        type: projectType,
        name: {
          type: 'string',
          minLength: C.name.minLength,
          maxLength: C.name.maxLength,
          format: SINGLE_LINE_FORMAT,
        },
        answers: { type: 'object', description: 'clarify_idea id → answer' },
        language: { type: 'string', ...C.language },
        requirementStyle: { type: 'string', enum: [...C.requirementStyles] },
        wait: { type: 'boolean' },
      },
      required: ['idea'],
      additionalProperties: false,
    },
    outputSchema: projectOutput,
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  },
  {
    name: 'get_project',
    description:
      "A project's status; once completed, its documents (resource links) and credits consumed.",
    inputSchema: projectIdInput,
    outputSchema: projectOutput,
    annotations: READ_ONLY,
  },
  {
    name: 'list_projects',
    description: 'Your projects, newest first.',
    inputSchema: {
      type: 'object',
      properties: {
        limit: C.listLimit,
        status: { type: 'string', enum: [...C.projectStates] },
      },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        projects: {
          type: 'array',
          items: {
            type: 'object',
            description:
              'projectId, status, name, ideaExcerpt, type, createdAt, completedAt, creditsConsumed, costUsd',
          },
        },
        hasMore: { type: 'boolean' },
      },
      required: ['projects', 'hasMore'],
    },
    annotations: READ_ONLY,
  },
  {
    name: 'read_document',
    description: "A document's markdown by filename (e.g. PRODUCT_REQUIREMENTS.md).",
    inputSchema: {
      type: 'object',
      properties: {
        projectId,
        filename: { type: 'string', pattern: C.filename.pattern },
      },
      required: ['projectId', 'filename'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { projectId: string, filename: string, uri: string, markdown: string },
      required: ['projectId', 'filename', 'markdown'],
    },
    annotations: READ_ONLY,
  },
  {
    name: 'get_credits',
    description: "Your credit balance in your key's mode and what running projects hold.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: {
      type: 'object',
      properties: { mode: string, balance: integer, reserved: integer },
      required: ['mode', 'balance', 'reserved'],
    },
    annotations: READ_ONLY,
  },
  {
    name: 'get_trace',
    description:
      "A completed project's trace per requirement (criteria, stories, components, tasks) with findings and delivery progress.",
    inputSchema: projectIdInput,
    outputSchema: {
      type: 'object',
      properties: {
        projectId: string,
        totals: { type: 'object' },
        requirements: { type: 'array', items: { type: 'object' } },
        findings: { type: 'array', items: { type: 'object' } },
      },
      required: ['projectId', 'totals', 'requirements', 'findings'],
    },
    annotations: READ_ONLY,
  },
  {
    name: 'list_tasks',
    description: "A completed project's plan tasks in order, with status and assignee.",
    inputSchema: {
      type: 'object',
      properties: {
        projectId,
        status: taskStatus,
        assignee: { type: 'string', minLength: 1, maxLength: C.agent.maxLength },
        // FR-3, NFR-1 or a criterion FR-3.1, as the REST listing's `requirement` filter.
        requirement: { type: 'string', pattern: '^N?FR-[1-9]\\d*(\\.[1-9]\\d*)?$' },
      },
      required: ['projectId'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { tasks: { type: 'array' } },
      required: ['tasks'],
    },
    annotations: READ_ONLY,
  },
  {
    name: 'next_task',
    description:
      'Claim the next ready task (leased, default 900 s): task, etag, context pack; ready: false if none. Then update_task.',
    inputSchema: {
      type: 'object',
      properties: {
        projectId,
        agent: {
          type: 'string',
          minLength: C.agent.minLength,
          maxLength: C.agent.maxLength,
          format: SINGLE_LINE_FORMAT,
        },
        leaseSeconds: { type: 'integer', ...C.leaseSeconds },
      },
      required: ['projectId', 'agent'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { ready: { type: 'boolean' }, task: object, etag: string, context: object },
      required: ['ready'],
    },
    annotations: WRITES,
  },
  {
    name: 'update_task',
    description:
      "Set a task's status and note. With next_task's etag, a task changed since (lease lost) is PRECONDITION_FAILED.",
    inputSchema: {
      type: 'object',
      properties: {
        projectId,
        taskId: { type: 'string', pattern: C.taskId.pattern },
        status: taskStatus,
        note: { type: 'string', ...C.note },
        etag: string,
      },
      required: ['projectId', 'taskId', 'status'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { task: object, etag: string },
      required: ['task', 'etag'],
    },
    annotations: WRITES,
  },
  {
    name: 'check_conformance',
    description:
      "Check a repository digest (@pgs/repository) against a completed project's spec: requirements tested, implemented, missing; drift.",
    inputSchema: {
      type: 'object',
      properties: { projectId, repository: object },
      required: ['projectId', 'repository'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { checkId: string, status: string, report: object },
      required: ['checkId', 'status'],
    },
    annotations: WRITES,
  },
  {
    name: 'sync_project',
    description:
      "Push a completed project's tasks to a tracker as linked issues; idempotent; waits for the end; dryRun only lists.",
    inputSchema: {
      type: 'object',
      properties: {
        projectId,
        connectionId: string,
        scope: { enum: ['tasks', 'requirements', 'all'] },
        dryRun: { type: 'boolean' },
      },
      required: ['projectId', 'connectionId'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { syncId: string, status: string, items: { type: 'array' } },
      required: ['syncId', 'status'],
    },
    annotations: WRITES,
  },
  {
    name: 'answer_questions',
    description:
      "A completed project's open questions and assumptions; with answers (id → answer), starts a revision recording them.",
    inputSchema: {
      type: 'object',
      properties: { projectId, answers: object },
      required: ['projectId'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { projectId: string, questions: { type: 'array' }, revision: integer },
      required: ['projectId'],
    },
    annotations: WRITES,
  },
];

/** Who answers `initialize`: the same on both servers. */
export const MCP_SERVER_INFO = {
  name: 'pgs',
  title: 'PGS, the Project Generation Service',
  version: C.version,
} as const;

/** The server's `instructions`: what an agent should know before its first call. */
export const MCP_INSTRUCTIONS =
  'PGS turns a project idea into spec documents. generate_project creates a project and costs credits (wait: true reports progress until it ends); get_project, read_document and the resources pgs://projects/{projectId}/documents/{filename} read the results. To build a completed project, loop next_task (a task and its context) then update_task done.';
