/**
 * The fake provider's prompt-cache model (`startFakeAi(handler, { promptCache: true })`):
 * token counts of a request's prompt and of an answer (gpt-tokenizer, o200k_base), and the
 * cache reads and writes each provider would report, as the providers document them.
 *
 * - OpenAI (Responses, Chat Completions): automatic prefix caching. A request's cached tokens
 *   are its longest common token prefix with an earlier request to the same model (and the
 *   same `prompt_cache_key`, when sent), counted from 1,024 tokens, in steps of 128.
 * - Anthropic Messages: only up to blocks marked `cache_control`. Each breakpoint's prefix of
 *   at least 1,024 tokens becomes an entry; a request reads the longest stored prefix ending
 *   at a block boundary at most 20 blocks before one of its breakpoints, and writes what
 *   follows up to its last breakpoint.
 *
 * Entries are kept from the moment a request is answered (not when its answer ends) and
 * never expire: concurrent requests of one wave see each other's prefixes, which a real
 * provider does not promise, so the figures are what a cache can serve at best.
 */
import { createHash } from 'node:crypto';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** The least prefix either provider caches (OpenAI for all models, Anthropic for Sonnet and Opus 4). */
export const CACHE_MIN_TOKENS = 1024;
/** OpenAI counts cached tokens in steps of this many. */
export const OPENAI_CACHE_STEP = 128;
/** How many block boundaries before a breakpoint Anthropic looks back for a hit. */
export const ANTHROPIC_LOOKBACK = 20;

/** Token usage the fake reports for one call; `input` is all input tokens, cached and written ones included. */
export interface ReportedUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/** What the cache model found for one request: its reads and writes, not yet stored. */
export interface CacheLookup {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Keeps the request's prefixes for later requests (once it is answered, not an error). */
  commit(): void;
}

type Protocol = 'openai-responses' | 'openai-chat' | 'anthropic-messages';
// biome-ignore lint/suspicious/noExplicitAny: request bodies are untyped JSON from three protocols
type Json = any;

/** One block of a prompt: its identity (kind and text), the text counted, whether it carries `cache_control`. */
interface Block {
  identity: string;
  text: string;
  breakpoint: boolean;
}

// Special-token strings in a prompt (`<|endoftext|>`) are text to a provider, not an error.
const PLAIN = { disallowedSpecial: new Set<string>() };
// A block's tokens are kept by its text: a project's requests repeat the same system prompt
// and documents many times. Bounded, so a long run does not keep every prompt it saw.
const MEMO_LIMIT = 2_000;

/**
 * The cache state of one fake provider: what earlier requests left in each provider's cache.
 *
 * @example
 * const cache = new PromptCache();
 * const lookup = cache.lookup('openai-responses', body);
 * lookup.commit();
 */
export class PromptCache {
  private readonly memo = new Map<string, Uint32Array>();
  /** OpenAI: earlier requests' token sequences, by model and prompt_cache_key. */
  private readonly sequences = new Map<string, Uint32Array[]>();
  /** Anthropic: digests of stored prefixes, by model. */
  private readonly entries = new Map<string, Set<string>>();

  /** Forgets every stored prefix (not the token memo, which is only a speed-up). */
  clear(): void {
    this.sequences.clear();
    this.entries.clear();
  }

  /** Tokens of a text (o200k_base). */
  count(text: string): number {
    return this.tokens(text).length;
  }

  /** The request's input tokens and what the provider's cache would serve and store. */
  lookup(protocol: Protocol, body: Json): CacheLookup {
    return protocol === 'anthropic-messages'
      ? this.anthropic(String(body.model ?? ''), anthropicBlocks(body))
      : this.openai(cacheGroup(body), openaiBlocks(protocol, body));
  }

