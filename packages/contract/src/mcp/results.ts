import type { components } from '../generated/types.ts';
import { type DocumentResource, documentResource, documentUri } from './resources.ts';

type Schemas = components['schemas'];
type ProjectStatus = Schemas['ProjectStatus'];
type ProjectSummary = Schemas['ProjectSummary'];
type ProjectType = Schemas['ProjectType'];
type Trace = Schemas['Trace'];
type TraceProgress = Schemas['TraceProgress'];

/** A text block of a tool result. */
export interface McpTextContent {
  type: 'text';
  text: string;
}
/** A link to a resource (a document), which the client may read or attach. */
export interface McpResourceLink extends DocumentResource {
  type: 'resource_link';
}
/** A resource carried in the result itself. */
export interface McpEmbeddedResource {
  type: 'resource';
  resource: { uri: string; mimeType: string; text: string };
}
/** What a tool answers (MCP `CallToolResult`): a short text, links, structured content. */
export interface McpToolResult {
  [key: string]: unknown;
  content: (McpTextContent | McpResourceLink | McpEmbeddedResource)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** An error of the contract's catalogue (as in the API's envelope). */
export interface McpToolErrorInit {
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
  request_id?: string | undefined;
}

const text = (value: string): McpTextContent => ({ type: 'text', text: value });

/** `38 s`, `2 min 5 s`. */
function duration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * A tool error (`isError`): the API's error, code, message and details, as one JSON text,
 * so an agent reads what went wrong and a program can parse it. Never a protocol error:
 * the agent sees it and can correct the call.
 *
 * @example
 * toolError({ code: 'RESOURCE_NOT_FOUND', message: 'No project with this identifier exists.' });
 */
export function toolError(error: McpToolErrorInit): McpToolResult {
  const { code, message, details, request_id } = error;
  const body = {
    code,
    message,
    ...(details === undefined ? {} : { details }),
    ...(request_id === undefined ? {} : { request_id }),
  };
  return { isError: true, content: [text(JSON.stringify({ error: body }))] };
}

/**
 * What generate_project and get_project answer for a project's status: the structured
 * project, a one-line summary and, once completed, a resource link per document.
 * `note` is added to the summary (e.g. why a wait ended before the project did).
 *
 * @example
 * const result = projectResult(await pgs.projects.get(projectId));
 */
export function projectResult(status: ProjectStatus, note?: string): McpToolResult {
  const add = (line: string) => (note === undefined ? line : `${line} ${note}`);
  switch (status.status) {
    case 'in_progress':
      return {
        content: [
          text(
            add(
              `Project ${status.projectId} is in progress, about ${duration(status.estimatedCompletionMs)} left. Follow it with get_project.`,
            ),
          ),
        ],
        structuredContent: {
          projectId: status.projectId,
          status: status.status,
          estimatedCompletionMs: status.estimatedCompletionMs,
        },
      };
    case 'completed': {
      const { project, metadata } = status;
      const links: McpResourceLink[] = project.documents.map((doc) => ({
        type: 'resource_link',
        ...documentResource(status.projectId, project.name, doc.filename),
      }));
      return {
        content: [
          text(
            add(
              `${project.name} (${project.type}, ${status.projectId}) is completed: ${project.documents.length} documents, ${metadata.creditsConsumed} credits consumed. Each document is a resource (linked below); read one with read_document.`,
            ),
          ),
          ...links,
        ],
        structuredContent: {
          projectId: status.projectId,
          status: status.status,
          name: project.name,
          description: project.description,
          type: project.type,
          creditsConsumed: metadata.creditsConsumed,
          documents: project.documents.map((doc) => ({
            filename: doc.filename,
            uri: documentUri(status.projectId, doc.filename),
          })),
        },
      };
    }
    case 'failed':
      return {
        content: [
          text(
            add(
              `Project ${status.projectId} failed (${status.error.code}): ${status.error.message}`,
            ),
          ),
        ],
        structuredContent: {
          projectId: status.projectId,
          status: status.status,
          error: { code: status.error.code, message: status.error.message },
        },
      };
    default: {
      const never: never = status;
      throw new Error(`unknown project status ${JSON.stringify(never)}`);
    }
  }
}

/**
 * What list_projects answers: the listing's summaries as they are, and one line each.
 *
 * @example
 * projectListResult({ data: page.data, has_more: page.hasMore });
 */
export function projectListResult(list: {
  data: readonly ProjectSummary[];
  has_more: boolean;
}): McpToolResult {
  const lines = list.data.map(
    (p) =>
      `- ${p.name ?? `"${p.ideaExcerpt}" (not named yet)`} (${p.type ?? 'type not chosen yet'}): ${p.status}, ${p.projectId}${p.costUsd === null ? '' : `, model cost $${p.costUsd}`}`,
  );
  const head =
    list.data.length === 0
      ? 'No projects.'
      : `${list.data.length} project${list.data.length === 1 ? '' : 's'}, newest first${list.has_more ? ' (more exist: raise limit)' : ''}:`;
  return {
    content: [text([head, ...lines].join('\n'))],
    structuredContent: { projects: [...list.data], hasMore: list.has_more },
  };
}

