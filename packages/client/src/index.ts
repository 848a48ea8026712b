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
  ClaimTaskRequest,
  ConformanceCheck,
  ConformanceReport,
  Connection,
  ConnectionCreated,
  ContextProvenance,
  CreateConformanceCheckRequest,
  CreateConnectionRequest,
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
  ProjectContext,
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
  RenewLeaseRequest,
  RepositoryCitation,
  RepositoryDigest,
  RepositoryFile,
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
  Task,
  TaskContext,
  TaskDetail,
  TaskHistoryEntry,
  TaskLease,
  TaskStatus,
  Trace,
  TraceCoverage,
  TraceEdge,
  TraceFinding,
  TraceNode,
  TraceRequirementCoverage,
  TraceResponse,
  TraceSeverity,
  TrackerProvider,
  UpdateTaskRequest,
  UsageTotals,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEventType,
} from '@pgs/contract';
/**
 * The contract's archive slug (`projectSlug`: the name the server gives
 * `projects.archive()`'s zip, for naming saved files alike), and its catalogue of document
 * kinds with their prices, as the server charges them: `projectCredits('web')` is 47,
 * `revisionCredits('web').total` 44 (docs/api.md, "Credits"); the task statuses and the
 * markdown of a task's context pack, as the server renders it (`taskContextMarkdown(pack)`).
 */
export {
  DETAIL_LEVELS,
  DETAIL_SCALE,
  type DetailLevel,
  DOCUMENT_KINDS,
  type DocumentKindInfo,
  type DocumentKindName,
  documentCredits,
  documentKindsOf,
  type PlanScope,
  projectCredits,
  projectSlug,
  REVISION_FEE,
  type RevisionCredits,
  type RevisionScope,
  revisableKindsOf,
  revisionCredits,
  type SectionsOf,
  type Stage,
  TASK_STATUSES,
  taskContextMarkdown,
} from '@pgs/contract';
export { PgsAdmin, type PgsAdminOptions } from './admin.ts';
export { adminBaseUrl, apiBaseUrl, DEFAULT_SERVER_URL, serverRoot } from './base-url.ts';
export { type CommonClientOptions, Pgs, type PgsOptions } from './client.ts';
export {
  type APIResponse,
  createTransport,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type RequestOptions,
  type RequestSpec,
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
  PollTimeoutError,
  type PollTimeoutInit,
  PreconditionFailedError,
  PreconditionRequiredError,
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
  type FinalEvent,
  isFinalEvent,
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
  type TaskUpdatedData,
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
export { Conformance, type ConformanceWaitOptions } from './resources/conformance.ts';
export { Connections } from './resources/connections.ts';
export {
  Conventions,
  type ConventionsParams,
  type HouseConventions,
} from './resources/conventions.ts';
export { type CreditBalance, Credits } from './resources/credits.ts';
export {
  type ClarifyingAnswer,
  type ClarifyingQuestion,
  type IdeaClarifyParams,
  Ideas,
  type ProjectQuestion,
} from './resources/ideas.ts';
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
export {
  type CreateSyncRequest,
  type ProjectSync,
  type ProjectSyncItem,
  Syncs,
  type SyncWaitOptions,
} from './resources/syncs.ts';
export {
  type ClaimedTask,
  type TaskClaimParams,
  type TaskContextOptions,
  type TaskListParams,
  Tasks,
  type TaskUpdateOptions,
  type TaskVersion,
} from './resources/tasks.ts';
export { WebhookEndpoints } from './resources/webhook-endpoints.ts';
export {
  abortableSleep,
  backoffMs,
  isRetryableStatus,
  type SleepFn,
  waitOrAbort,
} from './retry.ts';
export { VERSION } from './version.ts';
export {
  type VerifyOptions,
  WebhookVerificationError,
  type WebhookVerificationIssue,
  webhooks,
} from './webhooks.ts';
