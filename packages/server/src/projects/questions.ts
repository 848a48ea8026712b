/**
 * Answering a project later (issue 32, docs/clarify.md#answer-later): the open questions and
 * the assumptions of a completed project's brief, each with a recommended answer, and the
 * answers turned into a revision. The register is read from the current brief's tree, whoever
 * wrote it; a revision answering it goes through {@link Revisions} like a change request.
 */
import {
  answersChangeRequest,
  CLARIFY_TOPICS,
  closedIds,
  MAX_ANSWER_LENGTH,
  MAX_ANSWERS,
  type ProjectQuestion,
  type ProjectType,
  SINGLE_LINE_PATTERN,
} from '@pgs/contract';
import { parseDocument, type RegisterItem, registerItems } from '@pgs/contract/document';
import type { ProjectDefinition } from '@pgs/contract/generation';
import type { Principal } from '../accounts/service.ts';
import { DomainError } from '../errors.ts';
import { clarifyIdea } from '../models/clarify.ts';
import { documentPlan } from '../runs/catalogue.ts';
import { BRIEF_KIND } from '../runs/revision-plan.ts';
import type { Tx } from '../storage/db.ts';
import type { ProjectRow } from '../storage/sql/projects.ts';
import type { ProjectReads } from './reads.ts';
import type { CreatedRevision, Revisions } from './revisions.ts';

/** A question no clarifying topic covers: PGS has nothing to recommend but leaving it open. */
const NO_RECOMMENDATION =
  'Not decided for the first release: the documents stay as they are written';

/** What a question without a recommendation carries: accepting it leaves the entry open. */
const NOT_DECIDED = { recommended: NO_RECOMMENDATION, leaveOpen: true } as const;

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');

/**
 * The register entries a caller may answer, with the recommendation of each: an assumption's
 * default; for a question on a clarifying topic (sign-in, payment…) what the engine would
 * assume for this idea, with the topic's options.
 */
export function questionsOf(project: ProjectRow, items: readonly RegisterItem[]) {
  const asked = clarifyIdea({
    idea: project.idea,
    ...(project.type === null ? {} : { type: project.type as ProjectType }),
  });
  return items.map((item): ProjectQuestion => {
    if (item.kind === 'assumption') {
      return {
        id: item.id,
        kind: 'assumption',
        question: item.text,
        why: `The documents rest on this default${item.affects ? ` (${item.affects})` : ''}; answer to overrule it.`,
        recommended: item.default ?? item.text,
      };
    }
    const topic = CLARIFY_TOPICS.find((t) => t.mentions.test(item.text));
    const clarified = asked.find((q) => q.id === topic?.id);
    return {
      id: item.id,
      kind: 'question',
      question: item.text,
      why: item.impact ?? clarified?.why ?? 'It changes what the first release builds.',
      ...(clarified?.options ? { options: clarified.options } : {}),
      ...(clarified ? { recommended: clarified.recommended } : NOT_DECIDED),
    };
  });
}

/**
 * The open questions and assumptions of the caller's projects, and the revisions that answer
 * them. Isolation and state are the revisions' rules: another account's project is not
 * found, one not completed is PROJECT_NOT_COMPLETED.
 *
 * @example
 * const questions = await new ProjectQuestions(reads, revisions).list(principal, projectId);
 */
export class ProjectQuestions {
  readonly #reads: ProjectReads;
  readonly #revisions: Revisions;

  constructor(reads: ProjectReads, revisions: Revisions) {
    this.#reads = reads;
    this.#revisions = revisions;
  }

  /** The entries one may answer now, in the brief's order (questions, then assumptions). */
  async list(principal: Principal, projectId: string): Promise<ProjectQuestion[]> {
    const { project, items } = await this.#register(principal, projectId);
    const questions = questionsOf(project, items);
    return [
      ...questions.filter((q) => q.kind === 'question'),
      ...questions.filter((q) => q.kind === 'assumption'),
    ];
  }

