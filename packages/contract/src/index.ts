/**
 * `@pgs/contract`: the OpenAPI contract (`openapi/pgs.openapi.yaml`) as data, JSON Schemas
 * and TypeScript types, plus what the contract states in prose that every side applies: the
 * archive's slug, and the catalogue of document kinds with their prices. No runtime
 * dependencies, nothing of ours. The rules of a repository digest, which need secretlint,
 * are the separate entry `@pgs/contract/repository`.
 */
import { openapiDocument } from './generated/openapi.ts';
import type { components, operations } from './generated/types.ts';

/** Answering a project's register later: `answerRegister(definition, answered)`. */
export {
  answerRegister,
  answersChangeRequest,
  closedIds,
  type Decision,
  MAX_ANSWER_LENGTH,
  MAX_ANSWERS,
  numberEntries,
  type ProjectQuestion,
} from './answers.ts';
/** The document kinds, their files and sections, and the plan of each type: `documentKindsOf('web')`. */
export {
  DESIGN_DOCUMENTS,
  DOCUMENT_KINDS,
  type DocumentKindInfo,
  type DocumentKindName,
  documentKindsOf,
  GROUNDED_ARCHITECTURE_SECTIONS,
  type PlanScope,
  type SectionsOf,
  STAGES,
  type Stage,
} from './catalogue.ts';
/** The whole contract as a constant: `openapiDocument.info.version`. */
export {
  applyAnswers,
  CLARIFY_TOPICS,
  type ClarifyAnswer,
  type ClarifyQuestion,
  type ClarifyTopic,
} from './clarify.ts';
/** House conventions (docs/conventions.md): `applyConventions(definition, conventions, idea)`. */
export {
  applyConventions,
  type Conventions,
  type ConventionsFinding,
  canonicalLanguage,
  isEnglish,
  languageName,
  namesTechnology,
} from './conventions.ts';
/** What documents, projects and revisions cost in credits: `projectCredits('web')` is 47. */
export {
  DETAIL_LEVELS,
  DETAIL_SCALE,
  type DetailLevel,
  documentCredits,
  projectCredits,
  REVISION_FEE,
  type RevisionCredits,
  type RevisionScope,
  revisableKindsOf,
  revisionCredits,
} from './credits.ts';
export { openapiDocument } from './generated/openapi.ts';
/** The JSON Schema bundle, its `$id`, its schema names and refs into it: `schemaRef('ErrorResponse')`. */
export { SCHEMA_BUNDLE_ID, type SchemaName, schemaBundle, schemaRef } from './generated/schemas.ts';
/** The openapi-typescript types: `operations['getProjectStatus']['responses'][200]`. */
export type { components, operations, paths } from './generated/types.ts';
/** The rule of single-line text fields (names): `new RegExp(SINGLE_LINE_PATTERN, 'u')`. */
export { patternRule, SINGLE_LINE_PATTERN, SINGLE_LINE_RULE } from './single-line.ts';
/** The archive's file name rule: `projectSlug('Café Compost Circle!')` is `'cafe-compost-circle'`. */
export { MAX_SLUG_LENGTH, projectSlug } from './slug.ts';
/** A task's context pack as markdown, as every side shows it: `taskContextMarkdown(pack)`. */
export { taskContextMarkdown } from './tasks.ts';

type Schemas = components['schemas'];

