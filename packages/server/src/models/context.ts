import type { ProjectType } from '@pgs/contract';
import type { RequirementDelta, RequirementRef } from './deltas.ts';
import type { RepositorySource } from './offline/codebase/types.ts';

/**
 * What the first stage settles about a project: the contract's name, description, type
 * and questionnaire (its three named members and the further ones PGS fills).
 */
export interface ProjectDefinition {
  name: string;
  description: string;
  type: ProjectType;
  questionnaire: {
    targetAudience: string;
    monetization: string;
    techStack: string[];
    platforms: string[];
    coreFeatures: string[];
    constraints: string[];
    successMetrics: string[];
    /**
     * Each capability, qualifier and number the idea states, and the core feature that
     * carries it (docs/document-formats.md). Absent on definitions made before these members.
     */
    ideaCoverage?: IdeaTerm[];
    /** The things the product stores or manipulates. */
    keyEntities?: string[];
    /** External services the idea names or clearly implies. */
    integrations?: Integration[];
    /** What the first release deliberately does not do. */
    nonGoals?: string[];
    /** Facts the idea leaves unknown, each with the default chosen (the brief's `A-n`). */
    assumptions?: string[];
    /** Questions only the client can answer, with why they matter (the brief's `Q-n`). */
    openQuestions?: string[];
  };
}

/** A term of the idea (as written) and the core feature that carries it. */
export interface IdeaTerm {
  term: string;
  feature: string;
}

/** An external service and what the product uses it for. */
export interface Integration {
  name: string;
  purpose: string;
}

/** A document the workflow asks for. */
export interface DocumentRequest {
  kind: string;
  title: string;
  filename: string;
  stage: string;
  sections: readonly string[];
}

/** An earlier document a later one builds on (its full text travels in the prompt). */
export interface RelatedDocument {
  kind: string;
  title: string;
}

/**
 * Everything a generation call is about. The prompts render it as a JSON block (a real
 * model reads it with the prose around it); the offline engine reads it back.
 */
export type GenerationContext =
  | {
      task: 'definition';
      idea: string;
      /** The type the request asked for; absent, the model chooses. */
      type?: ProjectType;
      requestedName?: string;
      /** The codebase a grounded project changes, as its prompt carries it. */
      repository?: RepositorySource;
    }
  | {
      task: 'document';
      idea: string;
      definition: ProjectDefinition;
      document: DocumentRequest;
      related: RelatedDocument[];
      /** How much the document says; absent means `standard`. */
      detail?: 'brief' | 'standard' | 'deep';
      /** The codebase a grounded project changes, as its prompt carries it. */
      repository?: RepositorySource;
    }
  | ImpactContext
  | RevisionContext;

/**
 * A revision's first step: the change request read against the requirements of the
 * revision it changes, answered with requirement deltas (docs/revisions.md).
 */
export interface ImpactContext {
  task: 'impact';
  idea: string;
  changeRequest: string;
  definition: ProjectDefinition;
  /** The requirement groups (`FR-n`) of the revision being changed, with their titles. */
  requirements: RequirementRef[];
  /** The number an ADDED requirement takes first (above every ID ever used). */
  nextNumber: number;
}

/**
 * A slot of the requirement register: the ID and priority of the requirement group that a
 * core feature (same index in `questionnaire.coreFeatures`) became. It keeps IDs and
 * priorities stable when features are added or removed.
 */
export interface RequirementSlot {
  id: string;
  priority: 'Must' | 'Should' | 'Could';
}

/** The stories and tasks of the revision being changed, each with what it is about. */
export interface StableIds {
  /** `US-n` with its key (the requirement groups it cites, and its rank among those citing them). */
  stories: { id: string; key: string }[];
  tasks: { id: string; key: string }[];
  /** Every ID removed by any revision so far: never given out again. */
  retired: string[];
}

/**
 * Rewriting one document for a revision: its previous version, the deltas, and the
 * definition with the deltas applied (`register` parallel to its core features).
 */
export interface RevisionContext {
  task: 'revision';
  idea: string;
  definition: ProjectDefinition;
  register: RequirementSlot[];
  document: DocumentRequest;
  related: RelatedDocument[];
  deltas: RequirementDelta[];
  /** The document as the revision being changed holds it. */
  previous: string;
  ids: StableIds;
  /** The codebase a grounded project changes, as the revision's prompt carries it. */
  repository?: RepositorySource;
}

const OPEN = '<pgs-context>';
const CLOSE = '</pgs-context>';
const TASK_OPEN = '<pgs-task>';
const TASK_CLOSE = '</pgs-task>';

/** A document call's context, split where the prompt is: what every document shares first. */
type DocumentContext = Extract<GenerationContext, { task: 'document' }>;

/**
 * The context as the tagged JSON block every prompt carries: a model reads the project's
 * facts from it, and the offline engine reads the whole call from it.
 *
 * @example
 * contextBlock({ task: 'definition', idea: 'A habit tracker for remote teams' });
 */
