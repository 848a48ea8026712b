import type { JSONSchema7 } from '@ai-sdk/provider';
import type { ProjectType } from '@pgs/contract';
import { contextBlock } from '../engine/context.ts';
import { DEFINITION_SYSTEM } from './system.ts';

/** Bumped on every change of the definition prompt or its schema. */
export const DEFINITION_PROMPT_VERSION = 1;

/**
 * The JSON Schema sent to the provider with the definition call. It keeps to the
 * keywords every provider's structured-output mode accepts (all properties required, no
 * extra ones, no length keywords); {@link DEFINITION_RULES} adds what it cannot say.
 */
export const DEFINITION_SCHEMA: JSONSchema7 = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'description', 'type', 'questionnaire'],
  properties: {
    name: { type: 'string', description: 'The product name: short, memorable, 1 to 3 words.' },
    description: {
      type: 'string',
      description: 'One paragraph of 2 to 4 sentences: what it is, for whom, and why it is better.',
    },
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
        targetAudience: {
          type: 'string',
          description:
            'One sentence describing who the primary users are and the situation they are in when they use it.',
        },
        monetization: {
          type: 'string',
          description: 'How it makes money (or is funded), with the price points or rates.',
        },
        techStack: { type: 'array', items: { type: 'string' } },
        platforms: { type: 'array', items: { type: 'string' } },
        coreFeatures: { type: 'array', items: { type: 'string' } },
        constraints: { type: 'array', items: { type: 'string' } },
        successMetrics: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

/**
 * What a valid definition must also satisfy, checked after parsing (Ajv, JSON Schema
 * 2020-12): lengths and counts the provider-side schema leaves out.
 */
export const DEFINITION_RULES = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    description: { type: 'string', minLength: 20, maxLength: 800 },
    questionnaire: {
      type: 'object',
      properties: {
        targetAudience: {
          type: 'string',
          minLength: 20,
          maxLength: 400,
          // A sentence about who and when, not a noun: at least six words.
          pattern: '^\\S+(\\s+\\S+){5,}',
        },
        monetization: { type: 'string', minLength: 3 },
        techStack: {
          type: 'array',
          minItems: 2,
          maxItems: 12,
          items: { type: 'string', minLength: 1 },
        },
        platforms: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        coreFeatures: {
          type: 'array',
          minItems: 3,
          maxItems: 12,
          items: { type: 'string', minLength: 3 },
        },
        constraints: { type: 'array', items: { type: 'string' } },
        successMetrics: { type: 'array', minItems: 1, items: { type: 'string' } },
      },
    },
  },
} as const;

const TYPES: Record<ProjectType, string> = {
  web: 'a web application used in the browser',
  mobile: 'a mobile app for phones (iOS and Android)',
  mcp: 'a Model Context Protocol (MCP) server that gives AI assistants tools and data',
};

/** The definition call's system prompt and user message. */
export function definitionPrompt(input: {
  idea: string;
  type?: ProjectType | undefined;
  requestedName?: string | undefined;
}): { system: string; prompt: string; version: string } {
  const typeLine = input.type
    ? `The project is ${TYPES[input.type]}: "type" must be "${input.type}".`
    : `Choose "type": "web" (${TYPES.web}), "mobile" (${TYPES.mobile}) or "mcp" (${TYPES.mcp}), whichever serves this idea best; an idea that names a platform gets that platform.`;
  const nameLine = input.requestedName
    ? `The name is fixed: "name" must be exactly "${input.requestedName}".`
    : 'Choose a name: short, memorable, not a generic word, and not an existing well-known product.';
  const prompt = `Define the project for this idea, in the client's words:

<idea>
${input.idea}
</idea>

${typeLine}
${nameLine}

What each field must hold:
- "description": 2 to 4 sentences: what it does, for whom, and what makes it better than what they use today.
- "questionnaire.targetAudience": one sentence naming the primary users AND the situation they are in when they reach for it (for example "Independent physiotherapists who see 20 to 40 patients a week and lose hours to no-shows and paper intake forms"), never a bare noun.
- "questionnaire.monetization": the business model with concrete price points, or how it is funded if it is free or open source.
- "questionnaire.techStack": 4 to 8 concrete technologies a strong team would choose today for this type and audience (languages, frameworks, database, hosting, key services), consistent with each other.
- "questionnaire.platforms": where it runs (browsers, iOS, Android, desktop MCP clients, …).
- "questionnaire.coreFeatures": 4 to 8 features that ARE this idea, each an imperative phrase starting with a verb ("Book a session with a mentor"); the heart of the idea first. Do not pad with generic features (sign-up, settings) unless they are central.
- "questionnaire.constraints": 2 to 5 real constraints (regulation, privacy, offline use, budgets, integrations, rate limits).
- "questionnaire.successMetrics": 3 to 5 measurable metrics with targets ("40% of new users book a second session within 30 days").

The block below restates the request as JSON.

${contextBlock({
  task: 'definition',
  idea: input.idea,
  ...(input.type ? { type: input.type } : {}),
  ...(input.requestedName ? { requestedName: input.requestedName } : {}),
})}`;
  return { system: DEFINITION_SYSTEM, prompt, version: `definition@${DEFINITION_PROMPT_VERSION}` };
}
