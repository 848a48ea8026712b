/**
 * The two ways PGS calls a model through the AI SDK, and nothing else of the SDK: a
 * structured answer (JSON for a schema) and a streamed text. The call policy (calls.ts:
 * attempts, budgets, slots, usage) stays outside and sees plain results, so only this folder
 * knows the SDK's functions and error classes.
 */
import type { JSONSchema7, LanguageModelV4, SharedV4ProviderOptions } from '@ai-sdk/provider';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
  streamText,
} from 'ai';
import type { Reported } from '../usage.ts';

/** What every call sends. `timeout` is absent for a test key's scripted model. */
export interface Invocation {
  model: LanguageModelV4;
  system: string;
  messages: ModelMessage[];
  maxOutputTokens: number;
  abortSignal: AbortSignal;
  providerOptions?: SharedV4ProviderOptions;
  timeout?: { totalMs: number; firstChunkMs?: number; chunkMs?: number };
}

/**
 * A structured answer. An answer that is not JSON for the schema is not a failed call (the
 * caller corrects it): it comes back with `output` undefined and its text.
 *
 * @example
 * const { output, usage } = await generateStructured(invocation, DEFINITION_SCHEMA);
 */
export async function generateStructured(
  invocation: Invocation,
  schema: JSONSchema7,
): Promise<{ text: string; output: unknown; finishReason?: string; usage?: Reported }> {
  const { timeout, ...common } = invocation;
  try {
    const result = await generateText({
      ...common,
      maxRetries: 0,
      ...(timeout === undefined ? {} : { timeout: { totalMs: timeout.totalMs } }),
      output: Output.object({ schema: jsonSchema(schema) }),
    });
    return {
      text: result.text,
      output: result.output,
      finishReason: result.finishReason,
      usage: result.totalUsage,
    };
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      return {
        text: error.text ?? '',
        output: undefined,
        ...(error.usage ? { usage: error.usage } : {}),
      };
    }
    throw error;
  }
}

/** A streamed answer's parts, as the call policy reads them. */
export type StreamedPart =
  | { type: 'text'; text: string }
  | { type: 'finish'; finishReason: string; usage: Reported };

/**
 * A streamed text answer. A failure mid-stream is thrown (classified by failures.ts), an
 * abort as an AbortError.
 *
 * @example
 * for await (const part of streamAnswer(invocation)) if (part.type === 'text') text += part.text;
 */
export async function* streamAnswer(invocation: Invocation): AsyncGenerator<StreamedPart> {
  const result = streamText({
    ...invocation,
    maxRetries: 0,
    // Failures arrive below as `error` parts and are classified by the caller. Without a
    // handler the SDK prints each one to stderr, request and prompt included, outside the logger.
    onError: () => {},
  });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') yield { type: 'text', text: part.text };
    else if (part.type === 'error') throw part.error;
    else if (part.type === 'abort') throw new DOMException('the stream was aborted', 'AbortError');
    else if (part.type === 'finish') {
      yield { type: 'finish', finishReason: part.finishReason, usage: part.totalUsage };
    }
  }
}
