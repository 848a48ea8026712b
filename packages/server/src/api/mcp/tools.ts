import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  checkArguments,
  creditsResult,
  documentResult,
  MCP_TOOLS,
  type McpToolName,
  type McpToolResult,
  type ProjectState,
  type ProjectStatus,
  type ProjectStatusResponse,
  type ProjectType,
  projectListResult,
  projectResult,
  type RequirementStyle,
  type TraceResponse,
  toolError,
  traceResult,
} from '@pgs/contract';
import type { Principal } from '../../accounts/service.ts';
import type { ConformanceChecks } from '../../conformance/service.ts';
import type { CreditReads } from '../../credits/reads.ts';
import type { ProjectEventHub } from '../../events/hub.ts';
import type { SharedEventReads } from '../../events/reads.ts';
import type { Limiters } from '../../limits/rules.ts';
import type { Projects } from '../../projects/projects.ts';
import type { ProjectQuestions } from '../../projects/questions.ts';
import type { ProjectReads } from '../../projects/reads.ts';
import type { ProjectStatusReader } from '../../projects/status.ts';
import type { TraceCache } from '../../runs/trace/project.ts';
import type { Tasks } from '../../tasks/service.ts';
import type { ProjectSyncs } from '../../trackers/syncs.ts';
import { rateLimitError } from '../plugins/rate-limit.ts';
import { projectNotFound } from '../routes/projects/common.ts';
import { traceWithProgress } from '../routes/projects/delivery.ts';
import { completedProject, ownedDocument, traceBody } from '../routes/projects/reads.ts';
import type { McpCall } from './call.ts';
import { CANCELLED_BY_CLIENT } from './cancellations.ts';
import { conformanceTool } from './conformance-tool.ts';
import { catalogued } from './errors.ts';
import { type FollowOutcome, followProject } from './follow.ts';
import { createAnswers, questionTools } from './question-tools.ts';
import { syncTool } from './sync-tool.ts';
import { taskTools } from './task-tools.ts';

/** What the MCP endpoint works with: the services the REST routes use, and its settings. */
export interface McpServices {
  projects: Projects;
  /** The caller's projects, documents and revisions, as the REST routes read them. */
  projectReads: ProjectReads;
  credits: CreditReads;
  statusReader: ProjectStatusReader;
  events: ProjectEventHub;
  reads: SharedEventReads;
  traces: TraceCache;
  /** The plan as live work, as the REST task routes share it. */
  tasks: Tasks;
  /** Checks of a repository against the spec, as the REST conformance routes share them. */
  checks: ConformanceChecks;
  /** Pushes of projects to trackers, as the REST sync routes share them. */
  syncs: ProjectSyncs;
  /** A project's open questions and the revisions answering them, as REST's. */
  questions: ProjectQuestions;
  limiters: Limiters;
  /** The longest generate_project with `wait: true` holds its call, in milliseconds. */
  maxWaitMs: number;
}

export type { McpCall } from './call.ts';

/**
 * The per-key limit each tool counts against: the REST operation it stands for, so that a
 * key cannot get past a limit by going through MCP (docs/mcp.md).
 */
export const TOOL_LIMITS = {
  clarify_idea: 'clarify',
  generate_project: 'create',
  get_project: 'status',
  list_projects: 'list',
  read_document: 'downloads',
  get_credits: 'credits',
  get_trace: 'downloads',
  list_tasks: 'tasks',
  next_task: 'tasks',
  update_task: 'tasks',
  check_conformance: 'manage',
  sync_project: 'manage',
  answer_questions: 'create',
} as const satisfies Record<McpToolName, keyof Limiters>;

/**
 * Counts one use of the limiter `name` against the caller's key; throws the 429 error
 * (RATE_LIMIT_EXCEEDED with `retry_after`) when the key is over it.
 */
export async function countAgainst(
  services: Pick<McpServices, 'limiters'>,
  name: keyof Limiters,
  principal: Principal,
): Promise<void> {
  const decision = await services.limiters[name].consume(principal.keyId);
  if (!decision.allowed) throw rateLimitError(decision);
}

type Handler = (args: Record<string, unknown>, call: McpCall) => Promise<McpToolResult>;

const statusOf = (body: Buffer) =>
  (JSON.parse(body.toString('utf8')) as ProjectStatusResponse).data;

/**
 * The tools on the services the REST routes call (creation and its credit reservation,
 * status reads, listing, documents, credits, trace), so a tool behaves as its operation:
 * same isolation (another key's project is RESOURCE_NOT_FOUND), same credits, same limits.
 *
 * @example
 * const result = await new McpTools(services).call('get_credits', {}, call);
 */
export class McpTools {
  readonly #services: McpServices;
  readonly #handlers: Record<McpToolName, Handler>;

