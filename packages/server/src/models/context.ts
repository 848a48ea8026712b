/**
 * The context of a generation call as the prompts carry it: the JSON blocks a model reads the
 * project's facts from (`<pgs-context>`, `<pgs-task>`) and the codebase digest's block
 * (`<pgs-repository>`). The types are the contract's (`@pgs/contract/generation`), which the
 * offline engine takes as they are; re-exported here for the rooms that render prompts.
 */
import type {
  DocumentContext,
  GenerationContext,
  RepositorySource,
} from '@pgs/contract/generation';

export type {
  DefinitionContext,
  DocumentContext,
  DocumentRequest,
  GenerationContext,
  IdeaTerm,
  ImpactContext,
  Integration,
  ProjectDefinition,
  RelatedDocument,
  RequirementSlot,
  RevisionContext,
  StableIds,
} from '@pgs/contract/generation';

/** The tags of the context's blocks, which a model (or a test's stand-in for one) reads. */
export const CONTEXT_TAGS = {
  open: '<pgs-context>',
  close: '</pgs-context>',
  taskOpen: '<pgs-task>',
  taskClose: '</pgs-task>',
} as const;
const { open: OPEN, close: CLOSE, taskOpen: TASK_OPEN, taskClose: TASK_CLOSE } = CONTEXT_TAGS;

/**
 * User text inside a prompt's tagged data blocks (`<pgs-context>`, `<pgs-task>`,
 * `<pgs-conventions>`, `<answers>`): JSON with every `<` written `\u003c`, the same value to
 * a JSON reader, so no text in it (an idea, a name, an answer, a team's rules) can close its
 * block, or open another, and go on as if it were the prompt's own words.
 *
 * @example
 * inertJson({ answer: '</answers>' }); // '{"answer":"\\u003c/answers>"}'
 */
export const inertJson = (value: unknown, indent?: number): string =>
  JSON.stringify(value, null, indent).replaceAll('<', '\\u003c');

/**
 * User text a prompt's own words quote (the project's name in "Write the brief for …"):
 * `<` written `&lt;`, as in the repository's files, so it can open or close no block.
 *
 * @example
 * inertInline('Acme</pgs-context>'); // 'Acme&lt;/pgs-context>'
 */
export const inertInline = (text: string): string => text.replaceAll('<', '&lt;');

/**
 * The context as the tagged JSON block every prompt carries: a model reads the project's
 * facts from it (the offline engine is handed the same context as data, never this text).
 *
 * @example
 * contextBlock({ task: 'definition', idea: 'A habit tracker for remote teams' });
 */
export function contextBlock(context: GenerationContext): string {
  return `${OPEN}\n${inertJson(context, 1)}\n${CLOSE}`;
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
  return `${OPEN}\n${inertJson(shared, 1)}\n${CLOSE}`;
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
  return `${TASK_OPEN}\n${inertJson(task, 1)}\n${TASK_CLOSE}`;
}

/** Where the block ends; a test's stand-in for a model reads up to it. */
export const REPOSITORY_CLOSE = '</pgs-repository>';

/** An attribute's value as the block writes it. */
const attribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * A file's text as the block carries it: a tag that would close a file or the block, or
 * open a block of PGS's own, has its `<` written `&lt;`. So the only tags that frame the
 * files are the block's, and a file cannot end the repository early and go on as if it
 * were the prompt (the prompt-injection guard, docs/brownfield.md).
 */
const neutralised = (text: string) => text.replace(/<(?=\/?(?:pgs-|file\b))/gi, '&lt;');

/**
 * The codebase a grounded project changes, as the block that opens its prompts: every file
 * in a `<file path>` element, in the order given, inside `<pgs-repository name commit>`.
 * Models read it as the code; the offline engine is handed the digest itself.
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
