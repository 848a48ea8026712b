/**
 * Model calls under the one retry policy: each call is tried up to `attemptsPerModel`
 * times on a model while its failures are retryable, then the next model of the chain
 * takes over; permanent failures skip the retries. The SDK's own retries are off
 * (`maxRetries: 0`) so the attempts made are exactly the ones counted here.
 */
import { type Budget, BudgetExceededError } from './budget.ts';
import type { GenerationContext } from './context.ts';
import { type Classified, ContentRefusedError, classify, type FailureReason } from './failures.ts';
import { type PriceTable, priceOf, worstCaseCostUsd } from './prices.ts';
import { generateStructured, type Invocation, streamAnswer } from './sdk/invoke.ts';
import { offlineCallOptions } from './sdk/offline-model.ts';
import type { ChainModel, JSONSchema7, ModelMessage } from './sdk/providers.ts';
import { Semaphore } from './semaphore.ts';
import { countTokens } from './tokens.ts';
import {
  attemptUsage,
  type CallUsage,
  emptyUsage,
  type Reported,
  type ReportedTokens,
  sumUsage,
} from './usage.ts';

/** One model call: the same messages go to each model of the chain. */
export interface CallSpec {
  /** What is generated (a document kind or `definition`), for logs. */
  kind: string;
  system: string;
  messages: ModelMessage[];
  maxOutputTokens: number;
  /** Structured output: the answer is JSON for this schema (sent to the provider). */
  schema?: JSONSchema7;
  /**
   * Groups the calls that share a prompt prefix (the project's id): OpenAI routes requests
   * with the same `promptCacheKey` to the same prompt cache (docs/cost.md).
   */
  cacheKey?: string;
  /**
   * The project's spending limit: each attempt holds its worst case first and is not made
   * when that could pass the limit ({@link BudgetExceededError}, never retried).
   */
  budget?: Budget;
  /**
   * The call as typed data, what the prompt states in text: the offline engine is handed it
   * instead of reading the prompt; a hosted model is never sent it.
   */
  context?: GenerationContext;
}

export interface CallResult {
  /** The answer's text (for structured output, the raw JSON text). */
  text: string;
  /** Structured output, parsed (validation is the caller's). */
  output?: unknown;
  /** Usage the provider reported for the successful attempt and any failed one that reported it. */
  usage: CallUsage;
  /** The model that answered, and its index in the chain. */
  model: ChainModel;
  index: number;
  /** Attempts made, on every model, including the one that answered. */
  attempts: number;
  /**
   * Why the answer ended, as the provider said (`stop`, `length` when the output limit cut
   * it…); undefined when it said nothing.
   */
  finishReason?: string;
}

/** A call that no model of the chain could answer. */
export class GenerationFailedError extends Error {
  override name = 'GenerationFailedError';
  /** The last failure's reason: `timeout` fails the project with the time-out message. */
  readonly reason: FailureReason;
  /** The engine that failed last (`provider:model`). */
  readonly engine: string;
  readonly attempts: number;
  constructor(
    message: string,
    options: { reason: FailureReason; engine: string; attempts: number; cause: unknown },
  ) {
    super(message, { cause: options.cause });
    this.reason = options.reason;
    this.engine = options.engine;
    this.attempts = options.attempts;
  }
}

export interface ModelCallerOptions {
  /** Time limit of one attempt, in ms. */
  timeoutMs?: number;
  /** A streamed answer that sends nothing for this long fails the attempt, in ms. */
  idleTimeoutMs?: number;
  /** Attempts in flight at once in this process, shared by every project. */
  concurrency?: number;
  /** Attempts per model while failures are retryable (at least 1). */
  attemptsPerModel?: number;
  /** First pause between attempts; doubled each time, with jitter. */
  retryDelayMs?: number;
  /** The longest `retry-after` honoured; a longer one moves on to the next model. */
  maxRetryAfterMs?: number;
  /** Provider keys: never written to a log line, even when a provider echoes one. */
  secrets?: readonly string[];
  log?: { warn(obj: object, msg: string): void };
  /** Told of the tokens each attempt's provider reported (metrics). */
  meter?: TokenMeter;
  /** Prices by engine, for each call's cost (`PGS_MODEL_PRICES` over the defaults). */
  prices?: PriceTable;
}

