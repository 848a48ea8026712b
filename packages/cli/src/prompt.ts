/**
 * Questions in the terminal: lines read one at a time from stdin, a prompt written before
 * each. Used by `pgs generate --ask` and `pgs answer`; nothing else in the CLI asks.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { APIUserAbortError } from '@pgs/client';
import type { Writer } from './context.ts';

/** Reads answers line by line; `undefined` once stdin ended. */
export interface LineReader {
  /** Writes `prompt`, then resolves with the next line (without its end), or `undefined` at the end of input. */
  ask(prompt: string): Promise<string | undefined>;
  /** Stops reading stdin, so the process can exit. */
  close(): void;
}

/**
 * True when a person can answer: stdin is a terminal. A pipe, a file or no stdin at all is
 * a script, which must give its answers (or `--yes`) instead of a prompt it cannot see.
 *
 * @example
 * if (!isInteractive(ctx.io.stdin ?? process.stdin)) throw new UsageError('stdin is not a terminal');
 */
export function isInteractive(input: Readable): boolean {
  return (input as { isTTY?: boolean }).isTTY === true;
}

/**
 * A {@link LineReader} on `input`, prompting on `output`. Lines that arrive before they are
 * asked for (a pasted block, a pipe) are kept for the next questions, not lost. An abort
 * (Ctrl-C) rejects the pending question with `APIUserAbortError`, as a wait would (exit 130).
 *
 * @example
 * const lines = lineReader(process.stdin, process.stderr, signal);
 * const answer = await lines.ask('Sign-in? ');
 * lines.close();
 */
export function lineReader(input: Readable, output: Writer, signal?: AbortSignal): LineReader {
  // terminal: false keeps the terminal's own line editing and lets Ctrl-C reach the
  // process as a signal (readline's terminal mode would swallow it).
  const rl = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(prompt) {
      output.write(prompt);
      if (signal?.aborted) throw new APIUserAbortError({ cause: signal.reason });
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new APIUserAbortError({ cause: signal?.reason }));
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const next = await Promise.race([lines.next(), aborted]);
        return next.done ? undefined : next.value;
      } finally {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      }
    },
    close() {
      rl.close();
    },
  };
}
