/**
 * `@pgs/client`: the PGS SDK. Zero runtime dependencies; needs `fetch`,
 * `AbortSignal.any` and `crypto` (Node 20+, Deno, Bun, current browsers).
 *
 * @example
 * import { Pgs, NotFoundError } from '@pgs/client';
 * const pgs = new Pgs({ apiKey: 'pgs_test_…' });
 * const { projectId } = await pgs.projects.create({ idea: 'A habit tracker for remote teams' });
 * const result = await pgs.projects.waitForCompletion(projectId); // 'completed' or 'failed'
 * try { console.log((await pgs.projects.get(id)).status); } catch (err) { if (err instanceof NotFoundError) console.log('no such project'); }
 */

export type {
  AccountId,
  AdminAccount,
  AdminKey,
  AnyErrorCode,
  CreateProjectRequest,
  CreateRevisionRequest,
  CreditsResponse,
  DeltaSummary,
  DiffFormat,
  ErrorCode,
  ErrorResponse,
  GateFinding,
  GenerationError,
  GenerationMetadata,
  KeyId,
  Mode,
  OperationErrorCode,
  PartProvenance,
  Project,
  ProjectAcceptedResponse,
  ProjectCancelledResponse,
  ProjectCompleted,
  ProjectDocument,
  ProjectFailed,
  ProjectInProgress,
  ProjectListResponse,
  ProjectState,
  ProjectStatus,
  ProjectStatusResponse,
  ProjectSummary,
  ProjectType,
  ProvenanceResponse,
  Questionnaire,
  RequestId,
  RequirementAdded,
  RequirementDelta,
  RequirementDeltaOp,
  RequirementModified,
  RequirementRemoved,
  RequirementRenamed,
  Revision,
  RevisionAcceptedResponse,
  RevisionCompleted,
  RevisionDiffFile,
  RevisionDiffResponse,
  RevisionFailed,
  RevisionInProgress,
  RevisionListResponse,
  RevisionResponse,
  RevisionSummary,
  Trace,
  TraceCoverage,
  TraceEdge,
  TraceFinding,
  TraceNode,
  TraceRequirementCoverage,
  TraceResponse,
  TraceSeverity,
  UsageTotals,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEventType,
} from '@pgs/contract';
/** The contract's archive slug: the name the server gives `projects.archive()`'s zip, for naming saved files alike. */
export { projectSlug } from '@pgs/contract';
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
  waitOrAbort,
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
  PollTimeoutError,
  type PollTimeoutInit,
  parseRetryAfterMs,
  RateLimitError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.ts';
export {
  DEFAULT_MAX_RECONNECTS,
  type DocumentCompletedData,
  type EventStreamDeps,
  type ProjectCompletedData,
  type ProjectEvent,
  type ProjectEventDataMap,
  type ProjectEventsOptions,
  type ProjectEventType,
  type ProjectFailedData,
  type RevisionAnalysedData,
  type RevisionCompletedData,
  type RevisionFailedData,
  type RevisionStartedData,
  type SseMessage,
  SseParser,
  type StageStartedData,
  streamProjectEvents,
} from './events.ts';
export {
  type McpArgumentProblems,
  type McpCheckedArguments,
  type McpDocumentResource,
  type McpEmbeddedResource,
  type McpErrorResponse,
  type McpJsonSchema,
  type McpProgress,
  type McpPromptOutcome,
  type McpRequestSchema,
  type McpResourceLink,
  type McpTextContent,
  type McpToolAnnotations,
  type McpToolDefinition,
  type McpToolErrorInit,
  type McpToolName,
  type McpToolResult,
  mcp,
} from './mcp.ts';
export {
  DEFAULT_MAX_CONSECUTIVE_ERRORS,
  DEFAULT_MAX_WAIT_MS,
  type Finished,
  MAX_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  type Pollable,
  type PollClock,
  type PollOnce,
  type PollProgress,
  type ProjectResult,
  pollBackoffMs,
  pollUntilDone,
  type Running,
  rateLimitDelayMs,
  serverPollIntervalMs,
  type WaitOptions,
} from './polling.ts';
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
export {
  AdminLedger,
  type LedgerAudit,
  type LedgerAuditMovement,
  type LedgerDrift,
} from './resources/admin/ledger.ts';
export { type CreditBalance, Credits } from './resources/credits.ts';
export { ProjectPage, ProjectPagePromise } from './resources/project-pages.ts';
export {
  type ArchiveLayout,
  type ArchiveOptions,
  DEFAULT_MAX_CACHED_PROJECTS,
  type ProjectCreated,
  type ProjectCreateParams,
  type ProjectListParams,
  type ProjectStatusWithRevision,
  Projects,
  type ProjectsOptions,
  type Provenance,
  type ResultReadOptions,
  TRACE_SEVERITIES,
} from './resources/projects.ts';
export {
  type RevisionCreated,
  type RevisionCreateParams,
  type RevisionDiff,
  type RevisionDiffOptions,
  type RevisionGetOptions,
  type RevisionResult,
  Revisions,
  type RevisionsOptions,
} from './resources/revisions.ts';
export { WebhookEndpoints } from './resources/webhook-endpoints.ts';
export { VERSION } from './version.ts';
export {
  type VerifyOptions,
  WebhookVerificationError,
  type WebhookVerificationIssue,
  webhooks,
} from './webhooks.ts';
