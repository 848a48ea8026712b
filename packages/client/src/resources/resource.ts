import type { Transport } from '../core.ts';
import { PgsError } from '../errors.ts';

/** Base of every resource: holds the transport its client built. */
export abstract class APIResource {
  protected readonly request: Transport;

  constructor(request: Transport) {
    this.request = request;
  }
}

/** Encodes one path segment, refusing an empty one (it would address another route). */
export function segment(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PgsError(`${name} must be a non-empty string.`);
  }
  return encodeURIComponent(value);
}

/**
 * A revision number (`revision` of a read, or of a path): a whole number from 1, else a
 * {@link PgsError} before any request.
 *
 * @example
 * const query = { revision: revisionNumber(options.revision) };
 */
export function revisionNumber(value: number): number;
export function revisionNumber(value: number | undefined): number | undefined;
export function revisionNumber(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new PgsError(`revision must be a whole number from 1, not ${String(value)}.`);
  }
  return value;
}