/** The body of a 200 from `getProjectStatus`: `{ success: true, data: ProjectStatus }`. */
export type ProjectStatusResponse = Schemas['ProjectStatusResponse'];
/** A project in one of its three states, discriminated on `status`. */
export type ProjectStatus = Schemas['ProjectStatus'];
/** A project whose generation is running: `{ projectId, status: 'in_progress', estimatedCompletionMs }`. */
export type ProjectInProgress = Schemas['ProjectInProgress'];
/** A project whose generation finished: carries `project` and `metadata`. */
export type ProjectCompleted = Schemas['ProjectCompleted'];
/** A project whose generation failed (credits refunded): carries `error`. */
export type ProjectFailed = Schemas['ProjectFailed'];
/** The value of `status`: `'in_progress' | 'completed' | 'failed'`. */
export type ProjectState = ProjectStatus['status'];
/** The generated project: name, description, type, questionnaire and documents. */
export type Project = Schemas['Project'];
/** One generated markdown document (the contract's `Document` schema). */
export type ProjectDocument = Schemas['Document'];
/** The generated questionnaire; members beyond the three named ones may be present. */
export type Questionnaire = Schemas['Questionnaire'];
/** Metadata about a completed run: credits consumed, time taken, documents generated. */
export type GenerationMetadata = Schemas['GenerationMetadata'];
/** Why a generation failed: `{ code: 'generation_failed', message }`. */
export type GenerationError = Schemas['GenerationError'];
/** The error envelope: `{ success: false, error: { code, message, request_id, ... } }`. */
export type ErrorResponse = Schemas['ErrorResponse'];
/** A stable error code, e.g. `'RESOURCE_NOT_FOUND'`. */
export type ErrorCode = Schemas['ErrorCode'];
/** A code of an operation beyond the published status interface, e.g. `'INSUFFICIENT_CREDITS'`. */
export type OperationErrorCode = Schemas['OperationErrorCode'];
/** Any error code the API answers with. */
export type AnyErrorCode = ErrorCode | OperationErrorCode;
/** The envelope of an error with an {@link OperationErrorCode}. */
export type OperationErrorResponse = Schemas['OperationErrorResponse'];
/** Body of `POST /projects`: `{ idea, type?, name?, simulate? }`. */
export type CreateProjectRequest = Schemas['CreateProjectRequest'];
/** How acceptance criteria are written: `ears` (EARS sentences) or `gherkin` (Given/When/Then scenarios). */
export type RequirementStyle = Schemas['RequirementStyle'];
/** Test keys' `simulate` of a project or a revision: `{ outcome, durationMs? }`. */
export type Simulation = Schemas['Simulation'];
/** Body of a 202 from `POST /projects`: the in-progress status. */
export type ProjectAcceptedResponse = Schemas['ProjectAcceptedResponse'];
/** Body of a 200 from `GET /credits`: `{ mode, balance, reserved }`. */
export type CreditsResponse = Schemas['CreditsResponse'];
/** Body of a 200 from `GET /projects`: `{ success, data: ProjectSummary[], has_more }`. */
export type ProjectListResponse = Schemas['ProjectListResponse'];
/** A project in a listing: id, status, name, type, times, credits; never its documents. */
export type ProjectSummary = Schemas['ProjectSummary'];
/** The body of a webhook message (`project.completed`, `project.failed`, `project.revised`). */
export type WebhookEvent = Schemas['WebhookEvent'];
export type WebhookEventType = Schemas['WebhookEventType'];
/** A webhook endpoint as listed (no secret). */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** A webhook endpoint as created: with its signing secret, shown only then. */
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreatedResponse']['data'];
export type CreateWebhookEndpointRequest = Schemas['CreateWebhookEndpointRequest'];
/** One delivery attempt of a webhook message. */
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** An issue tracker PGS connects to: `github`, `linear`, `jira`. */
export type TrackerProvider = Schemas['TrackerProvider'];
/** A tracker connection as listed and read (never its credentials or webhook secret). */
export type Connection = Schemas['Connection'];
export type CreateConnectionRequest = Schemas['CreateConnectionRequest'];
/** A connection as created: with its inbound webhook's URL and secret, shown only then. */
export type ConnectionCreated = Schemas['ConnectionCreatedResponse']['data'];
/** Body of a 200 from `POST /projects/{projectId}/cancel`: the failed (cancelled) status. */
export type ProjectCancelledResponse = Schemas['ProjectCancelledResponse'];
/** Body of a 200 from `GET /projects/{projectId}/provenance`. */
export type ProvenanceResponse = Schemas['ProvenanceResponse'];
/** How one part of a project (the definition or a document) was generated. */
export type PartProvenance = Schemas['PartProvenance'];
/** `context` on createProject or createRevision: `{ repository: RepositoryDigest }`. */
export type ProjectContext = Schemas['ProjectContext'];
/** A digest of an existing codebase: `{ name, commit?, files: [{ path, content }] }`. */
export type RepositoryDigest = Schemas['RepositoryDigest'];
/** One file of a {@link RepositoryDigest}: `{ path, content }`. */
export type RepositoryFile = Schemas['RepositoryFile'];
/** A test line citing a spec ID, in a digest's `citations`: `{ id, path, line, text }`. */
export type RepositoryCitation = Schemas['RepositoryCitation'];
/** Body of `POST /projects/{projectId}/conformance`: `{ context: { repository } }`. */
export type CreateConformanceCheckRequest = Schemas['CreateConformanceCheckRequest'];
/** A check of a repository against a project's spec (docs/conformance.md). */
export type ConformanceCheck = Schemas['ConformanceCheck'];
/** What a conformance check found: per requirement, criterion and task, drift, suggested change. */
export type ConformanceReport = Schemas['ConformanceReport'];
/** The latest check's totals on the trace. */
export type TraceConformance = Schemas['TraceConformance'];
/** Provenance's `context`: the digest's file list, sizes, commit and redactions, never its text. */
export type ContextProvenance = Schemas['ContextProvenance'];
/** Tokens and cost added up over parts of a project (a provenance's `totals`). */
export type UsageTotals = Schemas['UsageTotals'];
/** A quality-gate finding: `{ rule, message }`. */
export type GateFinding = Schemas['GateFinding'];
/** Body of a 200 from `GET /projects/{projectId}/trace`: `{ success: true, data: Trace }`. */
export type TraceResponse = Schemas['TraceResponse'];
/** A completed project's trace graph: `nodes`, `edges`, `coverage` and `findings` (docs/trace.md). */
export type Trace = Schemas['Trace'];
/** An ID where a document defines it: `{ id: 'FR-3', kind: 'requirement', document, section, title }`. */
export type TraceNode = Schemas['TraceNode'];
/** One citation: `from` (an ID or a document's filename) mentions `to`. */
export type TraceEdge = Schemas['TraceEdge'];
/** Per `FR-n`: its criteria, stories, components and tasks; and the totals. */
export type TraceCoverage = Schemas['TraceCoverage'];
/** One row of `coverage.requirements`: an `FR-n` and what reaches it. */
export type TraceRequirementCoverage = TraceCoverage['requirements'][number];
/** One fault the trace checks found: `{ rule, severity, message, document?, section?, ids? }`. */
export type TraceFinding = Schemas['TraceFinding'];
/** A finding's severity: `'critical' | 'high' | 'medium' | 'low'`. */
export type TraceSeverity = TraceFinding['severity'];
/** A task of a project's plan with its state (docs/tasks.md): `{ id: 'T-3', title, status, lease, … }`. */
export type Task = Schemas['Task'];
/** A task with its history, as getTask, updateTask and renewTaskLease answer it. */
export type TaskDetail = Schemas['TaskDetail'];
/** One change of a task: who (`keyId`, `agent`), when, `from`, `to`, `assignee`, `note`. */
export type TaskHistoryEntry = Schemas['TaskHistoryEntry'];
/** A task's state: `'todo' | 'in_progress' | 'blocked' | 'done' | 'obsolete'`. */
export type TaskStatus = Schemas['TaskStatus'];
/** The agent holding a task and until when: `{ agent, expiresAt }`. */
export type TaskLease = Schemas['TaskLease'];
/** What a task needs to be done: criteria, stories, design pieces, files, dependencies, constraints. */
export type TaskContext = Schemas['TaskContext'];
/** Body of `PATCH …/tasks/{taskId}`: `{ status?, assignee?, note? }`. */
export type UpdateTaskRequest = Schemas['UpdateTaskRequest'];
/** Body of `POST …/tasks/next`: `{ agent, leaseSeconds? }`. */
export type ClaimTaskRequest = Schemas['ClaimTaskRequest'];
/** Body of `POST …/tasks/{taskId}/lease`: `{ agent, leaseSeconds? }`. */
export type RenewLeaseRequest = Schemas['RenewLeaseRequest'];
/** Body of a 200 from `GET …/tasks`: `{ success, data: Task[] }`, in plan order. */
export type TaskListResponse = Schemas['TaskListResponse'];
/** Body of a 200 from getTask, updateTask and renewTaskLease: `{ success, data: TaskDetail }`. */
export type TaskResponse = Schemas['TaskResponse'];
/** Body of a 200 from `POST …/tasks/next`: `{ success, data: { task, context } }`. */
export type ClaimedTaskResponse = Schemas['ClaimedTaskResponse'];
/** Body of a 200 from getTaskContext: `{ success, data: TaskContext }`. */
export type TaskContextResponse = Schemas['TaskContextResponse'];
/** The mode of a key, its projects and its credits: `'live' | 'test'`. */
export type Mode = Schemas['Mode'];
/** The type of a generated project: `'web' | 'mobile' | 'mcp'`. */
export type ProjectType = Schemas['ProjectType'];
/** A request id, `req_<ULID>`, as in `X-Request-ID` and `error.request_id`. */
export type RequestId = Schemas['RequestId'];
/** An account id, `acct_<ULID>`. */
export type AccountId = Schemas['AccountId'];
/** An API key id, `key_<ULID>`. */
export type KeyId = Schemas['KeyId'];
/** The identifier of an operation of the contract, e.g. `'getProjectStatus'`. */
export type OperationId = keyof operations;
/** The `layout` of `getProjectArchive`: `'plain' | 'kiro' | 'spec-kit' | 'agents' | 'openspec'`. */
export type ArchiveLayout = components['parameters']['ArchiveLayout'];

