import type { RunProject, RunStore } from './ports.ts';
import type { PromptHouse } from './prompts/conventions.ts';

/**
 * What a run of the project follows besides its idea: the house conventions version it was
 * created under (its revisions too: a version is data, so a later `PUT /conventions` does
 * not move a project written under an earlier one) and its language (docs/conventions.md).
 *
 * @example
 * const house = await runHouse(store, project); // { conventions: { stack: … }, language: 'de' }
 */
export async function runHouse(
  store: Pick<RunStore, 'conventions'>,
  project: Pick<RunProject, 'accountId' | 'mode' | 'conventionsVersion' | 'language'>,
): Promise<PromptHouse> {
  const conventions =
    project.conventionsVersion === null
      ? undefined
      : await store.conventions(project.accountId, project.mode, project.conventionsVersion);
  return {
    ...(conventions === undefined ? {} : { conventions }),
    ...(project.language === null ? {} : { language: project.language }),
  };
}