  constructor(services: McpServices) {
    this.#services = services;
    this.#handlers = {
      generate_project: (args, call) => this.#generate(args, call),
      get_project: async (args, call) =>
        projectResult(await this.#status(call, args.projectId as string)),
      list_projects: (args, call) => this.#list(args, call),
      read_document: async (args, call) => {
        const { projectId, filename } = args as { projectId: string; filename: string };
        const { content } = await ownedDocument(
          services.projectReads,
          call.principal,
          projectId,
          filename,
        );
        return documentResult(projectId, filename, content);
      },
      get_credits: async (_args, call) => {
        const { accountId, mode } = call.principal;
        return creditsResult({ mode, ...(await services.credits.summary(accountId, mode)) });
      },
      get_trace: async (args, call) => {
        const projectId = args.projectId as string;
        const { view, data } = await completedProject(
          services.statusReader,
          call.principal,
          projectId,
          'trace',
        );
        const body = await traceBody(services.projectReads, services.traces, {
          projectId,
          revision: view.revision ?? 1,
          etag: view.etag,
          project: () => data().project,
        });
        // With the delivery of the plan, as the REST trace has it.
        const withProgress = await traceWithProgress(
          services.tasks,
          call.principal,
          projectId,
          body,
        );
        return traceResult(projectId, (JSON.parse(withProgress.body) as TraceResponse).data);
      },
      ...taskTools(services.tasks),
      ...conformanceTool(services.checks),
      ...syncTool(services.syncs, services.maxWaitMs),
      ...questionTools(services.questions),
    };
  }

  /**
   * Runs a tool. An unknown tool is a protocol error (InvalidParams, as MCP says); every
   * other failure, bad arguments and limits included, is a tool error with the
   * catalogue's code.
   */
  async call(name: string, args: unknown, call: McpCall): Promise<McpToolResult> {
    const tool = MCP_TOOLS.find((t) => t.name === name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const checked = checkArguments(tool, args);
    const { result, code } = checked.ok
      ? await this.#run(tool.name, checked.value, call)
      : {
          code: 'VALIDATION_ERROR',
          result: toolError({
            code: 'VALIDATION_ERROR',
            message: checked.message,
            details: { ...checked.details },
            request_id: call.requestId,
          }),
        };
    call.log.info({ mcp: { tool: tool.name, outcome: code } }, 'mcp tool call');
    return result;
  }

  async #run(
    name: McpToolName,
    args: Record<string, unknown>,
    call: McpCall,
  ): Promise<{ result: McpToolResult; code: string }> {
    try {
      await countAgainst(this.#services, TOOL_LIMITS[name], call.principal);
      return { result: await this.#handlers[name](args, call), code: 'ok' };
    } catch (error) {
      const failure = catalogued(error, call.log);
      const result = toolError({
        code: failure.code,
        message: failure.message,
        details: failure.details,
        request_id: call.requestId,
      });
      return { result, code: failure.code };
    }
  }

  async #status(call: McpCall, projectId: string): Promise<ProjectStatus> {
    const view = await this.#services.statusReader.read(call.principal, projectId.toLowerCase());
    if (view === undefined) throw projectNotFound(projectId);
    return statusOf(view.body);
  }

  async #list(args: Record<string, unknown>, call: McpCall): Promise<McpToolResult> {
    const query = {
      limit: args.limit as number | undefined,
      status: args.status as ProjectState | undefined,
    };
    return projectListResult(await this.#services.projectReads.list(call.principal, query));
  }

  async #generate(args: Record<string, unknown>, call: McpCall): Promise<McpToolResult> {
    const { idea, type, name, language, requirementStyle, wait } = args as {
      idea: string;
      type?: ProjectType;
      name?: string;
      language?: string;
      requirementStyle?: RequirementStyle;
      wait?: boolean;
    };
    // The rules REST applies (projects.admit: the language canonical, or refused naming the
    // field), for the fields the tool takes; answers come as clarify_idea's `{ id: answer }`
    // and go in as createProject's list.
    const { projects } = this.#services;
    const answers = args.answers === undefined ? undefined : createAnswers(args.answers);
    const request = {
      idea,
      ...(type === undefined ? {} : { type }),
      ...(name === undefined ? {} : { name }),
      ...(answers === undefined ? {} : { answers }),
      ...(language === undefined ? {} : { language }),
      ...(requirementStyle === undefined ? {} : { requirementStyle }),
    };
    const created = await projects.create(
      call.principal,
      await projects.admit(call.principal, request),
    );
    const started: ProjectStatus = {
      projectId: created.projectId,
      status: 'in_progress',
      estimatedCompletionMs: created.estimatedCompletionMs,
    };
    if (wait !== true) return projectResult(started);
    const outcome = await followProject(created.projectId, {
      hub: this.#services.events,
      reads: this.#services.reads,
      type,
      estimatedCompletionMs: created.estimatedCompletionMs,
      maxWaitMs: this.#services.maxWaitMs,
      signal: call.signal,
      report: call.report,
    });
    const status = await this.#status(call, created.projectId);
    if (status.status !== 'in_progress') return projectResult(status);
    return projectResult(status, this.#whyTheWaitEnded(outcome, call.signal));
  }

  /**
   * What ended a wait before the project did, for the answer's text. A client's
   * notifications/cancelled marks the signal ({@link CANCELLED_BY_CLIENT}); any other abort
   * is the server shutting down, the one left that has a reader (a client that left reads
   * nothing).
   */
  #whyTheWaitEnded(outcome: FollowOutcome, signal: AbortSignal): string {
    if (outcome === 'timed_out') {
      return `The wait ended after ${Math.round(this.#services.maxWaitMs / 1000)} s; the project keeps generating.`;
    }
    if (signal.reason === CANCELLED_BY_CLIENT) {
      return 'The client cancelled the wait (notifications/cancelled); the project keeps generating.';
    }
    return 'The wait was interrupted because the server is shutting down; the project keeps generating.';
  }
}