/** Body of `POST /projects/{projectId}/revisions`: `{ changeRequest, simulate? }`. */
export type CreateRevisionRequest = Schemas['CreateRevisionRequest'];
/** Body of a 202 from `POST /projects/{projectId}/revisions`: `{ projectId, revision, status, estimatedCompletionMs }`. */
export type RevisionAcceptedResponse = Schemas['RevisionAcceptedResponse'];
/** Body of a 200 from `listProjectQuestions`: `{ success: true, data: { questions } }`. */
export type ProjectQuestionsResponse = Schemas['ProjectQuestionsResponse'];
/** Body of `POST /projects/{id}/answers`: `{ answers: { "Q-1": "…" } }`. */
export type AnswerQuestionsRequest = Schemas['AnswerQuestionsRequest'];
/** Body of a 200 from `GET /projects/{projectId}/revisions`: `{ success, data: RevisionSummary[] }`, newest first. */
export type RevisionListResponse = Schemas['RevisionListResponse'];
/** A revision in a listing: its state, change request, delta counts, documents changed and credits. */
export type RevisionSummary = Schemas['RevisionSummary'];
/** How many requirement deltas of each kind a revision made. */
export type DeltaSummary = Schemas['DeltaSummary'];
/** One requirement delta, discriminated on `op`: added, modified, removed or renamed. */
export type RequirementDelta = Schemas['RequirementDelta'];
/** A new requirement group: `{ op: 'added', id, title, text }`. */
export type RequirementAdded = Schemas['RequirementAdded'];
/** An existing group's new text: `{ op: 'modified', id, title, text }`. */
export type RequirementModified = Schemas['RequirementModified'];
/** A group retired for good: `{ op: 'removed', id, title, reason }`. */
export type RequirementRemoved = Schemas['RequirementRemoved'];
/** A group whose title changes: `{ op: 'renamed', id, from, to }`. */
export type RequirementRenamed = Schemas['RequirementRenamed'];
/** The value of a delta's `op`: `'added' | 'modified' | 'removed' | 'renamed'`. */
export type RequirementDeltaOp = RequirementDelta['op'];
/** Body of a 200 from `getRevision` and `cancelRevision`: `{ success: true, data: Revision }`. */
export type RevisionResponse = Schemas['RevisionResponse'];
/** A revision in one of its three states, discriminated on `status`. */
export type Revision = Schemas['Revision'];
/** A revision running: with `estimatedCompletionMs`. */
export type RevisionInProgress = Schemas['RevisionInProgress'];
/** A revision finished: with `project`, `metadata` and `completedAt`. */
export type RevisionCompleted = Schemas['RevisionCompleted'];
/** A revision failed or cancelled (refunded, the previous revision current): with `error`. */
export type RevisionFailed = Schemas['RevisionFailed'];
/** Body of a 200 from `getRevisionDiff` with `?format=json`: `{ projectId, revision, base, files }`. */
export type RevisionDiffResponse = Schemas['RevisionDiffResponse'];
/** One document a revision changed: `{ filename, status, additions, deletions, patch }`. */
export type RevisionDiffFile = Schemas['RevisionDiffFile'];
/** The `format` of `getRevisionDiff`: `'diff' | 'json'`. */
export type DiffFormat = components['parameters']['DiffFormat'];

