import type { ProjectType } from '@pgs/contract';
import type { ModelMessage } from 'ai';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { ProjectRow } from '../storage/sql/projects.ts';
import { type CallUsage, GenerationFailedError, type ModelCaller } from './calls.ts';
import type { ProjectDefinition } from './engine/context.ts';
import { DEFINITION_RULES, DEFINITION_SCHEMA, definitionPrompt } from './prompts/definition.ts';
import { correctionMessage } from './prompts/render.ts';
import type { ChainModel } from './providers.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile({ allOf: [DEFINITION_SCHEMA, DEFINITION_RULES] });

/** Answer tokens for the definition: a few hundred are needed; room for verbose models. */
const DEFINITION_MAX_OUTPUT_TOKENS = 3_000;

const describe = (error: ErrorObject) =>
  `${error.instancePath || '(the answer)'} ${error.message ?? 'is invalid'}${
    error.keyword === 'pattern' && error.instancePath.endsWith('targetAudience')
      ? ' (write a full sentence: who they are and the situation they are in)'
      : ''
  }`;

/** Validation errors of a structured answer, in words a model can act on; empty when valid. */
export function definitionErrors(
  output: unknown,
  requestedType: ProjectType | undefined,
): string[] {
  if (output === undefined) return ['the answer is not a JSON object'];
  const errors = validate(output) ? [] : (validate.errors ?? []).map(describe);
  const type = (output as { type?: unknown } | null)?.type;
  if (requestedType !== undefined && type !== requestedType) {
    errors.push(`/type must be "${requestedType}"`);
  }
  return [...new Set(errors)];
}

export interface DefinedProject {
  definition: ProjectDefinition;
  usage: CallUsage;
  attempts: number;
  /** Corrective calls made (0 or 1). */
  repairs: number;
  /** What was wrong with the first answer, if anything. */
  initialErrors: Array<{ rule: 'schema'; message: string }>;
  engine: string;
  version: string;
  /** The chain index of the model that answered last. */
  index: number;
}

/**
 * The definition call: structured output with the schema sent to the provider, the
 * answer validated, and an invalid answer corrected once with the validation errors.
 *
 * @example
 * const { definition } = await defineProject(caller, chain, project, signal);
 */
export async function defineProject(
  caller: ModelCaller,
  chain: readonly ChainModel[],
  project: Pick<ProjectRow, 'idea' | 'type' | 'typeRequested' | 'requestedName'>,
  signal: AbortSignal,
): Promise<DefinedProject> {
  const requestedType = project.typeRequested ? (project.type ?? undefined) : undefined;
  const { system, prompt, version } = definitionPrompt({
    idea: project.idea,
    type: requestedType,
    requestedName: project.requestedName ?? undefined,
  });
  const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
  const spec = {
    kind: 'definition',
    system,
    maxOutputTokens: DEFINITION_MAX_OUTPUT_TOKENS,
    schema: DEFINITION_SCHEMA,
  };
  const first = await caller.call(chain, { ...spec, messages }, signal);
  let answer = first;
  let usage = first.usage;
  let attempts = first.attempts;
  const initial = definitionErrors(first.output, requestedType);
  let errors = initial;
  if (initial.length > 0) {
    const retry = await caller.call(
      chain.slice(first.index),
      {
        ...spec,
        messages: [
          ...messages,
          { role: 'assistant', content: first.text || '(no answer)' },
          { role: 'user', content: correctionMessage(initial) },
        ],
      },
      signal,
    );
    answer = { ...retry, index: first.index + retry.index };
    usage = { input: usage.input + retry.usage.input, output: usage.output + retry.usage.output };
    attempts += retry.attempts;
    errors = definitionErrors(retry.output, requestedType);
  }
  if (errors.length > 0) {
    throw new GenerationFailedError(
      `definition: ${answer.model.engine} answered with an invalid definition after a correction: ${errors.join('; ')}`,
      { reason: 'invalid-output', engine: answer.model.engine, attempts, cause: undefined },
    );
  }
  const output = answer.output as ProjectDefinition;
  const definition: ProjectDefinition = {
    name: project.requestedName ?? output.name.trim(),
    description: output.description.trim(),
    type: requestedType ?? output.type,
    questionnaire: output.questionnaire,
  };
  return {
    definition,
    usage,
    attempts,
    repairs: initial.length > 0 ? 1 : 0,
    initialErrors: initial.map((message) => ({ rule: 'schema' as const, message })),
    engine: answer.model.engine,
    version,
    index: answer.index,
  };
}
