import type { RevisionWorkflow } from './revision-workflow.ts';
import type { GenerationWorkflow } from './workflow.ts';

type CreationJob = Parameters<GenerationWorkflow['run']>[0];

/**
 * What a worker does with a queued job: a project's creation, or its revision when the job
 * names one; and with a job whose retries are exhausted. The queue's `start` takes it.
 *
 * @example
 * await queue.start(jobHandlers(workflow, revising));
 */
export function jobHandlers(creation: GenerationWorkflow, revising: RevisionWorkflow) {
  return {
    run: async (job: CreationJob & { revision?: number | undefined }) => {
      if (job.revision === undefined) await creation.run(job);
      else await revising.run({ ...job, revision: job.revision });
    },
    dead: (projectId: string, revision?: number) =>
      revision === undefined ? creation.giveUp(projectId) : revising.giveUp(projectId, revision),
  };
}
