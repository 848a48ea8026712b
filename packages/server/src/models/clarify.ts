/**
 * Clarifying questions (issue 32, docs/clarify.md) come from the offline engine's reading of
 * the idea, whatever models the key's mode writes with: deterministic, free and instant, so
 * asking costs no credits and the same idea always gets the same questions.
 */
import type { ClarifyQuestion, ProjectType } from '@pgs/contract';
import { clarifyIdea as askEngine } from '@pgs/offline';

/**
 * What the idea leaves open, at most five questions with recommended answers.
 *
 * @example
 * clarifyIdea({ idea: 'A booking tool for dog groomers' })[0]?.id; // 'sign-in'
 */
export function clarifyIdea(request: { idea: string; type?: ProjectType }): ClarifyQuestion[] {
  return askEngine(request);
}
