import { MCP_CONSTRAINTS } from './tools.ts';

/** Documents as MCP resources: one URI per document of a project (RFC 6570 level 1). */
export const DOCUMENT_URI_TEMPLATE = 'pgs://projects/{projectId}/documents/{filename}';

const FILENAME = new RegExp(MCP_CONSTRAINTS.filename.pattern);
const MAX_FILENAME = MCP_CONSTRAINTS.filename.maxLength;
const DOCUMENT_URI =
  /^pgs:\/\/projects\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/documents\/([^/?#]+)$/i;

/**
 * A document's resource URI.
 *
 * @example
 * documentUri(projectId, 'PRODUCT_REQUIREMENTS.md'); // 'pgs://projects/<id>/documents/PRODUCT_REQUIREMENTS.md'
 */
export function documentUri(projectId: string, filename: string): string {
  return `pgs://projects/${projectId.toLowerCase()}/documents/${filename}`;
}

/**
 * The project and filename a document URI names, or undefined when it is not one (the
 * filename obeys the API's own rule for `getProjectDocument`).
 *
 * @example
 * parseDocumentUri('pgs://projects/<id>/documents/README.md'); // { projectId: '<id>', filename: 'README.md' }
 */
export function parseDocumentUri(uri: string): { projectId: string; filename: string } | undefined {
  const match = DOCUMENT_URI.exec(uri);
  if (match === null) return undefined;
  const [, projectId, filename] = match as unknown as [string, string, string];
  if (filename.length > MAX_FILENAME || !FILENAME.test(filename)) return undefined;
  return { projectId: projectId.toLowerCase(), filename };
}

/** The resource template `resources/templates/list` answers. */
export const DOCUMENT_RESOURCE_TEMPLATE = {
  uriTemplate: DOCUMENT_URI_TEMPLATE,
  name: 'project-document',
  title: 'A generated project document',
  description:
    "One markdown document of a project (filenames as get_project lists them). resources/list lists completed projects' documents, one page per project.",
  mimeType: 'text/markdown',
} as const;

/** One document as `resources/list` lists it and as a resource link names it. */
export interface DocumentResource {
  uri: string;
  name: string;
  title: string;
  mimeType: 'text/markdown';
}

/**
 * The listing entry (and resource link) of a document.
 *
 * @example
 * documentResource(projectId, 'HabitTrack', 'README.md'); // { uri, name: 'README.md', title: 'HabitTrack: README.md', mimeType: 'text/markdown' }
 */
export function documentResource(
  projectId: string,
  projectName: string | null,
  filename: string,
): DocumentResource {
  return {
    uri: documentUri(projectId, filename),
    name: filename,
    title: `${projectName ?? projectId}: ${filename}`,
    mimeType: 'text/markdown',
  };
}

/** The MCP error code of a resource that does not exist (the specification's). */
export const MCP_RESOURCE_NOT_FOUND = -32002;

/**
 * The JSON-RPC error code for a catalogue code, where a protocol error is the answer
 * (resources and prompts; tools answer tool errors): not found → -32002, bad input →
 * InvalidParams, our fault → InternalError, anything else (a limit) → -32000, the range
 * JSON-RPC leaves to implementations. `data.code` carries the catalogue's code itself.
 *
 * @example
 * protocolErrorCode('RESOURCE_NOT_FOUND'); // -32002
 */
export function protocolErrorCode(code: string): number {
  switch (code) {
    case 'RESOURCE_NOT_FOUND':
    case 'PROJECT_NOT_COMPLETED':
      return MCP_RESOURCE_NOT_FOUND;
    case 'VALIDATION_ERROR':
      return -32602;
    case 'INTERNAL_ERROR':
      return -32603;
    default:
      return -32000;
  }
}

/** The prompt `new_project_spec`: asks for the idea and the type, then calls generate_project. */
export const NEW_PROJECT_SPEC_PROMPT = {
  name: 'new_project_spec',
  title: 'New project spec',
  description: 'Generate the spec documents of a new project with PGS, then read them.',
  arguments: [
    {
      name: 'idea',
      description: 'The project idea, in plain words (10 to 5,000 characters)',
      required: true,
    },
    {
      name: 'type',
      description: 'web, mobile or mcp (inferred from the idea when empty)',
      required: false,
    },
  ],
} as const;

/** The outcome of {@link getPrompt}: the prompt's messages, or why there are none. */
export type PromptOutcome =
  | {
      ok: true;
      result: {
        description: string;
        messages: { role: 'user'; content: { type: 'text'; text: string } }[];
      };
    }
  | {
      ok: false;
      message: string;
      details?: { missing_fields?: string[]; invalid_fields?: Record<string, string> };
    };

/**
 * The messages of a prompt (`prompts/get`) for the arguments the client gathered; only
 * `new_project_spec` exists. The idea is required, the type one of the project types.
 *
 * @example
 * const outcome = getPrompt('new_project_spec', { idea: 'A habit tracker for remote teams', type: 'web' });
 */
export function getPrompt(
  name: string,
  args: Readonly<Record<string, string | undefined>> | undefined,
): PromptOutcome {
  if (name !== NEW_PROJECT_SPEC_PROMPT.name)
    return { ok: false, message: `Unknown prompt: ${name}` };
  const idea = args?.idea?.trim() ?? '';
  const type = args?.type?.trim() ?? '';
  if (idea === '') {
    return {
      ok: false,
      message: 'The prompt needs an idea.',
      details: { missing_fields: ['idea'] },
    };
  }
  const types: readonly string[] = MCP_CONSTRAINTS.projectTypes;
  if (type !== '' && !types.includes(type)) {
    return {
      ok: false,
      message: `type must be one of ${types.join(', ')}.`,
      details: { invalid_fields: { type: `must be one of ${types.join(', ')}` } },
    };
  }
  const typed = type === '' ? '' : `, type "${type}"`;
  const text = [
    `Generate the spec of a new project with PGS: call the generate_project tool with idea ${JSON.stringify(idea)}${typed} and wait: true.`,
    'When it completes, read PROJECT_BRIEF.md and IMPLEMENTATION_PLAN.md from the resource links it returns (or with read_document),',
    'then summarise the project in a few lines and propose the first tasks of the plan. If it fails, say why and what it cost.',
  ].join(' ');
  return {
    ok: true,
    result: {
      description: `New project spec: ${idea.slice(0, 80)}`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    },
  };
}
