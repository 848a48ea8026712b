import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  type McpProgress,
  type McpToolName,
  type McpToolResult,
  mcp,
  type Pgs,
  type ProjectCreateParams,
  type ProjectState,
  type ProjectStatus,
  type ProjectType,
  type RepositoryDigest,
  type TaskStatus,
} from '@pgs/client';

const {
  answeredResult,
  checkArguments,
  clarifyResult,
  claimedTaskResult,
  conformanceResult,
  syncResult,
  creditsResult,
  documentResult,
  GenerationProgress,
  MCP_TOOLS,
  projectListResult,
  projectQuestionsResult,
  projectResult,
  taskListResult,
  toolError,
  traceResult,
  updatedTaskResult,
} = mcp;

/** One tool call: what ends it, and where its progress goes (when the client asked). */
export interface BridgeCall {
  signal: AbortSignal;
  report?: ((progress: McpProgress) => Promise<void>) | undefined;
}

/** Default longest wait of generate_project with `wait: true`, as on the server: 15 minutes. */
export const BRIDGE_MAX_WAIT_MS = 15 * 60_000;

/** The error that ends an unknown tool's call: a protocol error, not a tool error. */
export class UnknownToolError extends Error {
  override name = 'UnknownToolError';
}

type Handler = (args: Record<string, unknown>, call: BridgeCall) => Promise<McpToolResult>;

/**
 * What a failed call answers: the API's error as it came (code, message, details, request
 * id), so a tool error reads the same as over `/mcp`; a server out of reach says where.
 */
export function bridgeFailure(error: unknown, baseUrl: string): McpToolResult {
  if (error instanceof APIError) {
    return toolError({
      code: error.code ?? 'INTERNAL_ERROR',
      message: error.message,
      details: error.details,
      request_id: error.requestId,
    });
  }
  if (error instanceof APIConnectionError) {
    return toolError({
      code: 'INTERNAL_ERROR',
      message: `The PGS server at ${baseUrl} could not be reached (${error.message}). Is it running, and is PGS_BASE_URL right?`,
    });
  }
  return toolError({
    code: 'INTERNAL_ERROR',
    message: error instanceof Error ? error.message : String(error),
  });
}

/**
 * The tools of `pgs mcp`, each forwarded to the HTTP API through the SDK (its retries, its
 * Idempotency-Key on creation, its event stream resumed after a drop): the same
 * definitions, argument checks and results as the server's `/mcp`, from `@pgs/client`.
 *
 * @example
 * const result = await new BridgeTools(pgs, baseUrl).call('get_credits', {}, { signal });
 */
export class BridgeTools {
  readonly #pgs: Pgs;
  readonly #baseUrl: string;
  readonly #maxWaitMs: number;
  readonly #handlers: Record<McpToolName, Handler>;