/** What a call tells its provider beyond the messages: the offline engine's typed call, OpenAI's cache key. */
function providerOptionsOf(model: ChainModel, spec: CallSpec) {
  if (model.offline && spec.context !== undefined)
    return { providerOptions: offlineCallOptions(spec.context) };
  if (spec.cacheKey !== undefined && model.provider === 'openai')
    return { providerOptions: { openai: { promptCacheKey: spec.cacheKey } } };
  return {};
}

/** Anything that looks like a provider key, even masked (`sk-abc…xyz`, `sk-ant-…`). */
const KEY_LIKE = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{6,}/g;

/** Told of the tokens each model attempt's provider reported (the service's metrics). */
export interface TokenMeter {
  /** `engine` is `provider:model` as configured (`offline` for the built-in engine). */
  tokensUsed(provider: string, engine: string, tokens: ReportedTokens): void;
}

/** A message with the given secrets and anything key-like replaced by `[redacted]`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out.replace(KEY_LIKE, '[redacted]');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const silent = { warn() {} };

/**
 * Calls models under the retry policy and the process-wide concurrency limit.
 *
 * @example
 * const caller = new ModelCaller({ timeoutMs: 120_000, idleTimeoutMs: 30_000, concurrency: 8 });
 * const { text, usage } = await caller.call(chain, { kind: 'readme', system, messages, maxOutputTokens: 4000 }, signal);
 */
export class ModelCaller {
  readonly #options: Required<Omit<ModelCallerOptions, 'log' | 'secrets' | 'meter' | 'prices'>>;
  readonly #secrets: readonly string[];
  readonly #slots: Semaphore;
  readonly #log: NonNullable<ModelCallerOptions['log']>;
  readonly #meter: ModelCallerOptions['meter'];
  readonly #prices: PriceTable;

