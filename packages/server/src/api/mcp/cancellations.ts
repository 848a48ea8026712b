import type { Broadcast } from '../../events/broadcast.ts';

/** The channel on which a cancelled MCP request is announced to every API process. */
export const MCP_CANCELLED_CHANNEL = 'pgs_mcp_cancelled';

type RequestId = string | number;

/**
 * The reason a call's signal carries when its client cancelled it, so that what the call
 * answers can say so (and not that the server is going away).
 *
 * @example
 * if (call.signal.reason === CANCELLED_BY_CLIENT) note = 'The client cancelled the wait.';
 */
export const CANCELLED_BY_CLIENT: Error = Object.freeze(
  new Error('The client cancelled the request (notifications/cancelled).'),
);

/**
 * Cancellation of tool calls across requests and processes. In stateless mode a client's
 * `notifications/cancelled` arrives as a request of its own, possibly at another API
 * process than the call it cancels (a generate_project holding its answer until the
 * project ends). It is announced by NOTIFY; the process holding the call aborts it, which
 * ends its wait at once. Calls are known by the API key and the JSON-RPC id the client
 * gave them: one key's cancellation never reaches another key's call.
 *
 * @example
 * const cancellations = await McpCancellations.start(databaseBroadcast(database));
 * const call = cancellations.track(principal.keyId, extra.requestId); // … call.signal … call.done();
 */
export class McpCancellations {
  readonly #broadcast: Broadcast;
  readonly #calls = new Map<string, Set<AbortController>>();
  #stopListening: (() => Promise<void>) | undefined;

  private constructor(broadcast: Broadcast) {
    this.#broadcast = broadcast;
  }

  static async start(broadcast: Broadcast): Promise<McpCancellations> {
    const cancellations = new McpCancellations(broadcast);
    cancellations.#stopListening = await broadcast.listen(MCP_CANCELLED_CHANNEL, (payload) =>
      cancellations.#abort(payload),
    );
    return cancellations;
  }

  /**
   * Registers a call in flight; `done()` when it has answered. Its signal aborts with
   * {@link CANCELLED_BY_CLIENT} when the key cancels the call's id.
   */
  track(keyId: string, requestId: RequestId): { signal: AbortSignal; done(): void } {
    const name = JSON.stringify([keyId, requestId]);
    const controller = new AbortController();
    let calls = this.#calls.get(name);
    if (calls === undefined) {
      calls = new Set();
      this.#calls.set(name, calls);
    }
    calls.add(controller);
    return {
      signal: controller.signal,
      done: () => {
        calls.delete(controller);
        if (calls.size === 0 && this.#calls.get(name) === calls) this.#calls.delete(name);
      },
    };
  }

  /** Cancels the key's call with this id, on whichever process holds it. */
  async cancel(keyId: string, requestId: RequestId): Promise<void> {
    const name = JSON.stringify([keyId, requestId]);
    await this.#broadcast.announce(MCP_CANCELLED_CHANNEL, name);
  }

  /** Calls in flight in this process (tests). */
  get size(): number {
    return this.#calls.size;
  }

  #abort(name: string): void {
    for (const controller of this.#calls.get(name) ?? []) controller.abort(CANCELLED_BY_CLIENT);
  }

  async stop(): Promise<void> {
    await this.#stopListening?.();
    this.#calls.clear();
  }
}
