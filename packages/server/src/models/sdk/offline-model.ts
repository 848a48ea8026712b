/**
 * The offline engine (`@pgs/offline`) as an AI SDK model: the thin adapter through which the
 * workflow drives it exactly like a hosted model, time-outs, aborts and a test key's simulated
 * delays and failures included. The engine is handed the call as typed data (the contract's
 * `GenerationContext`, in `providerOptions['pgs-offline'].context`, which calls.ts sets for an
 * offline link of a chain); the prompt's text is counted for usage and never read back.
 */
import type {
  JSONObject,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
  SharedV4ProviderOptions,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { defineProject, readChangeRequest, writeDocument } from '@pgs/offline';
import type { GenerationContext } from '../context.ts';
import { FinalTimeoutError } from '../failures.ts';
import { countTokens } from '../tokens.ts';

/**
 * The idea reader's checks of a model's answers: the idea's content words a definition lost, its
 * name and filler features (runs/definition.ts), removals and changes of what a change request
 * did not name (runs/impact.ts), the idea's wishes a requirements document makes Must
 * (runs/gate.ts).
 */
export {
  changeFindings,
  definitionChecks,
  missingTerms,
  removalFindings,
  wishFindings,
} from '@pgs/offline';

/** The provider id, also the key of its `providerOptions`. */
export const OFFLINE_PROVIDER = 'pgs-offline';

/**
 * `providerOptions['pgs-offline']`: how a call simulates a slow or stuck model.
 * `delayMs` waits before answering; `hang` never answers, so the caller's `timeout` or
 * `abortSignal` ends the call the way it ends a real model call that times out.
 */
export interface OfflineSimulation {
  delayMs?: number;
  hang?: boolean;
}

const FINISH: LanguageModelV4FinishReason = { unified: 'stop', raw: 'stop' };

/** The text of every system, user and assistant message, in order. */
function promptText(prompt: LanguageModelV4CallOptions['prompt']): string {
  const parts: string[] = [];
  for (const message of prompt) {
    if (message.role === 'system') parts.push(message.content);
    else if (message.role === 'user' || message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'text') parts.push(part.text);
    }
  }
  return parts.join('\n\n');
}

function simulationOf(options: LanguageModelV4CallOptions): { delayMs: number; hang: boolean } {
  const raw = options.providerOptions?.[OFFLINE_PROVIDER];
  const delay = raw?.delayMs;
  return {
    delayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? delay : 0,
    hang: raw?.hang === true,
  };
}

