/**
 * Every document kind the engine writes, one file each (documents/<kind>.ts), keyed by the
 * contract's catalogue: a kind added to `DOCUMENT_KINDS` fails the build here until its file
 * exists, and each file's `satisfies KindWriter<kind>` fails until every section has a writer.
 * A request for a kind or a section the catalogue does not have is refused, never filled.
 */
import type { DocumentKindName } from '@pgs/contract';
import { API_DESIGN } from './api-design.ts';
import { ARCHITECTURE } from './architecture.ts';
import { CODEBASE_OVERVIEW } from './codebase-overview.ts';
import { DATA_MODEL } from './data-model.ts';
import { IMPLEMENTATION_PLAN } from './implementation-plan.ts';
import type { KindWriter, SectionWriter } from './kind.ts';
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

const KINDS: { readonly [K in DocumentKindName]: KindWriter<K> } = {
  'project-brief': PROJECT_BRIEF,
  'codebase-overview': CODEBASE_OVERVIEW,
  'product-requirements': PRODUCT_REQUIREMENTS,
  'user-stories': USER_STORIES,
  architecture: ARCHITECTURE,
  'data-model': DATA_MODEL,
  'api-design': API_DESIGN,
  screens: SCREENS,
  navigation: NAVIGATION,
  'offline-and-permissions': OFFLINE_AND_PERMISSIONS,
  'mcp-tools': MCP_TOOLS,
  'mcp-resources-and-prompts': MCP_RESOURCES_AND_PROMPTS,
  'mcp-transport-and-clients': MCP_TRANSPORT_AND_CLIENTS,
  'implementation-plan': IMPLEMENTATION_PLAN,
  readme: README,
};

/** A kind's writers, read by name; the kinds' own types are narrower than a lookup needs. */
interface Writers {
  readonly purpose: string;
  readonly sections: Readonly<Record<string, SectionWriter>>;
  readonly grounded?: Readonly<Record<string, SectionWriter | undefined>>;
}

/**
 * The writers of a kind the request names; throws for a kind the catalogue does not have.
 *
 * @example
 * kindWriters('user-stories').purpose; // 'These stories describe the work…'
 */
export function kindWriters(kind: string): Writers {
  if (!Object.hasOwn(KINDS, kind))
    throw new Error(`the offline engine writes no document of the kind "${kind}"`);
  return KINDS[kind as DocumentKindName] as Writers;
}

/**
 * The writer of one section: the grounded one for a grounded project when the kind has one,
 * else the kind's own; throws for a section the kind does not have (no filler).
 *
 * @example
 * sectionWriter(kindWriters('user-stories'), 'user-stories', 'Edge cases', false)(facts);
 */
export function sectionWriter(
  writers: Writers,
  kind: string,
  section: string,
  grounded: boolean,
): SectionWriter {
  const own = (table: Readonly<Record<string, SectionWriter | undefined>> | undefined) =>
    table !== undefined && Object.hasOwn(table, section) ? table[section] : undefined;
  const writer = (grounded ? own(writers.grounded) : undefined) ?? own(writers.sections);
  if (writer === undefined)
    throw new Error(`the offline engine has no writer for the section "${section}" of ${kind}`);
  return writer;
}
