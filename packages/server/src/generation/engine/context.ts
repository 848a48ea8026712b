import type { ProjectType } from '@pgs/contract';

/**
 * What the first stage settles about a project: the contract's name, description, type
 * and questionnaire (its three named members and the further ones PGS fills).
 */
export interface ProjectDefinition {
  name: string;
  description: string;
  type: ProjectType;
  questionnaire: {
    targetAudience: string;
    monetization: string;
    techStack: string[];
    platforms: string[];
    coreFeatures: string[];
    constraints: string[];
    successMetrics: string[];
  };
}

/** A document the workflow asks for. */
export interface DocumentRequest {
  kind: string;
  title: string;
  filename: string;
  stage: string;
  sections: readonly string[];
}

/** An earlier document a later one builds on (its full text travels in the prompt). */
export interface RelatedDocument {
  kind: string;
  title: string;
}

/**
 * Everything a generation call is about. The prompts render it as a JSON block (a real
 * model reads it with the prose around it); the offline engine reads it back.
 */
export type GenerationContext =
  | {
      task: 'definition';
      idea: string;
      /** The type the request asked for; absent, the model chooses. */
      type?: ProjectType;
      requestedName?: string;
    }
  | {
      task: 'document';
      idea: string;
      definition: ProjectDefinition;
      document: DocumentRequest;
      related: RelatedDocument[];
    };

const OPEN = '<pgs-context>';
const CLOSE = '</pgs-context>';

/**
 * The context as the tagged JSON block every prompt carries: a model reads the project's
 * facts from it, and the offline engine reads the whole call from it.
 *
 * @example
 * contextBlock({ task: 'definition', idea: 'A habit tracker for remote teams' });
 */
export function contextBlock(context: GenerationContext): string {
  return `${OPEN}\n${JSON.stringify(context, null, 1)}\n${CLOSE}`;
}

/** Reads the context back out of a prompt; `undefined` when there is none. */
export function readContext(prompt: string): GenerationContext | undefined {
  const start = prompt.lastIndexOf(OPEN);
  const end = prompt.lastIndexOf(CLOSE);
  if (start === -1 || end <= start) return undefined;
  try {
    return JSON.parse(prompt.slice(start + OPEN.length, end)) as GenerationContext;
  } catch {
    return undefined;
  }
}
