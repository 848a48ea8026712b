/**
 * The ports a run sees the rest of the server through: how it ends its project or revision
 * (implemented by projects/, which starts runs and settles their credits). runs/ imports
 * neither projects/ nor storage/: the composition root (runtime.ts) hands it these.
 */

/**
 * How a creation's run ends its project: completion settles the credits, a failure refunds
 * them, a stop for the project's cost limit charges what was written. Projects
 * (projects/projects.ts) is the one in the server.
 *
 * @example
 * await ends.fail(projectId, FAILURE_MESSAGES.timeout);
 */
export interface CreationEnds {
  complete(projectId: string): Promise<unknown>;
  fail(projectId: string, message: string): Promise<unknown>;
  stopForBudget(
    projectId: string,
    budget: { limitUsd: number; spentUsd: number },
  ): Promise<unknown>;
}

/**
 * How a revision's run ends it: completion carries the rest of the documents over and makes
 * the revision current; a failure refunds it. Revisions (projects/revisions.ts) is the one in
 * the server.
 *
 * @example
 * await ends.fail(projectId, 2, 'unreadable');
 */
export interface RevisionEnds {
  complete(projectId: string, revision: number): Promise<unknown>;
  fail(projectId: string, revision: number, why?: 'failed' | 'unreadable'): Promise<unknown>;
}

/**
 * `data.error.message` of failed projects: the contract says it states the refund. The run
 * chooses it; projects/result.ts reads it back for a project whose cause was not recorded.
 *
 * @example
 * FAILURE_MESSAGES.timeout; // 'The AI service timed out while generating the project. …'
 */
export const FAILURE_MESSAGES = {
  timeout:
    'The AI service timed out while generating the project. Your credits have been refunded.',
  failure: 'The AI service failed while generating the project. Your credits have been refunded.',
  exhausted:
    'The project could not be generated after several attempts. Your credits have been refunded.',
  /** A failed project whose cause was not recorded. */
  unknown: 'The project could not be generated. Your credits have been refunded.',
} as const;
