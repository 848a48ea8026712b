/**
 * Whole projects through the offline engine, without a server: the definition call, then each
 * document of the type's plan, each asked the way the workflow asks (the typed context a call
 * carries, naming the documents it builds on). For tests and benchmarks of the engine's output.
 */
import type { ProjectType } from '@pgs/contract';
import type { ProjectDefinition } from '../../src/models/context.ts';
import { answerCall } from '../../src/models/sdk/offline-model.ts';
import { documentPlan } from '../../src/runs/catalogue.ts';

/** A project as the offline engine writes it. */
export interface OfflineProject {
  definition: ProjectDefinition;
  documents: { kind: string; filename: string; content: string }[];
}

/**
 * Defines a project from its idea (the type pinned or not) and writes all its documents.
 *
 * @example
 * offlineProject('An iPhone app for runners to log runs offline').documents.length; // 9
 */
export function offlineProject(
  idea: string,
  type?: ProjectType,
  /** `gherkin`: criteria as Given/When/Then scenarios (docs/requirement-style.md). */
  options: { requirementStyle?: 'gherkin' } = {},
): OfflineProject {
  const definition = JSON.parse(
    answerCall({ task: 'definition', idea, ...(type ? { type } : {}) }),
  ) as ProjectDefinition;
  const plan = documentPlan(definition.type);
  const documents = plan.map((doc) => ({
    kind: doc.kind,
    filename: doc.filename,
    content: answerCall({
      task: 'document',
      idea,
      definition,
      document: {
        kind: doc.kind,
        title: doc.title,
        filename: doc.filename,
        stage: doc.stage,
        sections: doc.sections,
      },
      related: doc.dependsOn.map((kind) => ({
        kind,
        title: plan.find((other) => other.kind === kind)?.title ?? kind,
      })),
      ...options,
    }),
  }));
  return { definition, documents };
}
