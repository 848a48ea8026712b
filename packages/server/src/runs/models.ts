import type { ProjectType } from '@pgs/contract';
import { type Config, type ModelSpec, OFFLINE_MODEL_ID } from '../config.ts';
import { createOfflineModel, type ProjectSimulation } from '../models/sdk/offline-model.ts';
import { type ChainModel, modelBuilder } from '../models/sdk/providers.ts';
import { documentPlan } from './catalogue.ts';
import { type Simulation, spreadDuration } from './estimate.ts';
import type { RunProject } from './ports.ts';

/** An account's mode: live keys or test keys. */
type Mode = RunProject['mode'];

/** What the selector needs to know of a project. */
export interface ProjectForModels {
  mode: Mode;
  simulate: Simulation | null;
  type: ProjectType | null;
  /** Created with a codebase digest: a simulation spreads its duration over that plan. */
  grounded?: boolean;
}

/** Chooses the model chain a project is generated with, first choice first. */
export interface ModelSelector {
  forProject(project: ProjectForModels): readonly ChainModel[];
}

/** The engine a mode's projects are generated with first, for estimates made before a run. */
export const engineOf = (models: ModelSelector) => (mode: Mode) =>
  models.forProject({ mode, simulate: null, type: null })[0]!.engine;

/** How the offline model plays a project's `simulate`. */
function simulationOf(project: ProjectForModels): ProjectSimulation | undefined {
  if (project.simulate === null || project.type === null) return undefined;
  const plan = documentPlan(project.type, { grounded: project.grounded ?? false });
  const delays = spreadDuration(plan, project.simulate.durationMs);
  return {
    delays,
    // The first document of the requirements stage times out: a failure mid-run, after
    // the definition and the brief, like a provider that stops answering.
    ...(project.simulate.outcome === 'failed' ? { failKind: 'product-requirements' } : {}),
  };
}

/**
 * The chains of the configuration: `PGS_MODELS` for live keys, `PGS_TEST_MODELS` for
 * test keys. Models are built once; only a simulating project gets its own offline model.
 *
 * @example
 * const models = modelSelector(loadConfig());
 * models.forProject({ mode: 'live', simulate: null, type: 'web' })[0].engine; // 'anthropic:claude-sonnet-4-5'
 */
export function modelSelector(
  config: Pick<Config, 'models' | 'testModels' | 'providers'>,
): ModelSelector {
  const build = modelBuilder(config.providers);
  const plainOffline = createOfflineModel();
  const chains: Record<Mode, readonly ChainModel[]> = {
    live: config.models.map((spec) => build(spec, () => plainOffline)),
    test: config.testModels.map((spec) => build(spec, () => plainOffline)),
  };
  return {
    forProject(project) {
      const simulation = simulationOf(project);
      if (simulation === undefined) return chains[project.mode];
      // A simulation is a scripted run: always the offline engine, never a paid call, even
      // when the mode's chain names a provider.
      return [
        {
          ...build({ provider: 'offline', model: OFFLINE_MODEL_ID }, () =>
            createOfflineModel({ modelId: OFFLINE_MODEL_ID, simulation }),
          ),
          scripted: true,
        },
      ];
    },
  };
}

/**
 * Every project on the built-in offline engine: the embedded default, and what tests
 * use when they do not exercise a provider.
 *
 * @example
 * const models = offlineModels();
 */
export function offlineModels(): ModelSelector {
  const offline: ModelSpec = { provider: 'offline', model: OFFLINE_MODEL_ID };
  return modelSelector({ models: [offline], testModels: [offline], providers: {} });
}
