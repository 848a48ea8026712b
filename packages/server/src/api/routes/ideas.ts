import { schemaRef } from '@pgs/contract';
import type { FastifyInstance } from 'fastify';
import { clarifyIdea } from '../../models/clarify.ts';
import { errorResponses } from './schemas.ts';

interface ClarifyBody {
  idea: string;
  type?: 'web' | 'mobile' | 'mcp';
}

/** `POST /ideas/clarify`: what an idea leaves open, asked before writing; nothing stored. */
export async function ideaRoutes(app: FastifyInstance) {
  app.post<{ Body: ClarifyBody }>(
    '/ideas/clarify',
    {
      config: { operationId: 'clarifyIdea', rateLimit: 'clarify' },
      schema: {
        headers: { type: 'object', properties: { 'api-version': { type: 'string' } } },
        body: schemaRef('ClarifyIdeaRequest'),
        response: {
          200: schemaRef('ClarifyIdeaResponse'),
          ...errorResponses(400, 401, 403, 408, 413, 415, 429, 500, 503),
        },
      },
    },
    async (request) => {
      const { idea, type } = request.body;
      return { success: true, data: { questions: clarifyIdea(type ? { idea, type } : { idea }) } };
    },
  );
}