/**
 * Resolves after `ms` (or never, for `Infinity`), rejecting with the signal's reason as
 * soon as it aborts. A pending hang holds a timer so the process stays alive the way an
 * open socket would.
 */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = Number.isFinite(ms) ? setTimeout(finish, ms) : setInterval(() => {}, 60_000);
    function finish(): void {
      clearTimeout(timer);
      clearInterval(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      clearInterval(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Usage in the LanguageModelV4 shape; the offline engine has no cache and no reasoning. */
function usageOf(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

/**
 * A test key's `simulate`, as the offline model plays it: each part of the project takes
 * its share of the duration, and a failing simulation times out for good on `failKind`.
 */
export interface ProjectSimulation {
  /** Milliseconds per part: `definition` or a document kind. */
  delays: ReadonlyMap<string, number>;
  /** The part whose call times out (the project then fails with the time-out message). */
  failKind?: string;
}

/**
 * The `providerOptions` that hand the offline engine its call as typed data. The context is
 * plain JSON (the prompts write it as a JSON block), so it travels as the SDK's JSON value.
 *
 * @example
 * generateText({ model: createOfflineModel(), prompt, providerOptions: offlineCallOptions(context) });
 */
export function offlineCallOptions(context: GenerationContext): SharedV4ProviderOptions {
  return { [OFFLINE_PROVIDER]: { context: context as unknown as JSONObject } };
}

/** The call the options carry; a call without one is not PGS's own. */
function contextOf(options: LanguageModelV4CallOptions): GenerationContext {
  const context = options.providerOptions?.[OFFLINE_PROVIDER]?.context;
  if (typeof context !== 'object' || context === null || !('task' in context)) {
    throw new Error(
      `${OFFLINE_PROVIDER}: the call carries no typed context (providerOptions['${OFFLINE_PROVIDER}'].context); ` +
        "the offline engine only answers PGS's own calls (models/calls.ts sets it)",
    );
  }
  return context as unknown as GenerationContext;
}

/** The part a context asks for: `definition`, `impact` or the document's kind. */
const partOf = (context: GenerationContext) =>
  context.task === 'definition' || context.task === 'impact' ? context.task : context.document.kind;

/**
 * The engine's answer to a call: a definition or the impact's deltas as JSON (the structured
 * output a hosted model gives), or a document's markdown.
 *
 * @example
 * answerCall({ task: 'definition', idea: 'A habit tracker for remote teams' }); // '{"name":"HabitLoop",…}'
 */
export function answerCall(context: GenerationContext): string {
  switch (context.task) {
    case 'definition':
      return JSON.stringify(defineProject(context));
    case 'impact':
      return JSON.stringify({ deltas: readChangeRequest(context) });
    case 'revision':
      return writeDocument({ ...context, revision: context });
    case 'document':
      return writeDocument(context);
    default: {
      const never: never = context;
      throw new Error(`unknown task ${JSON.stringify(never)}`);
    }
  }
}

interface Produced {
  text: string;
  usage: LanguageModelV4Usage;
  warnings: SharedV4Warning[];
}

async function produce(
  options: LanguageModelV4CallOptions,
  simulation: ProjectSimulation | undefined,
): Promise<Produced> {
  const { delayMs, hang } = simulationOf(options);
  const signal = options.abortSignal;
  const context = contextOf(options);
  if (simulation) {
    const part = partOf(context);
    await wait(simulation.delays.get(part) ?? 0, signal);
    if (simulation.failKind === part) {
      throw new FinalTimeoutError(`${OFFLINE_PROVIDER}: simulated AI service time-out on ${part}`);
    }
  }
  if (hang && !signal) {
    throw new Error(
      `${OFFLINE_PROVIDER}: a simulated hang needs a timeout or an abortSignal; without one the call would never end`,
    );
  }
  await wait(hang ? Number.POSITIVE_INFINITY : delayMs, signal);
  const text = answerCall(context);
  const warnings: SharedV4Warning[] =
    options.tools && options.tools.length > 0
      ? [{ type: 'unsupported', feature: 'tools', details: 'the offline engine never calls tools' }]
      : [];
  // Usage is what a hosted model would report for the same prompt: its text, counted.
  const prompt = promptText(options.prompt);
  return { text, usage: usageOf(countTokens(prompt), countTokens(text)), warnings };
}

/** Splits an answer into stream deltas of whole lines. */
function deltas(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+/g) ?? [];
}

/**
 * The offline engine as an AI SDK `LanguageModelV4`.
 *
 * @example
 * const { system, prompt, context } = definitionPrompt({ idea: 'A habit tracker for remote teams' });
 * const { text } = await generateText({ model: createOfflineModel(), system, prompt, providerOptions: offlineCallOptions(context) });
 */
export function createOfflineModel(
  options: { modelId?: string; simulation?: ProjectSimulation } = {},
): LanguageModelV4 {
  const modelId = options.modelId ?? 'pgs-offline-1';
  return {
    specificationVersion: 'v4',
    provider: OFFLINE_PROVIDER,
    modelId,
    supportedUrls: {},

    async doGenerate(call): Promise<LanguageModelV4GenerateResult> {
      const { text, usage, warnings } = await produce(call, options.simulation);
      return {
        content: [{ type: 'text', text }],
        finishReason: FINISH,
        usage,
        warnings,
        response: { modelId },
      };
    },

    async doStream(call): Promise<LanguageModelV4StreamResult> {
      const { text, usage, warnings } = await produce(call, options.simulation);
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings });
          controller.enqueue({ type: 'response-metadata', modelId });
          controller.enqueue({ type: 'text-start', id: 'text-0' });
          for (const delta of deltas(text))
            controller.enqueue({ type: 'text-delta', id: 'text-0', delta });
          controller.enqueue({ type: 'text-end', id: 'text-0' });
          controller.enqueue({ type: 'finish', usage, finishReason: FINISH });
          controller.close();
        },
      });
      return { stream };
    },
  };
}
