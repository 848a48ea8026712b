/**
 * What the generation layer reports for the service's metrics. It lives here, below runs and
 * projects, so that the registry implementing it imports nothing above it. The workflow is
 * given an implementation (`registry.ts`), like its model and its store, and never imports a
 * metrics library: tests and tools that give none get {@link NO_METER}.
 */
import type { TokenMeter } from '../models/calls.ts';
import type { Mode } from '../storage/sql/accounts.ts';

/** Receives counts from the workflow, the model caller and the project life cycle. */
export interface GenerationMeter extends TokenMeter {
  /** One document (or the definition, kind `definition`) written by `engine`, in seconds. */
  documentGenerated(kind: string, engine: string, seconds: number): void;
  /** Credits moved by a committed transaction, in the key's mode. */
  credits(mode: Mode, movement: 'reserved' | 'consumed' | 'refunded', amount: number): void;
}

/**
 * A meter that records nothing.
 *
 * @example
 * const projects = new Projects(db, dispatcher, engineFor, Date.now, NO_METER);
 */
export const NO_METER: GenerationMeter = {
  documentGenerated() {},
  tokensUsed() {},
  credits() {},
};