  private openai(group: string, blocks: Block[]): CacheLookup {
    const parts = blocks.map((block) => this.tokens(block.text));
    const sequence = new Uint32Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) {
      sequence.set(part, at);
      at += part.length;
    }
    let longest = 0;
    for (const earlier of this.sequences.get(group) ?? []) {
      longest = Math.max(longest, commonPrefix(sequence, earlier));
    }
    const cacheRead = longest >= CACHE_MIN_TOKENS ? longest - (longest % OPENAI_CACHE_STEP) : 0;
    return {
      input: sequence.length,
      cacheRead,
      cacheWrite: 0,
      commit: () => {
        const list = this.sequences.get(group) ?? [];
        list.push(sequence);
        this.sequences.set(group, list);
      },
    };
  }

  private anthropic(model: string, blocks: Block[]): CacheLookup {
    // ends[j]: tokens of blocks 0..j; digests[j]: identity of the prefix 0..j.
    const ends: number[] = [];
    const digests: string[] = [];
    let total = 0;
    let digest = '';
    for (const block of blocks) {
      total += this.count(block.text);
      digest = createHash('sha256').update(digest).update(block.identity).digest('hex');
      ends.push(total);
      digests.push(digest);
    }
    const breakpoints = blocks.flatMap((block, j) => (block.breakpoint ? [j] : []));
    const last = breakpoints.at(-1);
    if (last === undefined) return { input: total, cacheRead: 0, cacheWrite: 0, commit() {} };
    const stored = this.entries.get(model) ?? new Set<string>();
    let hit = -1;
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - ANTHROPIC_LOOKBACK) && j > hit; j--) {
        if (stored.has(digests[j]!)) hit = j;
      }
    }
    const cacheRead = hit < 0 ? 0 : ends[hit]!;
    const cacheWrite = ends[last]! >= CACHE_MIN_TOKENS ? ends[last]! - cacheRead : 0;
    return {
      input: total,
      cacheRead,
      cacheWrite,
      commit: () => {
        for (const b of breakpoints) if (ends[b]! >= CACHE_MIN_TOKENS) stored.add(digests[b]!);
        this.entries.set(model, stored);
      },
    };
  }

  private tokens(text: string): Uint32Array {
    let tokens = this.memo.get(text);
    if (tokens === undefined) {
      tokens = Uint32Array.from(encode(text, PLAIN));
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(text, tokens);
    }
    return tokens;
  }
}

function commonPrefix(a: Uint32Array, b: Uint32Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** OpenAI's cache is shared by requests to one model with the same prompt_cache_key (or none). */
function cacheGroup(body: Json): string {
  const key = typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : '';
  return JSON.stringify([String(body.model ?? ''), key]);
}

const block = (kind: string, text: string, breakpoint = false): Block => ({
  identity: `${kind}\u0000${text}`,
  text,
  breakpoint,
});

/** A definition (tool, schema) as the text it is counted as: its JSON, cache_control left out. */
const definition = (value: Json) => JSON.stringify({ ...value, cache_control: undefined });

/** Text parts and other parts of a message's content, in order, as blocks. */
function contentBlocks(role: string, content: unknown): Block[] {
  if (typeof content === 'string') return [block(role, content)];
  if (!Array.isArray(content)) return [];
  return content.map((part: Json) => {
    const breakpoint = part?.cache_control != null;
    if (typeof part?.text === 'string') return block(role, part.text, breakpoint);
    // Tool calls and results count by what they carry; anything else by its JSON.
    const carried = part?.input ?? part?.arguments ?? part?.output ?? part?.content;
    const text =
      typeof carried === 'string'
        ? carried
        : carried === undefined
          ? definition(part)
          : JSON.stringify(carried);
    return block(`${role}:${part?.type ?? 'part'}`, text, breakpoint);
  });
}

/**
 * OpenAI's order: the tools and the structured-output schema (documented as a prefix of the
 * system message), then instructions, then every message and item in order.
 */
function openaiBlocks(protocol: Protocol, body: Json): Block[] {
  const blocks: Block[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    blocks.push(block('tool', definition(tool)));
  }
  const format = protocol === 'openai-responses' ? body.text?.format : body.response_format;
  if (format?.type === 'json_schema') blocks.push(block('schema', definition(format)));
  if (typeof body.instructions === 'string') blocks.push(block('system', body.instructions));
  let messages = protocol === 'openai-responses' ? body.input : body.messages;
  if (typeof messages === 'string') messages = [{ role: 'user', content: messages }];
  for (const item of Array.isArray(messages) ? messages : []) {
    if (typeof item?.role === 'string') {
      blocks.push(...contentBlocks(item.role, item.content));
      for (const call of Array.isArray(item.tool_calls) ? item.tool_calls : []) {
        blocks.push(block('tool_call', definition(call)));
      }
    } else {
      blocks.push(...contentBlocks('item', [item]));
    }
  }
  return blocks;
}

/** Anthropic's documented cache order: tools, then system, then messages. */
function anthropicBlocks(body: Json): Block[] {
  const blocks: Block[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    blocks.push(block('tool', definition(tool), tool?.cache_control != null));
  }
  const format = body.output_config?.format ?? body.output_format;
  if (format != null) blocks.push(block('schema', definition(format)));
  blocks.push(...contentBlocks('system', body.system));
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    blocks.push(...contentBlocks(String(message?.role), message?.content));
  }
  return blocks;
}
