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

/** The JSON Schema the definition call asks the model to answer with. */
export const PROJECT_DEFINITION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'type', 'questionnaire'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    description: { type: 'string', minLength: 1, maxLength: 600 },
    type: { type: 'string', enum: ['web', 'mobile', 'mcp'] },
    questionnaire: {
      type: 'object',
      additionalProperties: false,
      required: [
        'targetAudience',
        'monetization',
        'techStack',
        'platforms',
        'coreFeatures',
        'constraints',
        'successMetrics',
      ],
      properties: {
        targetAudience: { type: 'string', minLength: 1 },
        monetization: { type: 'string', minLength: 1 },
        techStack: { type: 'array', minItems: 1, items: { type: 'string' } },
        platforms: { type: 'array', minItems: 1, items: { type: 'string' } },
        coreFeatures: { type: 'array', minItems: 1, items: { type: 'string' } },
        constraints: { type: 'array', items: { type: 'string' } },
        successMetrics: { type: 'array', items: { type: 'string' } },
      },
    },
  },
} as const;

/** A document the workflow asks for. */
export interface DocumentRequest {
  kind: string;
  title: string;
  filename: string;
  stage: string;
  sections: readonly string[];
}

/** An earlier document handed to a later one, so all stay consistent. */
export interface RelatedDocument {
  kind: string;
  title: string;
  /** The beginning of its markdown. */
  excerpt: string;
}

/**
 * Everything a generation call is about. The workflow renders it into the prompt (a
 * real model reads the prose and the JSON block alike); the offline engine reads it back.
 */
export type GenerationContext =
  | { task: 'definition'; idea: string; type: ProjectType; requestedName?: string }
  | {
      task: 'document';
      idea: string;
      definition: ProjectDefinition;
      document: DocumentRequest;
      related: RelatedDocument[];
    };

const OPEN = '<pgs-context>';
const CLOSE = '</pgs-context>';

/** System prompt shared by every call. */
export const SYSTEM_PROMPT =
  'You are a senior product manager and software architect. You write precise, specific, well-structured ' +
  'markdown for a software project. Use the project name, audience, features and tech stack given; ' +
  'never leave placeholders, TODOs or bracketed blanks.';

/**
 * The user prompt for a call: instructions in prose, then the context as JSON.
 *
 * @example
 * renderPrompt({ task: 'definition', idea: 'A habit tracker for remote teams', type: 'web' });
 */
export function renderPrompt(context: GenerationContext): string {
  const instructions =
    context.task === 'definition'
      ? `Define a ${context.type} project for this idea: "${context.idea}". ` +
        (context.requestedName
          ? `Its name must be "${context.requestedName}". `
          : 'Choose a short, memorable name. ') +
        'Answer with JSON only, matching the schema: name, a one-paragraph description, the type, and a questionnaire ' +
        '(target audience, monetization, tech stack, platforms, core features, constraints, success metrics).'
      : `Write the ${context.document.title} (${context.document.filename}) for ${context.definition.name}: ` +
        `${context.definition.description} Cover these sections in order, each as a "## " heading: ` +
        `${context.document.sections.join(', ')}. Stay consistent with the earlier documents below. ` +
        'Answer with the markdown document only, starting with a "# " title. At least one page long.';
  return `${instructions}\n\n${OPEN}\n${JSON.stringify(context)}\n${CLOSE}`;
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
