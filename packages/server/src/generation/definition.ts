import type { ProjectType } from '@pgs/contract';
import type { ModelMessage } from 'ai';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { ProjectRow } from '../storage/sql/projects.ts';
import {
  type CallResult,
  type CallUsage,
  GenerationFailedError,
  type ModelCaller,
} from './calls.ts';
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

const add = (a: CallUsage, b: CallUsage): CallUsage => ({
  input: a.input + b.input,
  output: a.output + b.output,
});

export interface DefinedProject {
  definition: ProjectDefinition;
  usage: CallUsage;
  attempts: number;
  /** Corrective calls made (one per model that answered with an invalid definition). */
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
  // Each model gets the request and one correction; a model that still answers with an
  // invalid definition hands over to the next one of the chain.
  let from = 0;
  let usage: CallUsage = { input: 0, output: 0 };
  let attempts = 0;
  let repairs = 0;
  let initial: string[] | undefined;
  let answer: CallResult;
  let errors: string[];
  for (;;) {
    const models = chain.slice(from);
    const first = await caller.call(models, { ...spec, messages }, signal);
    usage = add(usage, first.usage);
    attempts += first.attempts;
    answer = { ...first, index: from + first.index };
    errors = definitionErrors(first.output, requestedType);
    initial ??= errors;
    if (errors.length > 0) {
      repairs++;
      const retry = await caller.call(
        models.slice(first.index),
        {
          ...spec,
          messages: [
            ...messages,
            { role: 'assistant', content: first.text || '(no answer)' },
            { role: 'user', content: correctionMessage(errors) },
          ],
        },
        signal,
      );
      answer = { ...retry, index: from + first.index + retry.index };
      usage = add(usage, retry.usage);
      attempts += retry.attempts;
      errors = definitionErrors(retry.output, requestedType);
    }
    if (errors.length === 0 || answer.index + 1 >= chain.length) break;
    from = answer.index + 1;
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
    repairs,
    initialErrors: (initial ?? []).map((message) => ({ rule: 'schema' as const, message })),
    engine: answer.model.engine,
    version,
    index: answer.index,
  };
}
