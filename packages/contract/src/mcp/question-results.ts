/**
 * What clarify_idea and answer_questions answer (issue 32, docs/clarify.md), on both MCP
 * servers: the questions with their recommended answers, or the revision the answers
 * started; the same data in the structured content.
 */
import type { components } from '../generated/types.ts';
import type { McpToolResult } from './results.ts';

type Schemas = components['schemas'];
type Question = Schemas['ClarifyQuestion'] | Schemas['ProjectQuestion'];
type RevisionAccepted = Schemas['RevisionAcceptedResponse']['data'];

// An entry marked leaveOpen has no answer to recommend: its `recommended` only says so, and
// an agent that accepted it would record that text as a decision (docs/clarify.md).
const recommendation = (q: Question) =>
  'leaveOpen' in q && q.leaveOpen === true
    ? 'No recommended answer: leave it open (omit it from answers) or answer it.'
    : `Recommended: ${q.recommended}`;

const lines = (questions: readonly Question[]) =>
  questions.map(
    (q) =>
      `- ${q.id}: ${q.question} ${recommendation(q)}${q.options ? ` (options: ${q.options.join('; ')})` : ''}`,
  );

/**
 * The questions an idea leaves open, as clarify_idea answers them.
 *
 * @example
 * clarifyResult(await pgs.ideas.clarify({ idea }));
 */
export function clarifyResult(questions: readonly Question[]): McpToolResult {
  const text =
    questions.length === 0
      ? 'The idea leaves none of the usual questions open.'
      : [
          `${questions.length} open; answer with generate_project's answers: { id: answer }.`,
          ...lines(questions),
        ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { questions: [...questions] } };
}

/**
 * A completed project's open questions and assumptions, as answer_questions lists them
 * when given no answers.
 *
 * @example
 * projectQuestionsResult(projectId, await pgs.projects.questions(projectId));
 */
export function projectQuestionsResult(
  projectId: string,
  questions: readonly Question[],
): McpToolResult {
  const text =
    questions.length === 0
      ? `Project ${projectId} has no open question or assumption left.`
      : [
          `${questions.length} open in project ${projectId}; answer with answers: { id: answer }.`,
          ...lines(questions),
        ].join('\n');
  return {
    content: [{ type: 'text', text }],
    structuredContent: { projectId, questions: [...questions] },
  };
}

/**
 * The revision the answers started.
 *
 * @example
 * answeredResult(await pgs.projects.answer(projectId, { 'Q-1': 'Twilio' }));
 */
export function answeredResult(accepted: RevisionAccepted): McpToolResult {
  const text = `Revision ${accepted.revision} of project ${accepted.projectId} records the answers; get_project shows it once it completes.`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      projectId: accepted.projectId,
      revision: accepted.revision,
      status: accepted.status,
    },
  };
}
