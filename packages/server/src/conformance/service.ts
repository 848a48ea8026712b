import type {
  ConformanceCheck,
  ConformanceReport,
  CreateConformanceCheckRequest,
  TraceConformance,
} from '@pgs/contract';
import { DomainError } from '../errors.ts';
import { newUlid } from '../ids.ts';
import { codebaseFacts } from '../models/codebase.ts';
import type { Db, Tx } from '../storage/db.ts';
import type { Mode } from '../storage/sql/accounts.ts';
import {
  type ConformanceCheckRow,
  findConformanceCheck,
  insertConformanceCheck,
  listConformanceChecks,
} from '../storage/sql/conformance.ts';
import { listDocuments } from '../storage/sql/projects.ts';
import { findTaskProject } from '../storage/sql/tasks.ts';
import { checkedDigest } from './digest.ts';
import { conformanceReport } from './report.ts';
import { specView } from './spec.ts';

/** Who asks: an API key of an account in one mode. */
export interface ConformanceCaller {
  accountId: string;
  mode: Mode;
}

/** What a check keeps of the digest it read: never a file's text. */
interface StoredContext {
  repository: { name: string; commit: string | null; files: number; citations: number };
}

/** Checks listed at most (the latest). */
export const MAX_LISTED_CHECKS = 50;

/** A check's ID: `chk_` and a ULID. */
export const CHECK_ID = /^chk_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Checks of repositories against projects' specs (docs/conformance.md), shared by the REST
 * routes and the MCP tool. A check is made before the answer: it is deterministic (the
 * offline codebase reader, no model call) and takes milliseconds for the largest digest the
 * API accepts, so a queue would add latency and a worker for nothing. It is still stored
 * and answered as an asynchronous resource (202, `status`), so a check made later by a
 * worker (a model's judgement) changes nothing for clients.
 *
 * @example
 * const checks = new ConformanceChecks(db);
 * const check = await checks.create(caller, projectId, { context: { repository } });
 */
export class ConformanceChecks {
  readonly #db: Db;
  readonly #now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /** Checks `body.context.repository` against the project's current revision, and stores it. */
  async create(
    caller: ConformanceCaller,
    projectId: string,
    body: CreateConformanceCheckRequest,
    options: { withinTransaction?: (tx: Tx, check: ConformanceCheck) => Promise<void> } = {},
  ): Promise<ConformanceCheck> {
    const project = await this.#completed(caller, projectId);
    const { repository, citations } = await checkedDigest(body.context.repository);
    const documents = await listDocuments(this.#db, project.id, project.revision);
    const createdAt = new Date(this.#now());
    let outcome: Pick<ConformanceCheckRow, 'status' | 'report' | 'error'>;
    try {
      const facts = codebaseFacts(repository);
      const report = conformanceReport(specView(documents), { facts, citations });
      outcome = { status: 'succeeded', report, error: null };
    } catch {
      // Deterministic code that throws on some digest: stored as failed, the cause not echoed.
      outcome = {
        status: 'failed',
        report: null,
        error: { code: 'INTERNAL_ERROR', message: 'The check could not read this digest.' },
      };
    }
    const context: StoredContext = {
      repository: {
        name: repository.name,
        commit: repository.commit,
        files: repository.files.length,
        citations: citations.length,
      },
    };
    // Stored with the Idempotency-Key's answer, in one transaction: a retried POST replays it.
    return this.#db.transaction(async (tx) => {
      const row = await insertConformanceCheck(tx, {
        id: `chk_${newUlid()}`,
        projectId: project.id,
        revision: project.revision,
        context,
        createdAt,
        finishedAt: new Date(this.#now()),
        ...outcome,
      });
      const check = checkOf(row, true);
      await options.withinTransaction?.(tx, check);
      return check;
    });
  }

  /** One check with its report; 404 for another key's project or no such check. */
  async get(
    caller: ConformanceCaller,
    projectId: string,
    checkId: string,
  ): Promise<ConformanceCheck> {
    const project = await this.#owned(caller, projectId);
    const row = CHECK_ID.test(checkId)
      ? await findConformanceCheck(this.#db, project.id, checkId)
      : undefined;
    if (row === undefined) {
      throw new DomainError('RESOURCE_NOT_FOUND', 'The project has no check with this id.', {
        resource_type: 'conformance_check',
        resource_id: checkId,
      });
    }
    return checkOf(row, true);
  }

  /** The project's checks, latest first, without their reports. */
  async list(caller: ConformanceCaller, projectId: string): Promise<ConformanceCheck[]> {
    const project = await this.#owned(caller, projectId);
    const rows = await listConformanceChecks(this.#db, project.id, { limit: MAX_LISTED_CHECKS });
    return rows.map((row) => checkOf(row, false));
  }

  /** The latest succeeded check of a revision, as the trace shows it; undefined when none. */
  async latest(
    caller: ConformanceCaller,
    projectId: string,
    revision: number,
  ): Promise<TraceConformance | undefined> {
    const project = await this.#owned(caller, projectId);
    const [row] = await listConformanceChecks(this.#db, project.id, {
      limit: 1,
      revision,
      status: 'succeeded',
    });
    const totals = (row?.report as ConformanceReport | null | undefined)?.totals;
    if (row === undefined || totals === undefined) return undefined;
    return {
      checkId: row.id,
      createdAt: row.createdAt.toISOString(),
      tested: totals.tested,
      implemented: totals.implemented,
      missing: totals.missing,
      drift: totals.drift,
    };
  }

  async #owned(caller: ConformanceCaller, projectId: string) {
    const id = projectId.toLowerCase();
    const project = await findTaskProject(this.#db, id, caller);
    if (project === undefined) {
      throw new DomainError('RESOURCE_NOT_FOUND', 'No project with this identifier exists.', {
        resource_type: 'project',
        resource_id: projectId,
      });
    }
    return { id, status: project.status, revision: project.currentRevision };
  }

  async #completed(caller: ConformanceCaller, projectId: string) {
    const project = await this.#owned(caller, projectId);
    if (project.status !== 'completed') {
      throw new DomainError(
        'PROJECT_NOT_COMPLETED',
        project.status === 'in_progress'
          ? 'The project is still being generated; its spec can be checked once it is completed.'
          : 'The project failed, so it has no spec to check against.',
        { resource_type: 'project', resource_id: projectId, status: project.status },
      );
    }
    return project;
  }
}

/** A stored check as the API answers it: the report only when asked (not in lists). */
export function checkOf(row: ConformanceCheckRow, withReport: boolean): ConformanceCheck {
  const report = row.report as ConformanceReport | null;
  const { repository } = row.context as StoredContext;
  return {
    id: row.id,
    projectId: row.projectId,
    revision: row.revision,
    status: row.status,
    repository,
    totals: report?.totals ?? null,
    ...(withReport && report !== null ? { report } : {}),
    error: row.error ?? null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
