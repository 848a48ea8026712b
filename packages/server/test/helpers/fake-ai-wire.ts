/**
 * The fake provider's answers in each wire protocol's shape (OpenAI Responses, Chat
 * Completions, Anthropic Messages): whole bodies and SSE frames, usage, structured output
 * and the output limit's "cut" signal, as the real APIs send them.
 */
import type { FakeAiCall } from './fake-ai.ts';

/**
 * A call's usage: `input` counts all input tokens; `cacheRead` and `cacheWrite`, when given,
 * the part of them read from and written to the prompt cache. Without them the bodies carry
 * no cache fields at all (as before the fake modelled caches).
 */
export type Usage = { input: number; output: number; cacheRead?: number; cacheWrite?: number };
/** The answer's payload: text, or the input of a forced Anthropic tool. */
export type Content = { text: string } | { tool: string; input: unknown };
/** How one protocol carries an answer: the whole body, or SSE frames around the deltas (`complete: false` leaves off the closing frames). */
export interface Wire {
  body: object;
  frames(pieces: string[], complete?: boolean): string[];
}

/** One SSE frame; the `event:` line is what the real APIs send, the SDKs read only `data:`. */
export function sse(data: object, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** The answer in one protocol's shape: the whole body, or the stream's frames. */
export function wireFor(call: FakeAiCall, content: Content, usage: Usage, cut = false): Wire {
  const id = `fake_${call.seq}`;
  const text = 'text' in content ? content.text : JSON.stringify(content.input);
  const [input, output] = [usage.input, usage.output];
  const cached = usage.cacheRead !== undefined || usage.cacheWrite !== undefined;
  const [cacheRead, cacheWrite] = [usage.cacheRead ?? 0, usage.cacheWrite ?? 0];
  const frames = (head: string[], delta: (piece: string) => string, tail: string[]) => ({
    frames: (pieces: string[], complete = true) => [
      ...head,
      ...pieces.map(delta),
      ...(complete ? tail : []),
    ],
  });

  if (call.protocol === 'openai-chat') {
    const base = {
      id: `chatcmpl-${id}`,
      created: Math.floor(Date.now() / 1000),
      model: call.model,
    };
    // OpenAI reports cache reads within the total (`prompt_tokens`) and never reports writes.
    const counts = {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      ...(cached ? { prompt_tokens_details: { cached_tokens: cacheRead } } : {}),
    };
    const chunk = (delta: object, finish_reason: string | null = null) =>
      sse({ ...base, choices: [{ index: 0, delta, finish_reason }] });
    // Real servers send usage in a last chunk only when asked (openai-compatible's includeUsage).
    const usageChunk = call.body.stream_options?.include_usage
      ? [sse({ ...base, choices: [], usage: counts })]
      : [];
    const message = { role: 'assistant', content: text };
    const finish = cut ? 'length' : 'stop';
    return {
      body: { ...base, choices: [{ index: 0, message, finish_reason: finish }], usage: counts },
      ...frames([chunk({ role: 'assistant', content: '' })], (piece) => chunk({ content: piece }), [
        chunk({}, finish),
        ...usageChunk,
        'data: [DONE]\n\n',
      ]),
    };
  }

  if (call.protocol === 'openai-responses') {
    const item = { type: 'message', id: `msg_${id}`, role: 'assistant' };
    const done = { ...item, content: [{ type: 'output_text', text, annotations: [] }] };
    const response = {
      id: `resp_${id}`,
      created_at: Math.floor(Date.now() / 1000),
      model: call.model,
    };
    const counts = {
      input_tokens: input,
      ...(cached ? { input_tokens_details: { cached_tokens: cacheRead } } : {}),
      output_tokens: output,
      total_tokens: input + output,
    };
    const body = {
      ...response,
      status: cut ? 'incomplete' : 'completed',
      ...(cut ? { incomplete_details: { reason: 'max_output_tokens' } } : {}),
      output: [done],
      usage: counts,
    };
    let sequence = 0;
    const event = (type: string, data: object) =>
      sse({ type, sequence_number: sequence++, ...data }, type);
    const added = { output_index: 0, item: { ...item, content: [] } };
    const delta = (piece: string) =>
      event('response.output_text.delta', { item_id: item.id, output_index: 0, delta: piece });
    return {
      body,
      ...frames(
        [event('response.created', { response }), event('response.output_item.added', added)],
        delta,
        [
          event('response.output_item.done', { output_index: 0, item: done }),
          event(cut ? 'response.incomplete' : 'response.completed', { response: body }),
        ],
      ),
    };
  }

  const tool = 'tool' in content;
  const block = tool
    ? { type: 'tool_use', id: `toolu_${id}`, name: content.tool, input: content.input }
    : { type: 'text', text };
  const stop_reason = tool ? 'tool_use' : cut ? 'max_tokens' : 'end_turn';
  const message = { id: `msg_${id}`, type: 'message', role: 'assistant', model: call.model };
  const event = (type: string, data: object) => sse({ type, ...data }, type);
  // Anthropic's input_tokens leaves out the tokens read from and written to the cache.
  const inputs = cached
    ? {
        input_tokens: input - cacheRead - cacheWrite,
        cache_creation_input_tokens: cacheWrite,
        cache_read_input_tokens: cacheRead,
      }
    : { input_tokens: input };
  const start = { ...message, content: [], usage: { ...inputs, output_tokens: 1 } };
  const delta = (piece: string) =>
    event('content_block_delta', {
      index: 0,
      delta: tool
        ? { type: 'input_json_delta', partial_json: piece }
        : { type: 'text_delta', text: piece },
    });
  return {
    body: {
      ...message,
      content: [block],
      stop_reason,
      usage: { ...inputs, output_tokens: output },
    },
    // As the real API does: input tokens in message_start, output tokens in message_delta.
    ...frames(
      [
        event('message_start', { message: start }),
        event('content_block_start', {
          index: 0,
          content_block: tool ? { ...block, input: {} } : { type: 'text', text: '' },
        }),
      ],
      delta,
      [
        event('content_block_stop', { index: 0 }),
        event('message_delta', { delta: { stop_reason }, usage: { output_tokens: output } }),
        event('message_stop', {}),
      ],
    ),
  };
}
