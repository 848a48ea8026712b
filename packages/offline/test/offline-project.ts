import type { ProjectType } from '@pgs/contract';
import type { DefinitionContext, ProjectDefinition } from '@pgs/contract/generation';
import { defineProject, writeDocument } from '../src/index.ts';
import { documentRequests } from './plan.ts';

/** A project as the offline engine writes it: its definition and every document of its plan. */
export interface OfflineProject {
  definition: ProjectDefinition;
  documents: { kind: string; content: string }[];
}

const written = new Map<string, OfflineProject>();

/** What a project is written under besides its idea: the answers and the house conventions. */
export type Under = Pick<DefinitionContext, 'answers' | 'conventions'>;

/**
 * A project as the offline engine writes it, every document of its type's plan. The engine
 * is a pure function of the idea, the type and what it is written `under`, so a test file
 * writes each project once and its tests share it (several read the same ones): a caller
 * must not change it.
 *
 * @example
 * const { definition, documents } = offlineProject('A habit tracker for remote teams', 'web');
 */
export function offlineProject(idea: string, type: ProjectType, under: Under = {}): OfflineProject {
  const key = `${type}\n${idea}\n${JSON.stringify(under)}`;
  const known = written.get(key);
  if (known) return known;
  const definition = defineProject({ idea, type, ...under });
  const conventions = under.conventions ? { conventions: under.conventions } : {};
  const documents = documentRequests(type).map((document) => ({
    kind: document.kind,
    content: writeDocument({ idea, definition, document, related: [], ...conventions }),
  }));
  const project = { definition, documents };
  written.set(key, project);
  return project;
}

/** The content of a project's document of one kind. */
export const docOf = (project: OfflineProject, kind: string) =>
  project.documents.find((d) => d.kind === kind)!.content;