  constructor(pgs: Pgs, baseUrl: string, { maxWaitMs = BRIDGE_MAX_WAIT_MS } = {}) {
    this.#pgs = pgs;
    this.#baseUrl = baseUrl;
    this.#maxWaitMs = maxWaitMs;
    this.#handlers = {
      clarify_idea: async (args, call) => {
        const { idea, type } = args as { idea: string; type?: ProjectType };
        const params = type === undefined ? { idea } : { idea, type };
        return clarifyResult(await pgs.ideas.clarify(params, { signal: call.signal }));
      },
      answer_questions: async (args, call) => {
        const projectId = args.projectId as string;
        const options = { signal: call.signal };
        if (args.answers === undefined) {
          return projectQuestionsResult(
            projectId.toLowerCase(),
            await pgs.projects.questions(projectId, options),
          );
        }
        const answers = args.answers as Record<string, string>;
        return answeredResult(await pgs.projects.answer(projectId, answers, options));
      },
      generate_project: (args, call) => this.#generate(args, call),
      get_project: async (args, call) =>
        projectResult(await pgs.projects.get(args.projectId as string, { signal: call.signal })),
      list_projects: async (args, call) => {
        const page = await pgs.projects.list(
          {
            limit: args.limit as number | undefined,
            status: args.status as ProjectState | undefined,
          },
          { signal: call.signal },
        );
        return projectListResult({ data: page.data, has_more: page.hasMore });
      },
      read_document: async (args, call) => {
        const { projectId, filename } = args as { projectId: string; filename: string };
        const markdown = await pgs.projects.document(projectId, filename, { signal: call.signal });
        return documentResult(projectId, filename, markdown);
      },
      get_credits: async (_args, call) =>
        creditsResult(await pgs.credits.get({ signal: call.signal })),
      get_trace: async (args, call) => {
        const projectId = args.projectId as string;
        return traceResult(projectId, await pgs.projects.trace(projectId, { signal: call.signal }));
      },
      list_tasks: async (args, call) => {
        const { projectId, status, assignee, requirement } = args as {
          projectId: string;
          status?: TaskStatus;
          assignee?: string;
          requirement?: string;
        };
        const tasks = await pgs.projects.tasks.list(
          projectId,
          { status, assignee, requirement },
          { signal: call.signal },
        );
        return taskListResult(projectId, tasks);
      },
      check_conformance: async (args, call) => {
        const { projectId, repository } = args as {
          projectId: string;
          repository: RepositoryDigest;
        };
        const check = await pgs.projects.conformance.create(
          projectId,
          { context: { repository } },
          { signal: call.signal },
        );
        return conformanceResult(check);
      },
      sync_project: async (args, call) => {
        const { projectId, connectionId, scope, dryRun } = args as {
          projectId: string;
          connectionId: string;
          scope?: 'tasks' | 'requirements' | 'all';
          dryRun?: boolean;
        };
        const sync = await pgs.projects.syncs.createAndWait(
          projectId,
          { connectionId, scope: scope ?? 'tasks', dryRun: dryRun === true },
          { signal: call.signal },
        );
        return syncResult(sync);
      },
      next_task: async (args, call) => {
        const { projectId, agent, leaseSeconds } = args as {
          projectId: string;
          agent: string;
          leaseSeconds?: number;
        };
        const claimed = await pgs.projects.tasks.next(
          projectId,
          { agent, leaseSeconds },
          { signal: call.signal },
        );
        return claimedTaskResult(claimed);
      },
      update_task: async (args, call) => {
        const { projectId, taskId, status, note, etag } = args as {
          projectId: string;
          taskId: string;
          status: TaskStatus;
          note?: string;
          etag?: string;
        };
        // Without an etag, `*` as over /mcp: the change applies to the task as it is.
        const updated = await pgs.projects.tasks.update(
          projectId,
          taskId,
          { status, ...(note === undefined ? {} : { note }) },
          { ifMatch: etag ?? '*', signal: call.signal },
        );
        return updatedTaskResult(updated);
      },
    };
  }

  /** Runs a tool: bad arguments and every API error are tool errors; an unknown tool throws. */
  async call(name: string, args: unknown, call: BridgeCall): Promise<McpToolResult> {
    const tool = MCP_TOOLS.find((t) => t.name === name);
    if (tool === undefined) throw new UnknownToolError(`Unknown tool: ${name}`);
    const checked = checkArguments(tool, args);
    if (!checked.ok) {
      return toolError({
        code: 'VALIDATION_ERROR',
        message: checked.message,
        details: { ...checked.details },
      });
    }
    try {
      return await this.#handlers[tool.name](checked.value, call);
    } catch (error) {
      return bridgeFailure(error, this.#baseUrl);
    }
  }

  async #generate(args: Record<string, unknown>, call: BridgeCall): Promise<McpToolResult> {
    const { idea, type, name, language, requirementStyle, wait } = args as {
      idea: string;
      type?: ProjectType;
      name?: string;
      language?: string;
      requirementStyle?: ProjectCreateParams['requirementStyle'];
      wait?: boolean;
    };
    // clarify_idea's `{ id: answer }`, as createProject's list (the API checks each).
    const answers =
      args.answers === undefined
        ? undefined
        : Object.entries(args.answers as Record<string, string>).map(([question, answer]) => ({
            question,
            answer,
          }));
    const created = await this.#pgs.projects.create(
      {
        idea,
        type,
        name,
        language,
        requirementStyle,
        ...(answers === undefined ? {} : { answers }),
      },
      { signal: call.signal },
    );
    const started: ProjectStatus = {
      projectId: created.projectId,
      status: 'in_progress',
      estimatedCompletionMs: created.estimatedCompletionMs,
    };
    if (wait !== true) return projectResult(started);

    const progress = new GenerationProgress(type);
    const tell = async (step: McpProgress | undefined) => {
      if (step !== undefined) await call.report?.(step).catch(() => {});
    };
    await tell(progress.start(created.estimatedCompletionMs));
    const deadline = AbortSignal.timeout(this.#maxWaitMs);
    let ended = false;
    try {
      // From the first event (Last-Event-ID 0): documents stored before the stream opened
      // are counted too, as on the server.
      for await (const event of this.#pgs.projects.events(created.projectId, {
        lastEventId: '0',
        signal: AbortSignal.any([call.signal, deadline]),
      })) {
        await tell(progress.next(event));
        if (event.type === 'project.completed' || event.type === 'project.failed') ended = true;
      }
    } catch (error) {
      // The wait ran out, or the client cancelled: answer the status as it is.
      if (!(error instanceof APIUserAbortError)) throw error;
    }
    const status = await this.#pgs.projects.get(created.projectId);
    if (ended || status.status !== 'in_progress') return projectResult(status);
    return projectResult(
      status,
      deadline.aborted
        ? `The wait ended after ${Math.round(this.#maxWaitMs / 1000)} s; the project keeps generating.`
        : 'The wait was interrupted; the project keeps generating.',
    );
  }
}
