import type { DocumentKindName } from '@pgs/contract';
import type { AnyDocumentPrompt, DocumentPrompt } from '../types.ts';
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

/**
 * Every document kind's prompt, keyed by kind: a kind of the contract's catalogue without
 * its prompt file here breaks the build.
 *
 * @example
 * DOCUMENT_PROMPTS.architecture.version; // 2
 */
export const DOCUMENT_PROMPTS: { readonly [K in DocumentKindName]: DocumentPrompt<K> } =
  Object.freeze({
    'project-brief': PROJECT_BRIEF,
    'codebase-overview': CODEBASE_OVERVIEW,
    'product-requirements': PRODUCT_REQUIREMENTS,
    'user-stories': USER_STORIES,
    architecture: ARCHITECTURE,
    'api-design': API_DESIGN,
    'data-model': DATA_MODEL,
    screens: SCREENS,
    navigation: NAVIGATION,
    'offline-and-permissions': OFFLINE_AND_PERMISSIONS,
    'mcp-tools': MCP_TOOLS,
    'mcp-resources-and-prompts': MCP_RESOURCES_AND_PROMPTS,
    'mcp-transport-and-clients': MCP_TRANSPORT_AND_CLIENTS,
    'implementation-plan': IMPLEMENTATION_PLAN,
    readme: README,
  });

/**
 * The prompt for a document kind; an unknown kind is a programming error, so it throws
 * rather than letting a document be generated without its brief.
 *
 * @example
 * documentPromptOf('mcp-tools').maxOutputTokens; // 8000
 */
export function documentPromptOf(kind: string): AnyDocumentPrompt {
  const prompt: AnyDocumentPrompt | undefined = Object.hasOwn(DOCUMENT_PROMPTS, kind)
    ? DOCUMENT_PROMPTS[kind as DocumentKindName]
    : undefined;
  if (!prompt) throw new Error(`No prompt for document kind "${kind}"`);
  return prompt;
}
