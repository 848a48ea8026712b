/**
 * The provider adapter: the only module that touches the AI SDK's provider packages. It
 * turns a configured chain (`PGS_MODELS`, `PGS_TEST_MODELS`) into AI SDK models.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelSpec, ProviderSettings } from '../../config.ts';

/**
 * The AI SDK's types other rooms name (a prompt's messages, the JSON Schema of a structured
 * answer), re-exported so that only this adapter imports the SDK.
 *
 * @example
 * import type { JSONSchema7, ModelMessage } from '../models/sdk/providers.ts';
 */
export type { JSONSchema7 } from '@ai-sdk/provider';
export type { ModelMessage } from 'ai';

/** A model of a chain, ready to call. */
export interface ChainModel {
  readonly model: LanguageModelV4;
  /** `provider:model`, as configured: names the engine in provenance and measurements. */
  readonly engine: string;
  readonly provider: ModelSpec['provider'];
  /**
   * The built-in offline engine. Only used to pick its own measured durations; the
   * workflow treats every model alike.
   */
  readonly offline: boolean;
  /**
   * A test key's simulation: its delays are the script the client asked for (up to ten
   * minutes), not a provider's slowness, so the model time-outs never apply to it.
   */
  readonly scripted?: boolean;
}

/** Builds the offline engine's model for a spec; the selector passes the project's simulation. */
export type OfflineFactory = (spec: ModelSpec) => LanguageModelV4;

/** `provider:model`, the name of a link in measurements, provenance and logs. */
export const engineName = (spec: ModelSpec) =>
  spec.provider === 'offline' ? 'offline' : `${spec.provider}:${spec.model}`;

/**
 * Makes one provider instance per provider (they hold the credentials) and a model per
 * link. Provider instances are always passed explicitly: a plain model id string would be
 * sent to a hosted gateway.
 *
 * @example
 * const build = modelBuilder({ openai: { apiKey: 'sk-…', baseURL: undefined } });
 * build({ provider: 'openai', model: 'gpt-4.1-mini' }, offline);
 */
export function modelBuilder(settings: ProviderSettings) {
  const openai = settings.openai && createOpenAI(withBase(settings.openai));
  const anthropic = settings.anthropic && createAnthropic(withBase(settings.anthropic));
  const compatible =
    settings['openai-compatible'] &&
    createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: settings['openai-compatible'].baseURL,
      // Without it, structured output is sent as bare `json_object` and the model never sees the schema.
      supportsStructuredOutputs: true,
      includeUsage: true,
      ...(settings['openai-compatible'].apiKey
        ? { apiKey: settings['openai-compatible'].apiKey }
        : {}),
    });

  return (spec: ModelSpec, offline: OfflineFactory): ChainModel => {
    const link = { engine: engineName(spec), provider: spec.provider, offline: false };
    switch (spec.provider) {
      case 'offline':
        return { ...link, model: offline(spec), offline: true };
      case 'openai':
        // The Responses API, OpenAI's current one; OpenAI-compatible servers get Chat Completions.
        return { ...link, model: required(openai, spec)(spec.model) };
      case 'anthropic':
        return { ...link, model: required(anthropic, spec)(spec.model) };
      case 'openai-compatible':
        return { ...link, model: required(compatible, spec).chatModel(spec.model) };
    }
  };
}

function withBase(settings: { apiKey: string; baseURL: string | undefined }) {
  return {
    apiKey: settings.apiKey,
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
  };
}

function required<T>(provider: T | undefined, spec: ModelSpec): T {
  // config.ts reads the settings of every provider a chain names, so this is a wiring bug.
  if (provider === undefined) throw new Error(`no settings for provider ${spec.provider}`);
  return provider;
}
