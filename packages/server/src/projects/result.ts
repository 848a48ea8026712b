import { hash } from 'node:crypto';
import type { GenerationMetadata, Project, ProjectCompleted, ProjectFailed } from '@pgs/contract';
import { usd } from '../models/budget.ts';
import type { DocumentRow, ProjectRow } from '../storage/sql/projects.ts';

/** `data.error.message` of failed projects, chosen by the run that failed. */
export { FAILURE_MESSAGES } from '../runs/ports.ts';

/** `data.error.code` of a failed project: its generation failed, or a client cancelled it. */
export const FAILURE_CODES = {
  failed: 'generation_failed',
  cancelled: 'generation_cancelled',
  /** Stopped before a model call that could have passed the project's `maxCostUsd`. */
  budget: 'budget_exceeded',
} as const;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What was charged for the documents already generated, and what was released. */
function settlement(settled: { documents: number; charged: number; released: number }): string {
  const charged = `${count(settled.charged, 'credit was', 'credits were')} charged for the ${count(settled.documents, 'document', 'documents')} already generated`;
  if (settled.released <= 0) return `${charged.charAt(0).toUpperCase()}${charged.slice(1)}.`;
  return `${charged.charAt(0).toUpperCase()}${charged.slice(1)}; the remaining ${settled.released} ${settled.released === 1 ? 'was' : 'were'} released.`;
}

/**
 * `data.error.message` of a cancelled project: what was charged for the documents already
 * generated, and what was released.
 *
 * @example
 * cancellationMessage({ documents: 2, charged: 13, released: 34 });
 * // 'The project was cancelled. 13 credits were charged for the 2 documents already generated; the remaining 34 were released.'
 */
export function cancellationMessage(settled: {
  documents: number;
  charged: number;
  released: number;
}): string {
  if (settled.documents === 0) {
    return 'The project was cancelled before any document was generated; nothing was charged.';
  }
  return `The project was cancelled. ${settlement(settled)}`;
}

/**
 * `data.error.message` of a project stopped by its budget: what its model calls cost, then
 * what was charged and released, as for a cancellation.
 *
 * @example
 * budgetMessage({ limitUsd: 0.5, spentUsd: 0.4312 }, { documents: 2, charged: 13, released: 34 });
 * // 'The project stopped before its next model call could pass its budget of $0.5000; its
 * //  model calls cost $0.4312. 13 credits were charged for the 2 documents already generated; …'
 */
export function budgetMessage(
  budget: { limitUsd: number; spentUsd: number },
  settled: { documents: number; charged: number; released: number },
): string {
  const spent = `The project stopped before its next model call could pass its budget of ${usd(budget.limitUsd)}; its model calls cost ${usd(budget.spentUsd)}.`;
  return settled.documents === 0
    ? `${spent} No document was generated; nothing was charged.`
    : `${spent} ${settlement(settled)}`;
}

/**
 * The `data` of a failed project. The status endpoint and the cancel endpoint both answer
 * with it, so the two bodies are the same bytes.
 */
export function failedStatus(projectId: string, code: string, message: string): ProjectFailed {
  return { projectId, status: 'failed', error: { code, message } };
}

/**
 * The `data` of a completed project, from its stored row and documents. Built once, when
 * the project completes: completed projects never change.
 */
export function completedStatus(
  row: Pick<ProjectRow, 'id' | 'name' | 'description' | 'type' | 'questionnaire'>,
  documents: readonly DocumentRow[],
  metadata: GenerationMetadata,
): ProjectCompleted {
  if (
    row.name === null ||
    row.description === null ||
    row.type === null ||
    row.questionnaire === null
  ) {
    throw new Error(
      `project ${row.id} is not ready to complete: name, description, type or questionnaire missing`,
    );
  }
  const project: Project = {
    name: row.name,
    description: row.description,
    type: row.type,
    questionnaire: row.questionnaire as Project['questionnaire'],
    documents: documents.map((doc) => ({
      type: doc.type,
      filename: doc.filename,
      content: doc.content,
      generated_at: doc.generatedAt.toISOString(),
      stage: doc.stage,
      tokens_used: doc.tokensUsed,
    })),
  };
  return { projectId: row.id, status: 'completed', project, metadata };
}

/** A strong validator of a response body: `"<27 base64url characters of its SHA-1>"`. */
export function etagOf(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url').slice(0, 27)}"`;
}