/** Admin API: body of `POST /admin/v1/accounts` (`{ name? }`). */
export type AdminCreateAccountRequest = Schemas['AdminCreateAccountRequest'];
/** Admin API: body of `POST /admin/v1/keys` (`{ mode, accountId?, credits?, name? }`). */
export type AdminCreateKeyRequest = Schemas['AdminCreateKeyRequest'];
/** Admin API: body of `POST /admin/v1/credits/grants` (`{ accountId, mode, amount }`). */
export type AdminGrantCreditsRequest = Schemas['AdminGrantCreditsRequest'];
/** Admin API: an account with its balances and keys. */
export type AdminAccount = Schemas['AdminAccount'];
/** Admin API: an API key as listed (prefix only, never the secret). */
export type AdminKey = Schemas['AdminKey'];
/** Admin API: `{ success: true, data: AdminAccount }`. */
export type AdminAccountResponse = Schemas['AdminAccountResponse'];
/** Admin API: a new key with its secret, shown once. */
export type AdminKeyCreatedResponse = Schemas['AdminKeyCreatedResponse'];
/** Admin API: `{ success: true, data: AdminKey }` after a revocation. */
export type AdminKeyRevokedResponse = Schemas['AdminKeyRevokedResponse'];
/** Admin API: a credit grant and the new balance. */
export type AdminGrantResponse = Schemas['AdminGrantResponse'];