export function contextBlock(context: GenerationContext): string {
  return `${OPEN}\n${JSON.stringify(context, null, 1)}\n${CLOSE}`;
}

/**
 * The part of a document call's context that every document of the project shares (the
 * idea and the definition), as the block that opens its prompt. The rest, what this one
 * document is, follows the earlier documents as {@link taskBlock}: so the prompts of one
 * project begin with the same words, which a provider's prompt cache serves (docs/cost.md).
 *
 * @example
 * projectBlock({ idea, definition }) + earlierDocuments + taskBlock({ document, related });
 */
export function projectBlock(context: Pick<DocumentContext, 'idea' | 'definition'>): string {
  const shared = { task: 'document', idea: context.idea, definition: context.definition };
  return `${OPEN}\n${JSON.stringify(shared, null, 1)}\n${CLOSE}`;
}

/** What this one document is: the block that closes a document call's context. */
export function taskBlock(
  context: Pick<DocumentContext, 'document' | 'related' | 'detail'>,
): string {
  const task = {
    document: context.document,
    related: context.related,
    // A standard document's block stays as it always was.
    ...(context.detail === undefined || context.detail === 'standard'
      ? {}
      : { detail: context.detail }),
  };
  return `${TASK_OPEN}\n${JSON.stringify(task, null, 1)}\n${TASK_CLOSE}`;
}

/**
 * Reads the context back out of a prompt, a {@link taskBlock} after it merged in and the
 * {@link repositoryBlock} before it read as `repository`; `undefined` when there is none.
 */
export function readContext(prompt: string): GenerationContext | undefined {
  const start = prompt.lastIndexOf(OPEN);
  const end = prompt.lastIndexOf(CLOSE);
  if (start === -1 || end <= start) return undefined;
  try {
    const parsed = JSON.parse(prompt.slice(start + OPEN.length, end)) as GenerationContext;
    const repository = readRepository(prompt.slice(0, start));
    const context = repository === undefined ? parsed : { ...parsed, repository };
    const taskStart = prompt.indexOf(TASK_OPEN, end);
    const taskEnd = prompt.lastIndexOf(TASK_CLOSE);
    if (taskStart === -1 || taskEnd <= taskStart) return context;
    return { ...context, ...JSON.parse(prompt.slice(taskStart + TASK_OPEN.length, taskEnd)) };
  } catch {
    return undefined;
  }
}

const REPOSITORY_CLOSE = '</pgs-repository>';

/** An attribute's value as the block writes it. */
const attribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
const unescapeAttribute = (value: string) =>
  value.replaceAll('&lt;', '<').replaceAll('&quot;', '"').replaceAll('&amp;', '&');

/**
 * A file's text as the block carries it: a tag that would close a file or the block, or
 * open a block of PGS's own, has its `<` written `&lt;`. So the only tags that frame the
 * files are the block's, and a file cannot end the repository early and go on as if it
 * were the prompt (the prompt-injection guard, docs/brownfield.md). Read back, such a
 * line keeps its `&lt;`: a rare spelling the offline reader does not need restored.
 */
const neutralised = (text: string) => text.replace(/<(?=\/?(?:pgs-|file\b))/gi, '&lt;');

/**
 * The codebase a grounded project changes, as the block that opens its prompts: every file
 * in a `<file path>` element, in the order given, inside `<pgs-repository name commit>`.
 * Models read it as the code; the offline engine reads it back with {@link readContext}.
 *
 * @example
 * repositoryBlock({ name: 'vetbook-api', commit: null, files: [{ path: 'package.json', content: '{}' }] });
 * // '<pgs-repository name="vetbook-api">\n<file path="package.json">\n{}\n</file>\n</pgs-repository>'
 */
export function repositoryBlock(repository: RepositorySource): string {
  const commit = repository.commit === null ? '' : ` commit="${attribute(repository.commit)}"`;
  const files = repository.files.map((file) => {
    const text = neutralised(file.content);
    return `<file path="${attribute(file.path)}">\n${text}${text.endsWith('\n') ? '' : '\n'}</file>\n`;
  });
  return `<pgs-repository name="${attribute(repository.name)}"${commit}>\n${files.join('')}${REPOSITORY_CLOSE}`;
}

/** The first {@link repositoryBlock} of a text, read back; undefined when it has none. */
function readRepository(text: string): RepositorySource | undefined {
  const start = text.indexOf('<pgs-repository ');
  const end = text.indexOf(REPOSITORY_CLOSE, start);
  if (start === -1 || end === -1) return undefined;
  const block = text.slice(start, end);
  const head = /^<pgs-repository name="([^"]*)"(?: commit="([^"]*)")?>\n/.exec(block);
  if (!head) return undefined;
  const files = [
    ...block.slice(head[0].length).matchAll(/<file path="([^"]*)">\n([\s\S]*?)<\/file>\n/g),
  ].map((match) => ({ path: unescapeAttribute(match[1]!), content: match[2]! }));
  return {
    name: unescapeAttribute(head[1]!),
    commit: head[2] === undefined ? null : unescapeAttribute(head[2]),
    files,
  };
}
