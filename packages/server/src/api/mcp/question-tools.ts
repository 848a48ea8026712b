import {
  answeredResult,
  clarifyResult,
  MAX_ANSWER_LENGTH,
  MAX_ANSWERS,
  type McpToolResult,
  type ProjectType,
  projectQuestionsResult,
  SINGLE_LINE_PATTERN,
} from '@pgs/contract';
import { DomainError } from '../../errors.ts';
import { clarifyIdea } from '../../models/clarify.ts';
import type { ProjectQuestions } from '../../projects/questions.ts';
import type { McpCall } from './call.ts';

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');

type Handler = (args: Record<string, unknown>, call: McpCall) => Promise<McpToolResult>;

/**
 * An answers object as MCP gives it (`{ id: answer }`, checked only as an object by the
 * tool schema): every value a string, or VALIDATION_ERROR naming the ID, as REST's schema
 * would refuse it.
 */
export function answersArgument(value: unknown): Record<string, string> {
  const answers = (value ?? {}) as Record<string, unknown>;
  const invalid = Object.fromEntries(
    Object.entries(answers)
      .filter(([, answer]) => typeof answer !== 'string')
      .map(([id]) => [`answers.${id}`, 'must be string']),
  );
  if (Object.keys(invalid).length > 0) {
    throw new DomainError('VALIDATION_ERROR', 'Each answer must be a string.', {
      invalid_fields: invalid,
    });
  }
  return answers as Record<string, string>;
}

/**
 * generate_project's answers (`{ id: answer }`, clarify_idea's ids or a question's text) as
 * createProject takes them, held to its schema's rules: at most ten, each key a line of at
 * most 300 characters and each answer one of at most 1,000; VALIDATION_ERROR naming the key.
 *
 * @example
 * createAnswers({ 'sign-in': 'Google SSO' }); // [{ question: 'sign-in', answer: 'Google SSO' }]
 */
export function createAnswers(value: unknown): { question: string; answer: string }[] {
  const answers = Object.entries(answersArgument(value));
  const invalid: Record<string, string> = {};
  for (const [question, answer] of answers) {
    const field = `answers.${question}`;
    if (question.length === 0 || question.length > 300 || !SINGLE_LINE.test(question))
      invalid[field] = 'the question must be one line of 1 to 300 characters';
    else if (answer.trim() === '' || answer.length > MAX_ANSWER_LENGTH || !SINGLE_LINE.test(answer))
      invalid[field] = `must be one line of 1 to ${MAX_ANSWER_LENGTH} characters`;
  }
  if (answers.length > MAX_ANSWERS) invalid.answers = `must hold at most ${MAX_ANSWERS}`;
  if (Object.keys(invalid).length > 0) {
    throw new DomainError('VALIDATION_ERROR', 'The answers are not valid.', {
      invalid_fields: invalid,
    });
  }
  return answers.map(([question, answer]) => ({ question, answer }));
}

/**
 * clarify_idea and answer_questions (issue 32) on the services the REST routes call:
 * clarifyIdea's questions (free, nothing stored), and a project's open questions listed or
 * answered as a revision, with the same refusals (another key's project RESOURCE_NOT_FOUND,
 * one not completed PROJECT_NOT_COMPLETED, an ID not open VALIDATION_ERROR) and credits.
 *
 * @example
 * await questionTools(questions).answer_questions({ projectId, answers: { 'Q-1': 'Twilio' } }, call);
 */
export function questionTools(
  questions: ProjectQuestions,
): Record<'clarify_idea' | 'answer_questions', Handler> {
  return {
    clarify_idea: async (args) => {
      const { idea, type } = args as { idea: string; type?: ProjectType };
      return clarifyResult(clarifyIdea(type === undefined ? { idea } : { idea, type }));
    },
    answer_questions: async (args, call) => {
      const projectId = args.projectId as string;
      if (args.answers === undefined) {
        return projectQuestionsResult(
          projectId.toLowerCase(),
          await questions.list(call.principal, projectId),
        );
      }
      const created = await questions.answer(
        call.principal,
        projectId,
        answersArgument(args.answers),
      );
      return answeredResult({
        projectId: created.projectId,
        revision: created.revision,
        status: 'in_progress',
        estimatedCompletionMs: created.estimatedCompletionMs,
      });
    },
  };
}
