/**
 * The database side of a run's ports (runs/ports.ts): runs read and write their project,
 * revision, documents, events and provenance through it, and never import storage/.
 */
import type { Conventions } from '@pgs/contract';
import { recordEvent } from '../events/hub.ts';
import { type EventSink, RunEndedError, type RunStore, type RunWrites } from '../runs/ports.ts';
import type { Db, Tx } from '../storage/db.ts';
import { findRepositoryContext } from '../storage/sql/contexts.ts';
import { findConventions } from '../storage/sql/conventions.ts';
import { listProjectEvents, ProjectEndedError } from '../storage/sql/events.ts';
import {
  findProject,
  insertDocument,
  listDocuments,
  updateProject,
} from '../storage/sql/projects.ts';
import { insertProvenance, spentMicroUsd } from '../storage/sql/provenance.ts';
import { findRevision, updateRevision } from '../storage/sql/revisions.ts';
import { cachedGenerationStats, recordGenerationTime } from '../storage/sql/stats.ts';

/** Appends to the project's log in `tx`; an ended project or revision is a {@link RunEndedError}. */
function eventSink(tx: Tx): EventSink {
  return {
    async append(projectId, type, data, guard) {
      try {
        await recordEvent(tx, projectId, type, data, guard);
      } catch (error) {
        if (error instanceof ProjectEndedError) throw new RunEndedError(error.message);
        throw error;
      }
    },
  };
}

function writes(tx: Tx): RunWrites {
  return {
    events: eventSink(tx),
    async insertDocument(row) {
      await insertDocument(tx, row);
    },
    insertProvenance: (row) => insertProvenance(tx, row),
    async updateProject(projectId, values) {
      await updateProject(tx, projectId, values);
    },
    updateRevision: (projectId, revision, values) =>
      updateRevision(tx, projectId, revision, values),
  };
}

/**
 * The run store over the database: each `write` is one transaction.
 *
 * @example
 * const workflow = new GenerationWorkflow(runStore(database.db), projects, models);
 */
export function runStore(db: Db): RunStore {
  const direct = writes(db);
  return {
    write: (fn) => db.transaction((tx) => fn(writes(tx))),
    updateProject: direct.updateProject,
    updateRevision: direct.updateRevision,
    project: (id) => findProject(db, id),
    revision: (projectId, revision) => findRevision(db, projectId, revision),
    documents: (projectId, revision) => listDocuments(db, projectId, revision),
    events: (projectId) => listProjectEvents(db, projectId),
    spentMicroUsd: (projectId) => spentMicroUsd(db, projectId),
    generationStats: () => cachedGenerationStats(db),
    recordGenerationTime: (key, ms) => recordGenerationTime(db, key, ms),
    digest: (projectId, revision) => findRepositoryContext(db, projectId, revision),
    conventions: async (accountId, mode, version) =>
      (await findConventions(db, accountId, mode, version))?.body as Conventions | undefined,
  };
}
