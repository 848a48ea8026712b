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
