import type { DocumentPrompt } from '../types.ts';
import { API_DESIGN } from './api-design.ts';
import { ARCHITECTURE } from './architecture.ts';
import { CODEBASE_OVERVIEW } from './codebase-overview.ts';
import { DATA_MODEL } from './data-model.ts';
import { IMPLEMENTATION_PLAN } from './implementation-plan.ts';
import { MCP_RESOURCES_AND_PROMPTS } from './mcp-resources-and-prompts.ts';
import { MCP_TOOLS } from './mcp-tools.ts';
import { MCP_TRANSPORT_AND_CLIENTS } from './mcp-transport-and-clients.ts';
import { NAVIGATION } from './navigation.ts';
import { OFFLINE_AND_PERMISSIONS } from './offline-and-permissions.ts';
import { PRODUCT_REQUIREMENTS } from './product-requirements.ts';
import { PROJECT_BRIEF } from './project-brief.ts';
import { README } from './readme.ts';
import { SCREENS } from './screens.ts';
import { USER_STORIES } from './user-stories.ts';

const ALL: readonly DocumentPrompt[] = [
  PROJECT_BRIEF,
  CODEBASE_OVERVIEW,
  PRODUCT_REQUIREMENTS,
  USER_STORIES,
  ARCHITECTURE,
  API_DESIGN,
  DATA_MODEL,
  SCREENS,
  NAVIGATION,
  OFFLINE_AND_PERMISSIONS,
  MCP_TOOLS,
  MCP_RESOURCES_AND_PROMPTS,
  MCP_TRANSPORT_AND_CLIENTS,
  IMPLEMENTATION_PLAN,
  README,
];

/**
 * Every document kind's prompt, keyed by kind.
 *
 * @example
 * DOCUMENT_PROMPTS['architecture']?.version; // 1
 */
export const DOCUMENT_PROMPTS: Readonly<Record<string, DocumentPrompt>> = Object.freeze(
  Object.fromEntries(ALL.map((prompt) => [prompt.kind, prompt])),
);

/**
 * The prompt for a document kind; an unknown kind is a programming error, so it throws
 * rather than letting a document be generated without its brief.
 *
 * @example
 * documentPromptOf('mcp-tools').maxOutputTokens; // 8000
 */
export function documentPromptOf(kind: string): DocumentPrompt {
  const prompt = Object.hasOwn(DOCUMENT_PROMPTS, kind) ? DOCUMENT_PROMPTS[kind] : undefined;
  if (!prompt) throw new Error(`No prompt for document kind "${kind}"`);
  return prompt;
}
