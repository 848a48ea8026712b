import type { components } from '@pgs/contract';
import type { RequestOptions } from '../core.ts';
import { APIResource } from './resource.ts';

type Schemas = components['schemas'];

/** Body of `ideas.clarify`: `{ idea, type? }`, the idea as `projects.create` would take it. */
export type IdeaClarifyParams = Schemas['ClarifyIdeaRequest'];
/** A question PGS asks before writing: `{ id, question, why, options?, recommended }`. */
export type ClarifyingQuestion = Schemas['ClarifyQuestion'];
/** An answer given to `projects.create`: `{ question, answer }`, `question` an id or a text. */
export type ClarifyingAnswer = Schemas['ClarifyAnswer'];
/**
 * An open question or assumption of a completed project (`projects.questions`):
 * `{ id: 'Q-1' | 'A-3', kind, question, why, options?, recommended }`.
 */
export type ProjectQuestion = Schemas['ProjectQuestion'];

/**
 * Ideas before they are projects: what an idea leaves open. `pgs.ideas`.
 *
 * @example
 * const questions = await pgs.ideas.clarify({ idea: 'A booking tool for dog groomers' });
 */
export class Ideas extends APIResource {
  /**
   * At most five questions about what the idea leaves open (who it is for, sign-in,
   * compliance, payment, platforms, volumes), most consequential first, each with the
   * answer PGS assumes when none is given (`recommended`). Nothing is stored and no
   * credits are used; the same idea always gets the same questions. Give the answers back
   * as `answers` of `projects.create` (`question` is the question's `id`).
   *
   * @example
   * const questions = await pgs.ideas.clarify({ idea });
   * const answers = questions.map((q) => ({ question: q.id, answer: q.recommended }));
   * await pgs.projects.create({ idea, answers });
   */
  async clarify(
    params: IdeaClarifyParams,
    options: RequestOptions = {},
  ): Promise<ClarifyingQuestion[]> {
    const body: IdeaClarifyParams = { idea: params.idea };
    if (params.type !== undefined) body.type = params.type;
    const { body: answer } = await this.request<Schemas['ClarifyIdeaResponse']>({
      ...options,
      method: 'POST',
      path: '/ideas/clarify',
      body,
    });
    return answer.data.questions;
  }
}
