/**
 * The codebase digest a grounded project's run writes from (docs/brownfield.md): the one in
 * force at the run's revision, fitted once to the prompts' budget.
 */
import type { RunProject, RunStore } from './ports.ts';
import { fitRepository, type PromptRepository } from './prompts/repository.ts';

/** A digest as a run uses it. */
export interface RunRepository {
  /** What the prompts carry. */
  prompt: PromptRepository;
  /** The revision that sent it: a revision that sent its own rewrites what describes the code. */
  revision: number;
}

/**
 * The digest of a grounded project at `revision` (the latest sent at or before it), fitted to
 * `budget` tokens; undefined for a project created without one.
 *
 * @example
 * const repository = await runRepository(store, project, 1, REPOSITORY_TOKEN_BUDGET);
 */
export async function runRepository(
  store: Pick<RunStore, 'digest'>,
  project: Pick<RunProject, 'id' | 'grounded'>,
  revision: number,
  budget: number,
): Promise<RunRepository | undefined> {
  if (!project.grounded) return undefined;
  const stored = await store.digest(project.id, revision);
  // The creating transaction stores it with the project: a grounded project without one is
  // damaged data, and writing its documents from the idea alone would pass them off as grounded.
  if (stored === undefined)
    throw new Error(`grounded project ${project.id} has no codebase digest`);
  const digest = {
    name: stored.name,
    commit: stored.commit,
    files: stored.files.map((file) => ({ path: file.path, content: file.content })),
  };
  return { prompt: fitRepository(digest, budget), revision: stored.revision };
}
