import type {
  CreateProjectRequest,
  CreateRevisionRequest,
  ProjectContext,
  ProjectType,
  RequirementStyle,
} from '@pgs/contract';
import { canonicalLanguage } from '@pgs/contract';
import type { Principal } from '../accounts/service.ts';
import { DomainError } from '../errors.ts';
import type { Simulation } from '../runs/estimate.ts';
import type { Detail } from '../runs/pricing.ts';
import type { Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import { lockProject, type ProjectRow } from '../storage/sql/projects.ts';
import { type PreparedRepository, prepareRepository } from './context.ts';

declare const admitted: unique symbol;

/** A creation as the service takes it: the request's fields, its codebase prepared. */
export interface CreateProjectInput {
  idea: string;
  type?: ProjectType | undefined;
  name?: string | undefined;
  simulate?: Simulation | undefined;
  /** A limit on the project's model calls, in USD (docs/cost.md). */
  maxCostUsd?: number | undefined;
  /** How much its documents say: their length and price (default `standard`). */
  detail?: Detail | undefined;
  /** The codebase it changes, checked and redacted (prepareRepository): a grounded project. */
  repository?: PreparedRepository | undefined;
  /** Answers to clarifying questions (docs/clarify.md), kept as written. */
  answers?: { question: string; answer: string }[] | undefined;
  /** How acceptance criteria are written (docs/requirement-style.md); absent: the default. */
  requirementStyle?: RequirementStyle | undefined;
  /** The documents' language, BCP 47 canonical (docs/conventions.md); absent: the conventions'. */
  language?: string | undefined;
  /** `false`: the account's house conventions are not applied (docs/conventions.md). */
  conventions?: false | undefined;
}

/** A revision as the service takes it: the request's fields, its codebase prepared. */
export interface CreateRevisionInput {
  changeRequest: string;
  simulate?: Simulation | undefined;
  /**
   * The codebase as it is now (prepareRepository), in force from this revision on; only a
   * project created grounded takes one.
   */
  repository?: PreparedRepository | undefined;
  /**
   * The answers to the brief's open questions and assumptions this revision records
   * (`POST …/answers`, docs/clarify.md#answer-later), by ID; absent for a change request.
   */
  answers?: Record<string, string> | undefined;
}

/**
 * A creation the rules admitted: only {@link admitProject} makes one, so every way in (REST,
 * MCP) passes the same rules before {@link Projects.create} reserves anything.
 */
export type AdmittedProject = CreateProjectInput & { readonly [admitted]: true };

/** A revision the rules admitted: only {@link admitRevision} makes one. */
export type AdmittedRevision = CreateRevisionInput & { readonly [admitted]: true };

/** What a client asks to create; `detail` defaults to `standard` (MCP sends none). */
export type ProjectRequest = Omit<CreateProjectRequest, 'detail'> &
  Partial<Pick<CreateProjectRequest, 'detail'>>;

/** The engines a mode's projects may call that have no known price (a budget needs one). */
export type UnpricedEngines = (mode: Mode) => string[];

/**
 * Checks a creation against the rules that do not need the database, in the order a client
 * is told of them, and prepares its codebase (checked and redacted: the raw text goes no
 * further). Throws {@link DomainError} VALIDATION_ERROR naming the field.
 *
 * @example
 * const input = await admitProject(principal, { idea: 'A habit tracker' }, () => []);
 */
export async function admitProject(
  principal: Principal,
  request: ProjectRequest,
  unpricedEngines: UnpricedEngines,
): Promise<AdmittedProject> {
  const { idea, type, name, simulate, maxCostUsd, detail, context, answers, requirementStyle } =
    request;
  const language = admittedLanguage(request.language);
  const simulation = admittedSimulation(principal, simulate);
  // A simulation runs on the offline engine, which is free: any budget is kept.
  const unpriced =
    maxCostUsd === undefined || simulation !== undefined ? [] : unpricedEngines(principal.mode);
  if (unpriced.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'maxCostUsd needs a known price for every model this key may call.',
      {
        invalid_fields: {
          maxCostUsd: `no known price for ${unpriced.join(', ')}: the operator sets one with PGS_MODEL_PRICES`,
        },
      },
    );
  }
  const repository = await preparedContext(context);
  const input: CreateProjectInput = {
    idea,
    type,
    name,
    simulate: simulation,
    maxCostUsd,
    detail,
    repository,
    answers: answers?.map(({ question, answer }) => ({ question, answer })),
    requirementStyle,
    language,
    conventions: request.conventions,
  };
  return input as AdmittedProject;
}