const schemas = openapiDocument.components.schemas;

/** Every error code of the contract, in its order: `ERROR_CODES.includes(code)`. */
export const ERROR_CODES = schemas.ErrorCode.enum satisfies readonly ErrorCode[];
/** The codes of operations beyond the published status interface. */
export const OPERATION_ERROR_CODES = schemas.OperationErrorCode
  .enum satisfies readonly OperationErrorCode[];
/** Every mode: `['live', 'test']`. */
export const MODES = schemas.Mode.enum satisfies readonly Mode[];
/** Every project type: `['web', 'mobile', 'mcp']`. */
export const PROJECT_TYPES = schemas.ProjectType.enum satisfies readonly ProjectType[];
/** Every archive layout, the default first: `['plain', 'kiro', 'spec-kit', 'agents', 'openspec']`. */
export const ARCHIVE_LAYOUTS = openapiDocument.components.parameters.ArchiveLayout.schema
  .enum satisfies readonly ArchiveLayout[];
/** Every project state, the running one first: `['in_progress', 'completed', 'failed']`. */
export const PROJECT_STATES = [
  schemas.ProjectInProgress.properties.status.const,
  schemas.ProjectCompleted.properties.status.const,
  schemas.ProjectFailed.properties.status.const,
] as const satisfies readonly ProjectState[];
/** Every task status, in the contract's order: `['todo', 'in_progress', 'blocked', 'done', 'obsolete']`. */
export const TASK_STATUSES = schemas.TaskStatus.enum satisfies readonly TaskStatus[];
/** Every diff format, the default first: `['diff', 'json']`. */
export const DIFF_FORMATS = openapiDocument.components.parameters.DiffFormat.schema
  .enum satisfies readonly DiffFormat[];
/** Every requirement delta op, in the contract's order: `['added', 'modified', 'removed', 'renamed']`. */
export const REQUIREMENT_DELTA_OPS = [
  schemas.RequirementAdded.properties.op.const,
  schemas.RequirementModified.properties.op.const,
  schemas.RequirementRemoved.properties.op.const,
  schemas.RequirementRenamed.properties.op.const,
] as const satisfies readonly RequirementDeltaOp[];

/** The MCP tools, resources and prompt both MCP servers share (docs/mcp.md). */
export * from './mcp/index.ts';
