import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import type { IdempotencyKeys } from '../../../accounts/idempotency-keys.ts';
import type { ProjectQuestions } from '../../../projects/questions.ts';
import { withIdempotency } from '../../idempotency.ts';
import { errorResponses } from '../schemas.ts';
import { projectIdParams } from './common.ts';
import { revisionAccepted, revisionStartSchema } from './revisions.ts';

export interface AnswerRoutesOptions {
  questions: ProjectQuestions;
  /** Where Idempotency-Key claims and answers are kept. */
  idempotency: IdempotencyKeys;
}

/**
 * Answering a completed project later (docs/clarify.md#answer-later): its open questions and
 * assumptions, and the revision that records the answers (the 202 of createRevision).
 */
export async function answerRoutes(
  app: FastifyInstance,
  { questions, idempotency }: AnswerRoutesOptions,
) {
  app.get<{ Params: { projectId: string } }>(
    '/projects/:projectId/questions',
    {
      config: { operationId: 'listProjectQuestions', rateLimit: 'status' },
      schema: {
        params: projectIdParams,
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        response: {
          200: schemaRef('ProjectQuestionsResponse'),
          409: schemaRef('OperationErrorResponse'),
          ...errorResponses(400, 401, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const list = await questions.list(request.principal, request.params.projectId);
      // Changes with every revision: never cached without asking.
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'Authorization');
      return { success: true, data: { questions: list } };
    },
  );

  app.post<{ Params: { projectId: string }; Body: { answers: Record<string, string> } }>(
    '/projects/:projectId/answers',
    {
      config: { operationId: 'answerProjectQuestions', rateLimit: 'create' },
      schema: revisionStartSchema('AnswerQuestionsRequest'),
    },
    async (request, reply) => {
      const { projectId } = request.params;
      const operation = `answerProjectQuestions ${projectId.toLowerCase()}`;
      return withIdempotency(idempotency, request, reply, operation, async (remember) =>
        revisionAccepted(
          await questions.answer(request.principal, projectId, request.body.answers, {
            withinTransaction: (tx, created) => remember(tx, revisionAccepted(created)),
          }),
        ),
      );
    },
  );
}
