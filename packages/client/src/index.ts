/**
 * `@pgs/client`: the PGS SDK. Zero runtime dependencies; needs `fetch`,
 * `AbortSignal.any` and `crypto` (Node 20+, Deno, Bun, current browsers).
 *
 * @example
 * import { Pgs, NotFoundError } from '@pgs/client';
 * const pgs = new Pgs({ apiKey: 'pgs_test_…' });
 * try { console.log((await pgs.projects.get(id)).status); } catch (err) { if (err instanceof NotFoundError) console.log('no such project'); }
 */

export type {
  AccountId,
  AdminAccount,
  AdminKey,
  ErrorCode,
  ErrorResponse,
  GenerationError,
  GenerationMetadata,
  KeyId,
  Mode,
  Project,
  ProjectCompleted,
  ProjectDocument,
  ProjectFailed,
  ProjectInProgress,
  ProjectState,
  ProjectStatus,
  ProjectStatusResponse,
  ProjectType,
  Questionnaire,
  RequestId,
} from '@pgs/contract';
export { PgsAdmin, type PgsAdminOptions } from './admin.ts';
export { adminBaseUrl, apiBaseUrl, DEFAULT_SERVER_URL, serverRoot } from './base-url.ts';
export { type CommonClientOptions, Pgs, type PgsOptions } from './client.ts';
export {
  type APIResponse,
  abortableSleep,
  backoffMs,
  createTransport,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  isRetryableStatus,
  type RequestOptions,
  type RequestSpec,
  type SleepFn,
  type Transport,
  type TransportOptions,
} from './core.ts';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type CauseInit,
  ConflictError,
  type ErrorDetails,
  InsufficientCreditsError,
  InternalServerError,
  InvalidJsonError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PgsError,
  parseRetryAfterMs,
  RateLimitError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.ts';
export {
  AdminAccounts,
  type AdminCreateAccountParams,
} from './resources/admin/accounts.ts';
export {
  AdminCredits,
  type AdminGrant,
  type AdminGrantCreditsParams,
} from './resources/admin/credits.ts';
export {
  type AdminCreateKeyParams,
  type AdminKeyCreated,
  AdminKeys,
} from './resources/admin/keys.ts';
export { Projects } from './resources/projects.ts';
export { VERSION } from './version.ts';