  /**
   * Starts the revision that records the answers: its change request is the answers as
   * text, and the answers are stored with it. An ID that is not open now, an empty or too
   * long answer, is VALIDATION_ERROR (422) naming it; the rest is {@link Revisions.create}'s.
   *
   * @example
   * const { revision } = await questions.answer(principal, projectId, { 'Q-1': 'Twilio' });
   */
  async answer(
    principal: Principal,
    projectId: string,
    answers: Record<string, string>,
    options: { withinTransaction?: (tx: Tx, created: CreatedRevision) => Promise<void> } = {},
  ): Promise<CreatedRevision> {
    const { items, closed } = await this.#register(principal, projectId);
    const open = new Map(items.map((item) => [item.id, item]));
    const entries = Object.entries(answers);
    const invalid: Record<string, string> = {};
    for (const [id, answer] of entries) {
      const field = `answers.${id}`;
      if (!open.has(id)) {
        invalid[field] = closed.has(id)
          ? `${id} is already answered (closed by a decision)`
          : `${id} is not an open question or assumption of this project (GET …/questions lists them)`;
      } else if (answer.trim() === '') invalid[field] = 'must not be blank';
      else if (answer.length > MAX_ANSWER_LENGTH)
        invalid[field] = `must be at most ${MAX_ANSWER_LENGTH} characters`;
      else if (!SINGLE_LINE.test(answer)) invalid[field] = 'must be one line of text';
    }
    if (entries.length === 0) invalid.answers = 'must answer at least one question';
    if (entries.length > MAX_ANSWERS) invalid.answers = `must answer at most ${MAX_ANSWERS}`;
    const named = Object.keys(invalid);
    if (named.length > 0) {
      const first = named[0]!;
      throw new DomainError(
        'VALIDATION_ERROR',
        first === 'answers'
          ? `answers ${invalid[first]}.`
          : `The answer to ${first.slice('answers.'.length)} was refused: ${invalid[first]}.`,
        { invalid_fields: invalid },
        { unprocessable: true },
      );
    }
    const answered = entries.map(([id, answer]) => ({
      id,
      question: open.get(id)!.text,
      answer: answer.trim(),
    }));
    const changeRequest = answersChangeRequest(answered);
    const input = await this.#revisions.admit(principal, { changeRequest });
    return this.#revisions.create(
      principal,
      projectId,
      { ...input, answers: Object.fromEntries(answered.map((a) => [a.id, a.answer])) },
      options,
    );
  }

  /** The caller's completed project, its brief's open entries and the IDs already closed. */
  async #register(principal: Principal, projectId: string) {
    const id = projectId.toLowerCase();
    const project = await this.#reads.owned(principal, id);
    if (project === undefined) {
      throw new DomainError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
        resource_type: 'project',
        resource_id: projectId,
      });
    }
    if (project.status !== 'completed' || project.type === null) {
      const status = project.status === 'failed' ? 'failed' : 'in_progress';
      throw new DomainError(
        'PROJECT_NOT_COMPLETED',
        status === 'in_progress'
          ? 'The project is still being generated; its questions can be answered once it is completed.'
          : 'The project failed; only a completed project has questions to answer.',
        { resource_type: 'project', resource_id: id, status },
      );
    }
    const filename = documentPlan(project.type as ProjectType).find(
      (doc) => doc.kind === BRIEF_KIND,
    )!.filename;
    const brief = await this.#reads.document(principal, id, filename);
    const items = brief?.content ? registerItems(parseDocument(brief.content, { filename })) : [];
    const row =
      project.currentRevision > 1
        ? await this.#reads.revision(id, project.currentRevision)
        : undefined;
    const questionnaire = (row?.questionnaire ?? project.questionnaire) as
      | ProjectDefinition['questionnaire']
      | null;
    const closed = questionnaire ? closedIds(questionnaire) : new Set<string>();
    return { project, items: items.filter((item) => !closed.has(item.id)), closed };
  }
}
