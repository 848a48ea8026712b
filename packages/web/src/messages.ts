import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  ConflictError,
  InsufficientCreditsError,
  InternalServerError,
  NotFoundError,
  PgsError,
  RateLimitError,
  ValidationError,
} from '@pgs/client';

/**
 * What went wrong, for the screen where it happened: `text` in plain words, and what the
 * screen does about it (`signOut` for a key the server no longer accepts, `retryAfter`
 * seconds for a countdown on a 429).
 */
export interface Problem {
  kind:
    | 'bad-key'
    | 'credits'
    | 'rate-limited'
    | 'unreachable'
    | 'not-found'
    | 'invalid'
    | 'conflict'
    | 'server'
    | 'aborted'
    | 'other';
  text: string;
  /** Seconds to wait before trying again (rate-limited only). */
  retryAfter?: number;
  /** The key is not (or no longer) valid: forget it. */
  signOut?: boolean;
}

/** Texts the screens and the browser tests share. @example PLAIN.badKey */
export const PLAIN = {
  badKey: 'This API key is not valid. Check it and try again.',
  unreachable:
    'Cannot reach the PGS server. Check that it is running and your connection, then try again.',
  notFound: 'There is no such project for this key (it may have been deleted).',
  revisionNotFound: 'This project has no such revision (or the project was deleted).',
} as const;

/** What the screen knew when the request failed, to fill in what the error lacks. */
export interface ProblemContext {
  /** The price of what was asked for, in credits. */
  price?: number | undefined;
  /** The balance last read, in credits. */
  balance?: number | undefined;
  /** What was acted on: a revision's conflicts and prices read differently. Default `project`. */
  subject?: 'project' | 'revision' | undefined;
}

// Plain names of the fields the console sends, for validation messages.
const FIELD_RULES: Readonly<Record<string, string>> = {
  idea: 'The idea must be 10 to 5,000 characters.',
  name: 'The name must be 1 to 80 characters.',
  type: 'Choose a type from the list.',
  changeRequest: 'The change request must be 1 to 4,000 characters.',
};

/**
 * Turns anything a call of the SDK threw into plain words for the screen.
 *
 * @example
 * describeError(new APIConnectionError()).text; // 'Cannot reach the PGS server. …'
 */
export function describeError(error: unknown, context: ProblemContext = {}): Problem {
  if (error instanceof APIUserAbortError) return { kind: 'aborted', text: 'Stopped.' };
  // A timeout is an APIConnectionError too: from here both look like a server out of reach.
  if (error instanceof APIConnectionError) return { kind: 'unreachable', text: PLAIN.unreachable };
  if (error instanceof AuthenticationError) {
    return { kind: 'bad-key', text: PLAIN.badKey, signOut: true };
  }
  if (error instanceof InsufficientCreditsError) {
    const price = numberOf(error.details?.required) ?? context.price;
    const balance = numberOf(error.details?.available) ?? context.balance;
    return { kind: 'credits', text: notEnoughCreditsText(price, balance, context.subject) };
  }
  if (error instanceof RateLimitError) {
    const retryAfter = Math.max(1, Math.ceil(error.retryAfter ?? 60));
    return { kind: 'rate-limited', text: rateLimitText(retryAfter), retryAfter };
  }
  if (error instanceof NotFoundError) {
    const text = context.subject === 'revision' ? PLAIN.revisionNotFound : PLAIN.notFound;
    return { kind: 'not-found', text };
  }
  if (error instanceof ValidationError) {
    const fields = [...error.missingFields, ...Object.keys(error.invalidFields)];
    const known = fields.map((field) => FIELD_RULES[field]).filter((t) => t !== undefined);
    return {
      kind: 'invalid',
      text: known.length > 0 ? [...new Set(known)].join(' ') : error.message,
    };
  }
  if (error instanceof ConflictError) {
    return { kind: 'conflict', text: conflictText(error, context.subject ?? 'project') };
  }
  if (error instanceof InternalServerError) {
    const id = error.requestId ? ` If it persists, quote request id ${error.requestId}.` : '';
    return { kind: 'server', text: `The server ran into a problem. Try again.${id}` };
  }
  if (error instanceof APIError) return { kind: 'other', text: error.message };
  if (error instanceof PgsError) return { kind: 'other', text: error.message };
  return {
    kind: 'other',
    text: 'Something went wrong in the console. Reload the page and try again.',
  };
}

/**
 * The 402 message with both numbers.
 *
 * @example
 * notEnoughCreditsText(47, 12); // 'Not enough credits: this project costs 47 credits and your balance is 12 credits.'
 */
export function notEnoughCreditsText(
  price: number | undefined,
  balance: number | undefined,
  subject: 'project' | 'revision' = 'project',
) {
  const costs =
    price === undefined ? `this ${subject} costs more` : `this ${subject} costs ${price} credits`;
  const has = balance === undefined ? '' : ` and your balance is ${balance} credits`;
  return `Not enough credits: ${costs}${has}.`;
}

/**
 * The 429 message at a moment of its countdown.
 *
 * @example
 * rateLimitText(12); // 'Too many requests. Try again in 12 s.'
 */
export function rateLimitText(secondsLeft: number): string {
  return secondsLeft > 0
    ? `Too many requests. Try again in ${Math.ceil(secondsLeft)} s.`
    : 'Too many requests. You can try again now.';
}

function conflictText(error: ConflictError, subject: 'project' | 'revision'): string {
  switch (error.code) {
    case 'PROJECT_NOT_IN_PROGRESS':
      return subject === 'revision'
        ? 'This revision has already ended: there is nothing to cancel.'
        : 'This project has already finished: there is nothing to cancel.';
    case 'PROJECT_NOT_COMPLETED':
      return subject === 'revision'
        ? 'Only a completed project, or a completed revision, can be read this way.'
        : 'This project is not completed, so it has no archive yet.';
    case 'REVISION_IN_PROGRESS':
      return 'Another revision of this project is still running: wait for it to end, or cancel it.';
    case 'IDEMPOTENCY_CONFLICT':
      return 'The same request is still being processed. Wait a moment and try again.';
    default:
      return error.message;
  }
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
