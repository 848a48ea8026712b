/**
 * `@pgs/offline`: the offline engine, PGS's embedded model. No network, deterministic for a
 * given input, and typed: each job takes the contract's data (`@pgs/contract/generation`),
 * never prompt text. The server reaches it through the same model interface as a provider
 * (`packages/server/src/models/sdk/offline-model.ts`), which adds only simulated delays and
 * failures.
 *
 * One function per job:
 * - {@link defineProject}: the idea (a type or a name pinned, a codebase digest) → a definition;
 * - {@link writeDocument}: a document of a kind, or its rewrite for a revision → markdown;
 * - {@link readChangeRequest}: a change request against the requirements → deltas;
 * - {@link readRepository}: a codebase digest → the facts the grounded documents cite.
 *
 * Documents come back as markdown, not as a `@pgs/contract/document` tree: the section
 * writers build trees (text/nodes.ts) that documents/write.ts renders once, because the
 * workflow stores, checks and repairs the markdown a model answers with, which the engine's
 * answer must be byte for byte (the bench's figures and the revision's "keep every other
 * line" rules read it).
 *
 * @example
 * import { defineProject, writeDocument } from '@pgs/offline';
 * const definition = defineProject({ idea: 'A habit tracker for remote teams', type: 'web' });
 * const markdown = writeDocument({ idea, definition, document, related: [] });
 */
import { applyAnswers, applyConventions, type ClarifyQuestion } from '@pgs/contract';
import type {
  DefinitionContext,
  DocumentContext,
  ImpactContext,
  ProjectDefinition,
  RepositorySource,
  RequirementDelta,
} from '@pgs/contract/generation';
import { type ClarifyRequest, clarifyQuestions } from './clarify/questions.ts';
import { readCodebase } from './codebase/read.ts';
import type { CodebaseFacts } from './codebase/types.ts';
import { type RevisionRequest, reviseDocument } from './documents/revise.ts';
import { writeDocument as write } from './documents/write.ts';
import { withStatedRegimes } from './facts/compliance.ts';
import { withoutSignInFeature } from './facts/settled.ts';
import { forLanguage, forPlatforms, withEquivalents } from './facts/stack-choice.ts';
import { defineProject as define } from './reading/define.ts';
import { readImpact } from './reading/impact.ts';

export type { CodebaseFacts } from './codebase/types.ts';
export { definitionChecks } from './reading/definition-check.ts';
export { changeFindings, removalFindings } from './reading/impact-check.ts';
export { wishFindings } from './reading/priority-check.ts';
export { contentTerms, missingTerms } from './reading/reading.ts';

/** A definition call: the idea, and the type, name and codebase the client gave. */
export type DefinitionRequest = Omit<DefinitionContext, 'task'>;

/**
 * A document call: the definition, the document asked for, the earlier ones it builds on;
 * with `revision`, the rewrite of the document for a revision (its requirement register and
 * the story and task IDs to keep).
 */
export type DocumentWriteRequest = Omit<DocumentContext, 'task'> & {
  revision?: Pick<RevisionRequest, 'register' | 'ids'>;
};

/** A change request read against the requirement groups of the revision it changes. */
export type ChangeRequest = Omit<ImpactContext, 'task'>;

/**
 * Settles a project from its idea: name (or the requested one), description, type (or the
 * pinned one) and questionnaire, every content word of the idea kept somewhere; a grounded
 * project keeps its codebase's stack and services.
 *
 * @example
 * defineProject({ idea: 'A tool for small veterinary clinics to send vaccine reminders by SMS' }).type; // 'web'
 */
export function defineProject(request: DefinitionRequest): ProjectDefinition {
  // Answers are facts: an answered question is never left an assumption (docs/clarify.md);
  // the house conventions hold unless the idea chose otherwise (docs/conventions.md).
  // A phone app answered for both platforms is built for both (stack-choice.ts).
  // A compliance regime the idea requires is a constraint, as an answered one (compliance.ts).
  // A product answered "No accounts" has no sign-in feature (facts/settled.ts).
  const answered = forPlatforms(
    withoutSignInFeature(
      withStatedRegimes(applyAnswers(define(request), request.answers ?? []), request.idea),
    ),
    request.idea,
  );
  // A language the conventions require is the stack's language, not a name put first.
  const chosen = forLanguage(answered, request);
  const housed = applyConventions(chosen, request.conventions, request.idea).definition;
  // A default the conventions forbid gives way to an equivalent of its category (stack-choice.ts).
  const techStack = withEquivalents(
    chosen.questionnaire.techStack,
    housed.questionnaire.techStack,
    request.conventions,
  );
  return { ...housed, questionnaire: { ...housed.questionnaire, techStack } };
}

/**
 * The markdown of one document: `# <Title>: <name>`, an introduction, then one `## ` section per
 * requested section, each by its kind's writer (documents/<kind>.ts). With `revision`, story
 * and task IDs keep the numbers the revision being changed gave them.
 *
 * @example
 * writeDocument({ idea, definition, document: { kind: 'user-stories', title: 'User Stories',
 *   filename: 'USER_STORIES.md', stage: 'requirements', sections: ['Epics', 'Stories', 'Edge cases'] }, related: [] });
 */
export function writeDocument(request: DocumentWriteRequest): string {
  const { revision, ...document } = request;
  // Always English: a `language` asked for is not written here (provenance says so).
  return revision === undefined ? write(document) : reviseDocument({ ...document, ...revision });
}

/**
 * A change request read into requirement deltas (ADDED, MODIFIED, REMOVED, RENAMED), each
 * clause against the requirement groups it names; a clause that names none adds nothing.
 *
 * @example
 * readChangeRequest({ idea, definition, changeRequest: 'Drop the medical records.', requirements, nextNumber: 4 });
 * // [{ op: 'removed', id: 'FR-2', title: 'Medical records', reason: 'Drop the medical records.' }]
 */
export function readChangeRequest(request: ChangeRequest): RequirementDelta[] {
  return readImpact({ task: 'impact', ...request });
}

/**
 * What a codebase digest shows: its stack, components, data stores and services, routes,
 * entities, entry points and tests, each with the file it was read from.
 *
 * @example
 * readRepository({ name: 'vetbook-api', commit: null, files }).stack[0]; // { name: 'Node.js', layer: 'Runtime', evidence: 'package.json' }
 */
export function readRepository(source: RepositorySource): CodebaseFacts {
  return readCodebase(source);
}

/**
 * What the idea leaves open, asked before writing: at most five questions, most consequential
 * first, each with the answer the engine would otherwise assume (docs/clarify.md).
 *
 * @example
 * clarifyIdea({ idea: 'A booking tool for dog groomers' }).map((q) => q.id); // ['sign-in', …]
 */
export function clarifyIdea(request: ClarifyRequest): ClarifyQuestion[] {
  return clarifyQuestions(request.idea, define(request));
}