/** A language tag in its canonical form; one that is no BCP 47 tag is refused, naming the field. */
function admittedLanguage(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  const canonical = canonicalLanguage(language);
  if (canonical === undefined) {
    throw new DomainError('VALIDATION_ERROR', 'language must be a BCP 47 language tag.', {
      invalid_fields: { language: 'must be a BCP 47 language tag (de, pt-BR)' },
    });
  }
  return canonical;
}

/**
 * Checks a revision's change request and simulation, and prepares its codebase; what needs
 * the project (found, completed, not already revising, grounded) is checked by
 * {@link Revisions.create} under the project's lock.
 *
 * @example
 * const input = await admitRevision(principal, { changeRequest: 'Add offline mode' });
 */
export async function admitRevision(
  principal: Principal,
  request: CreateRevisionRequest,
): Promise<AdmittedRevision> {
  const { changeRequest, simulate, context } = request;
  if (changeRequest.trim() === '') {
    throw new DomainError('VALIDATION_ERROR', 'changeRequest must say what to change.', {
      invalid_fields: { changeRequest: 'must not be blank' },
    });
  }
  const input: CreateRevisionInput = {
    changeRequest,
    simulate: admittedSimulation(principal, simulate),
    repository: await preparedContext(context),
  };
  return input as AdmittedRevision;
}

/** A simulation is for tests: a live key asking for one is refused, not quietly served. */
function admittedSimulation(
  principal: Principal,
  simulate: CreateProjectRequest['simulate'],
): Simulation | undefined {
  if (simulate === undefined) return undefined;
  if (principal.mode !== 'test') {
    throw new DomainError('VALIDATION_ERROR', 'simulate is only available with test keys.', {
      invalid_fields: { simulate: 'is only available with test keys (pgs_test_…)' },
    });
  }
  return { outcome: simulate.outcome, durationMs: simulate.durationMs ?? 0 };
}

/**
 * The request's `context`, checked and redacted; undefined without one. A digest that breaks
 * a rule is VALIDATION_ERROR naming each field and its file's path (`details.field`,
 * `details.path` for the one the message names, `details.paths` for all), never quoting a
 * file's text; one too large in total is refused as such (HTTP 413, `details.max_bytes`).
 */
async function preparedContext(
  context: ProjectContext | undefined,
): Promise<PreparedRepository | undefined> {
  if (context === undefined) return undefined;
  const prepared = await prepareRepository(context.repository);
  if (prepared.outcome === 'prepared') return prepared.repository;
  const { status, message, invalidFields, maxBytes, paths = {} } = prepared.refusal;
  // The field the message names, and its file's path: with hundreds of files, the index
  // alone does not say which one to fix. `paths` does the same for every field named.
  const field = Object.keys(invalidFields)[0];
  const path = field === undefined ? undefined : paths[field];
  throw new DomainError(
    'VALIDATION_ERROR',
    message,
    {
      invalid_fields: invalidFields,
      ...(path === undefined ? {} : { field, path, paths }),
      ...(maxBytes === undefined ? {} : { max_bytes: maxBytes }),
    },
    { tooLarge: status === 413 },
  );
}

/**
 * The caller's project `requestedId`, locked, if a revision may start on it: completed, not
 * revising already, and grounded when the revision brings a codebase. Throws DomainError
 * otherwise (the not-found names the project as the caller wrote it).
 */
export async function revisableProject(
  tx: Tx,
  principal: Principal,
  requestedId: string,
  input: CreateRevisionInput,
): Promise<ProjectRow> {
  const id = requestedId.toLowerCase();
  const row = await lockProject(tx, id, principal);
  if (row === undefined) {
    throw new DomainError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
      resource_type: 'project',
      resource_id: requestedId,
    });
  }
  if (row.status !== 'completed' || row.type === null) {
    const status = row.status === 'failed' ? 'failed' : 'in_progress';
    throw new DomainError(
      'PROJECT_NOT_COMPLETED',
      status === 'in_progress'
        ? 'The project is still being generated; only a completed project can be revised.'
        : 'The project failed; only a completed project can be revised.',
      { resource_type: 'project', resource_id: id, status },
    );
  }
  if (row.revising !== null) {
    throw new DomainError(
      'REVISION_IN_PROGRESS',
      `Revision ${row.revising} of this project is still running; wait for it to end or cancel it first.`,
      { resource_type: 'project', resource_id: id, revision: row.revising },
    );
  }
  // A digest for a project created without one: its documents never described code.
  if (input.repository !== undefined && !row.grounded) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'This project was created without a codebase: create a grounded project (with context) to describe one.',
      {
        invalid_fields: {
          context: 'this project was created without a codebase: create a grounded project',
        },
      },
    );
  }
  return row;
}