  constructor(options: ModelCallerOptions = {}) {
    this.#options = {
      timeoutMs: options.timeoutMs ?? 120_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      concurrency: options.concurrency ?? 8,
      attemptsPerModel: Math.max(1, options.attemptsPerModel ?? 3),
      retryDelayMs: options.retryDelayMs ?? 1_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    };
    this.#slots = new Semaphore(this.#options.concurrency);
    this.#secrets = options.secrets ?? [];
    this.#log = options.log ?? silent;
    this.#meter = options.meter;
    this.#prices = options.prices ?? {};
  }

  /** The most attempts one call can make on a chain of `models` models. */
  maxAttempts(models: number): number {
    return this.#options.attemptsPerModel * models;
  }

  /** Calls the chain's models in order until one answers; throws {@link GenerationFailedError}. */
  async call(
    chain: readonly ChainModel[],
    spec: CallSpec,
    signal: AbortSignal,
  ): Promise<CallResult> {
    if (chain.length === 0) throw new Error('an empty model chain');
    let attempts = 0;
    const usage = emptyUsage();
    let last: { error: unknown; classified: Classified; engine: string } | undefined;
    for (const [index, model] of chain.entries()) {
      for (let attempt = 1; attempt <= this.#options.attemptsPerModel; attempt++) {
        attempts++;
        try {
          const answer = await this.#attempt(model, spec, signal, usage);
          return { ...answer, usage, model, index, attempts };
        } catch (error) {
          if (signal.aborted) throw signal.reason ?? error;
          // The budget is the project's limit, not the model's failure: no retry, no fallback.
          if (error instanceof BudgetExceededError) throw error;
          const classified = classify(error);
          last = { error, classified, engine: model.engine };
          this.#log.warn(
            {
              kind: spec.kind,
              engine: model.engine,
              attempt,
              reason: classified.reason,
              status: classified.status,
              action: classified.action,
              // Only the name and a scrubbed message: a provider error carries the request
              // (the prompt) and its answer may echo the key.
              err: {
                name: (error as Error)?.name,
                message: scrub(String((error as Error)?.message ?? error), this.#secrets),
              },
            },
            'model call failed',
          );
          if (classified.action === 'fail-project') throw this.#failed(spec, last, attempts);
          if (classified.action === 'next-model') break;
          if (attempt === this.#options.attemptsPerModel) break;
          const pause = this.#pause(attempt, classified);
          if (pause === undefined) break;
          await sleep(pause, signal);
        }
      }
    }
    throw this.#failed(spec, last!, attempts);
  }

  #failed(
    spec: CallSpec,
    last: { error: unknown; classified: Classified; engine: string },
    attempts: number,
  ): GenerationFailedError {
    const { reason, status } = last.classified;
    return new GenerationFailedError(
      `${spec.kind}: ${last.engine} failed (${reason}${status ? ` ${status}` : ''}) after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
      { reason, engine: last.engine, attempts, cause: undefined },
    );
  }

  /** The pause before the next attempt; undefined when the provider asks for longer than we wait. */
  #pause(attempt: number, classified: Classified): number | undefined {
    if (classified.retryAfterMs !== undefined) {
      return classified.retryAfterMs > this.#options.maxRetryAfterMs
        ? undefined
        : classified.retryAfterMs;
    }
    const base = this.#options.retryDelayMs * 2 ** (attempt - 1);
    return Math.round(base * (0.5 + Math.random() / 2));
  }

  async #attempt(
    model: ChainModel,
    spec: CallSpec,
    signal: AbortSignal,
    usage: CallUsage,
  ): Promise<{ text: string; output?: unknown; finishReason?: string }> {
    const release = await this.#slots.acquire(signal);
    const cost = usage.costUsd;
    let hold: number | undefined;
    try {
      hold = spec.budget?.hold(this.#worstCase(model, spec));
      const invocation: Invocation = {
        model: model.model,
        system: spec.system,
        messages: spec.messages,
        maxOutputTokens: spec.maxOutputTokens,
        abortSignal: signal,
        ...providerOptionsOf(model, spec),
      };
      if (spec.schema !== undefined) {
        const result = await generateStructured(
          model.scripted
            ? invocation
            : { ...invocation, timeout: { totalMs: this.#options.timeoutMs } },
          spec.schema,
        );
        if (result.usage) this.#add(usage, model, result.usage);
        return result.finishReason === undefined
          ? { text: result.text, output: result.output }
          : { text: result.text, output: result.output, finishReason: result.finishReason };
      }
      const streamed = streamAnswer(
        model.scripted
          ? invocation
          : {
              ...invocation,
              timeout: {
                totalMs: this.#options.timeoutMs,
                firstChunkMs: this.#options.idleTimeoutMs,
                chunkMs: this.#options.idleTimeoutMs,
              },
            },
      );
      let text = '';
      let finishReason: string | undefined;
      for await (const part of streamed) {
        if (part.type === 'text') text += part.text;
        else {
          this.#add(usage, model, part.usage);
          finishReason = part.finishReason;
          if (part.finishReason === 'content-filter') {
            throw new ContentRefusedError(`${model.engine} refused to write the ${spec.kind}`);
          }
        }
      }
      return finishReason === undefined ? { text } : { text, finishReason };
    } finally {
      // What this attempt added to the usage is what it cost (0 when it reported nothing).
      if (hold !== undefined) {
        spec.budget?.settle(
          hold,
          usage.costUsd === null || cost === null ? null : usage.costUsd - cost,
        );
      }
      release();
    }
  }

  /** The most an attempt of `spec` on `model` can cost; null when the model has no price. */
  #worstCase(model: ChainModel, spec: CallSpec): number | null {
    const price = priceOf(this.#prices, model.engine);
    if (price === undefined) return null;
    let text = spec.system;
    for (const message of spec.messages) {
      if (typeof message.content === 'string') text += message.content;
      else for (const part of message.content) if (part.type === 'text') text += part.text;
    }
    // Counted with o200k; a provider's own tokenizer may count a few percent differently.
    const schema = spec.schema === undefined ? 0 : countTokens(JSON.stringify(spec.schema));
    return worstCaseCostUsd(price, countTokens(text) + schema, spec.maxOutputTokens);
  }

  #add(usage: CallUsage, model: ChainModel, reported: Reported) {
    const attempt = attemptUsage(this.#prices, model.engine, reported);
    Object.assign(usage, sumUsage(usage, attempt.usage));
    this.#meter?.tokensUsed(model.provider, model.engine, attempt.tokens);
  }
}
