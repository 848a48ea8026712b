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
    /**
     * Each capability, qualifier and number the idea states, and the core feature that
     * carries it (docs/document-formats.md). Absent on definitions made before these members.
     */
    ideaCoverage?: IdeaTerm[];
    /** The things the product stores or manipulates. */
    keyEntities?: string[];
    /** External services the idea names or clearly implies. */
    integrations?: Integration[];
    /** What the first release deliberately does not do. */
    nonGoals?: string[];
    /** Facts the idea leaves unknown, each with the default chosen (the brief's `A-n`). */
    assumptions?: string[];
    /** Questions only the client can answer, with why they matter (the brief's `Q-n`). */
    openQuestions?: string[];
  };
}

/** A term of the idea (as written) and the core feature that carries it. */
export interface IdeaTerm {
  term: string;
  feature: string;
}

/** An external service and what the product uses it for. */
export interface Integration {
  name: string;
  purpose: string;
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
