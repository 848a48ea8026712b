import {
  ERROR_CODES,
  OPERATION_ERROR_CODES,
  openapiDocument,
  SINGLE_LINE_PATTERN,
} from '@pgs/contract';
import { assertMatchesContract } from '@pgs/contract/testing';
import { describeRequest, type FuzzRequest } from './arbitraries.ts';
import type { FuzzApp } from './fuzz-app.ts';

/** An answer, from inject or parsed off a socket. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const CODES = new Set<string>([...ERROR_CODES, ...OPERATION_ERROR_CODES]);

/** The operations the contract declares: their answers are checked against it in full. */
const CONTRACT_OPERATIONS = new Set(
  Object.values(openapiDocument.paths as Record<string, Record<string, { operationId?: string }>>)
    .flatMap((item) => Object.values(item))
    .map((operation) => operation?.operationId)
    .filter((id): id is string => typeof id === 'string'),
);

/**
 * What is wrong with an answer: a 5xx; an error outside the envelope, without a request id
 * or with one that differs from `X-Request-ID`; and for the contract's operations (and every
 * error), anything `assertMatchesContract` finds.
 */
export function answerProblems(
  request: Pick<FuzzRequest, 'method' | 'url'>,
  answer: Answer,
  operationId: string | undefined,
  { contract = true } = {},
): string[] {
  const problems: string[] = [];
  if (answer.statusCode >= 500) problems.push(`status ${answer.statusCode}`);
  const headerId = answer.headers['x-request-id'];
  if (typeof headerId !== 'string' || !REQUEST_ID.test(headerId)) {
    problems.push(`X-Request-ID is ${JSON.stringify(headerId)}`);
  }
  const head = request.method === 'HEAD';
  if (head && answer.body !== '') problems.push('a HEAD answer with a body');
  // A HEAD answer has no body: its envelope is the GET's, checked on GET requests.
  if (answer.statusCode >= 400 && !head) {
    let body: { success?: unknown; error?: Record<string, unknown> } | undefined;
    try {
      body = JSON.parse(answer.body);
    } catch {
      problems.push('the error body is not JSON');
    }
    const error = body?.error;
    if (body && (body.success !== false || typeof error !== 'object' || error === null)) {
      problems.push('the error is not in the envelope');
    } else if (error) {
      if (!CODES.has(String(error.code))) problems.push(`unknown code ${String(error.code)}`);
      if (typeof error.message !== 'string' || error.message === '') problems.push('no message');
      if (typeof error.request_id !== 'string' || !REQUEST_ID.test(error.request_id)) {
        problems.push(`request_id is ${JSON.stringify(error.request_id)}`);
      } else if (error.request_id !== headerId) {
        problems.push('request_id differs from X-Request-ID');
      }
    }
  }
  const declared = operationId !== undefined && CONTRACT_OPERATIONS.has(operationId);
  // HEAD is left out: the contract checker reads it as the GET, body included.
  if (contract && !head && (declared || answer.statusCode >= 400)) {
    try {
      // `//x` would be read as a host by the URL parser; the server takes it as a path.
      assertMatchesContract(request.method, request.url.replace(/^\/+/, '/'), answer);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}

const SINGLE_LINE = new RegExp(SINGLE_LINE_PATTERN, 'u');
/** The request bodies' single-line fields by name (each carries SINGLE_LINE_PATTERN). */
const SINGLE_LINE_FIELDS = new Set(['name', 'url']);

/** The single-line fields of a JSON body, at any depth, that break the single-line rule. */
function brokenSingleLine(value: unknown, at = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, field]) => {
    const path = at ? `${at}.${key}` : key;
    if (typeof field === 'string') {
      return SINGLE_LINE_FIELDS.has(key) && !SINGLE_LINE.test(field) ? [path] : [];
    }
    return brokenSingleLine(field, path);
  });
}

/** The operations that take a body of the contract (whose schemas carry the rule). */
const BODY_OPERATIONS = new Set(
  Object.values(
    openapiDocument.paths as Record<
      string,
      Record<string, { operationId?: string; requestBody?: unknown }>
    >,
  )
    .flatMap((item) => Object.values(item))
    .filter((operation) => operation?.requestBody !== undefined)
    .map((operation) => operation.operationId),
);

/** An accepted (2xx) body with a control or bidi character in a single-line field. */
function acceptedBrokenSingleLine(
  request: FuzzRequest,
  answer: Answer,
  operationId: string | undefined,
): string[] {
  if (!BODY_OPERATIONS.has(operationId) || request.body === undefined) return [];
  if (answer.statusCode < 200 || answer.statusCode >= 300) return [];
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    return [];
  }
  return brokenSingleLine(body).map((field) => `accepted ${field} that is not one line of text`);
}

/** Rejects when `work` takes longer than `ms` (a request that is never answered). */
export async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks one exchange: the answer itself, that no single-line field with a line break or
 * bidi control was accepted, then, for a refusal (4xx), that nothing was stored and no
 * balance moved. Returns the state after, the next exchange's "before".
 */
export async function checkExchange(
  fuzz: FuzzApp,
  request: FuzzRequest,
  answer: Answer,
  operationId: string | undefined,
  before: string,
  options: { contract?: boolean } = {},
): Promise<{ problems: string[]; after: string }> {
  const problems = [
    ...answerProblems(request, answer, operationId, options),
    ...acceptedBrokenSingleLine(request, answer, operationId),
  ];
  const after = await fuzz.snapshot();
  if (answer.statusCode >= 400 && after !== before) {
    problems.push(`refused with ${answer.statusCode}, yet the state changed: ${before} → ${after}`);
  }
  return { problems, after };
}

/** A failing case as a readable report (bodies cut short). */
export function describeCase(request: FuzzRequest, answer: Answer | undefined): string {
  return `${describeRequest(request)}\n${answer ? `→ ${answer.statusCode} ${answer.body.slice(0, 400)}` : '→ no answer'}`;
}

/** Percent escapes decoded byte by byte, as often as any remain (up to four times). */
function decodedFully(text: string): string {
  let out = text;
  for (let i = 0; i < 4 && /%[0-9A-Fa-f]{2}/.test(out); i++) {
    out = out.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
  return out;
}

/**
 * The log lines that hold a secret's random part in any encoding: as written, or once
 * every percent escape is decoded. A secret's first random character is left out of the
 * search, since a probe may encode just that one.
 *
 * @example
 * expect(leakedSecrets(fuzz.logLines, [fuzz.keys.test.key, fuzz.adminToken])).toEqual([]);
 */
export function leakedSecrets(lines: readonly string[], secrets: readonly string[]): string[] {
  const tails = secrets.map((secret) => secret.slice(secret.lastIndexOf('_') + 2));
  return lines.filter((line) => {
    const decoded = decodedFully(line);
    return tails.some((tail) => line.includes(tail) || decoded.includes(tail));
  });
}