/**
 * What read_document answers: the markdown, structured and as an embedded resource.
 *
 * @example
 * documentResult(projectId, 'README.md', markdown);
 */
export function documentResult(
  projectId: string,
  filename: string,
  markdown: string,
): McpToolResult {
  const uri = documentUri(projectId, filename);
  return {
    content: [
      text(`${filename} of project ${projectId} (${markdown.length} characters of markdown):`),
      { type: 'resource', resource: { uri, mimeType: 'text/markdown', text: markdown } },
    ],
    structuredContent: { projectId: projectId.toLowerCase(), filename, uri, markdown },
  };
}

/**
 * What get_credits answers.
 *
 * @example
 * creditsResult({ mode: 'test', balance: 953, reserved: 0 });
 */
export function creditsResult(credits: {
  mode: string;
  balance: number;
  reserved: number;
}): McpToolResult {
  const { mode, balance, reserved } = credits;
  return {
    content: [
      text(
        `${balance} ${mode} credits available; ${reserved} held by projects in progress. A web project costs 47, mobile and mcp 50.`,
      ),
    ],
    structuredContent: { mode, balance, reserved },
  };
}

/**
 * What get_trace answers: the coverage per requirement, its totals and the findings (the
 * graph's nodes and edges stay in `GET /projects/{id}/trace` and the archive's trace.json).
 *
 * @example
 * traceResult(projectId, await pgs.projects.trace(projectId));
 */
export function traceResult(
  projectId: string,
  trace: Trace & { progress?: TraceProgress },
): McpToolResult {
  const { totals, requirements } = trace.coverage;
  const worst = (severity: string) => trace.findings.filter((f) => f.severity === severity).length;
  const { progress } = trace;
  // Delivery as the REST trace shows it (issue 30): live state beside the documents.
  const delivery = progress
    ? ` Delivery: ${progress.tasks.done} of ${progress.tasks.total} tasks done, ${progress.criteria.delivered} of ${progress.criteria.total} criteria delivered.`
    : '';
  return {
    content: [
      text(
        `${totals.frs} requirements: ${totals.withCriterion} with acceptance criteria, ${totals.withStory} with stories, ${totals.withComponent} with components, ${totals.withTask} with tasks (${totals.mustsWithStory} of ${totals.musts} musts with a story). ${trace.findings.length} findings: ${worst('critical')} critical, ${worst('high')} high.${delivery}`,
      ),
    ],
    structuredContent: {
      projectId: projectId.toLowerCase(),
      totals,
      requirements,
      findings: trace.findings,
      ...(progress ? { progress } : {}),
    },
  };
}

/** How many documents each type's workflow generates (the server's catalogue checks it). */
export const DOCUMENTS_PER_TYPE = { web: 8, mobile: 9, mcp: 9 } as const satisfies Record<
  ProjectType,
  number
>;

/** One MCP progress notification's `progress`, `total` and `message`. */
export interface McpProgress {
  progress: number;
  total?: number;
  message: string;
}

/**
 * Turns a project's events into MCP progress: 0 when the wait starts, then one step per
 * document stored (`progress` only ever grows, as MCP requires); `total` is the number of
 * documents when the type is known at creation (without `type` the model chooses it later).
 *
 * @example
 * const progress = new GenerationProgress('web');
 * send(progress.start(created.estimatedCompletionMs));
 * for (const event of events) { const step = progress.next(event); if (step) send(step); }
 */
export class GenerationProgress {
  #documents = 0;
  readonly #total: number | undefined;

  constructor(type?: ProjectType) {
    this.#total = type === undefined ? undefined : DOCUMENTS_PER_TYPE[type];
  }

  #step(message: string): McpProgress {
    return {
      progress: this.#documents,
      ...(this.#total === undefined ? {} : { total: this.#total }),
      message,
    };
  }

  /** The first notification, as the wait begins. */
  start(estimatedCompletionMs: number): McpProgress {
    return this.#step(`Generating, about ${duration(estimatedCompletionMs)} estimated.`);
  }

  /** The notification for one event of the project's stream, if it is a step. */
  next(event: { type: string; data: unknown }): McpProgress | undefined {
    if (event.type !== 'document.completed') return undefined;
    this.#documents++;
    const filename = (event.data as { filename?: unknown }).filename;
    const of = this.#total === undefined ? 'so far' : `of ${this.#total}`;
    return this.#step(`${String(filename)} written (${this.#documents} ${of}).`);
  }
}
