import {
  type ContextProvenance,
  isEnglish,
  type PartProvenance,
  type ProvenanceResponse,
  type UsageTotals,
} from '@pgs/contract';
import type { Principal } from '../accounts/service.ts';
import { DEFINITION_KIND, OFFLINE_ENGINE } from '../runs/estimate.ts';
import type { Db } from '../storage/db.ts';
import { findRepositoryContextSummary } from '../storage/sql/contexts.ts';
import {
  findOwnedProjectStatus,
  findProjectSettings,
  listDocuments,
} from '../storage/sql/projects.ts';
import { listProvenance, type ProvenanceRow } from '../storage/sql/provenance.ts';

type Finding = PartProvenance['findings'][number];

/** The severity a finding stored before severities existed would have today. */
const LEGACY_SEVERITY: Readonly<Record<string, Finding['severity']>> = {
  empty: 'critical',
  schema: 'critical',
  'missing-section': 'high',
  placeholder: 'high',
  'unknown-id': 'high',
  'uncovered-requirement': 'high',
  'missing-name': 'medium',
};

/** Stored findings as served: each with its severity (rows older than severities get one). */
function findingsOf(stored: unknown): Finding[] {
  return (stored as Array<Omit<Finding, 'severity'> & { severity?: Finding['severity'] }>).map(
    (finding) => ({
      rule: finding.rule,
      severity: finding.severity ?? LEGACY_SEVERITY[finding.rule] ?? 'medium',
      message: finding.message,
    }),
  );
}

function part(row: ProvenanceRow): PartProvenance {
  return {
    kind: row.kind,
    engine: row.engine,
    promptVersion: row.promptVersion,
    inputTokens: row.inputTokens,
    cachedInputTokens: row.cacheReadTokens,
    cacheWriteTokens: row.cacheWriteTokens,
    outputTokens: row.outputTokens,
    tokensUsed: row.inputTokens + row.outputTokens,
    costUsd: row.costMicroUsd === null ? null : row.costMicroUsd / 1e6,
    attempts: row.attempts,
    repairs: row.repairs,
    durationMs: row.durationMs,
    initialFindings: findingsOf(row.initialFindings),
    findings: findingsOf(row.findings),
    trimmedContext: row.trimmed as string[],
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The digest in force at revision `n`, as provenance shows it: the file list with sizes and
 * redactions, never a file's text; null for a project created without one.
 */
async function contextAt(db: Db, projectId: string, n: number): Promise<ContextProvenance | null> {
  const stored = await findRepositoryContextSummary(db, projectId, n);
  return stored === undefined ? null : { repository: stored };
}

/**
 * Parts added up: tokens always, the cost only when every part's is known (in whole
 * micro-dollars, so the sum carries no float drift).
 *
 * @example
 * totalsOf(rows); // { inputTokens: 51234, cachedInputTokens: 38912, …, costUsd: 0.084112 }
 */
export function totalsOf(rows: readonly ProvenanceRow[]): UsageTotals {
  let micro: number | null = 0;
  const totals = { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
  for (const row of rows) {
    totals.inputTokens += row.inputTokens;
    totals.cachedInputTokens += row.cacheReadTokens;
    totals.cacheWriteTokens += row.cacheWriteTokens;
    totals.outputTokens += row.outputTokens;
    micro = micro === null || row.costMicroUsd === null ? null : micro + row.costMicroUsd;
  }
  return { ...totals, costUsd: micro === null ? null : micro / 1e6 };
}

/**
 * A project's provenance as the API serves it, if the project belongs to the principal's
 * account and mode.
 *
 * @example
 * const body = await readProvenance(db, request.principal, projectId);
 */
export async function readProvenance(
  db: Db,
  principal: Principal,
  projectId: string,
  /** A revision (`?revision=n`, checked by the caller); the current one when absent. */
  revision?: number,
): Promise<ProvenanceResponse | undefined> {
  const project = await findOwnedProjectStatus(db, projectId, principal.accountId, principal.mode);
  if (project === undefined) return undefined;
  const n = revision ?? project.currentRevision;
  const rows = await listProvenance(db, projectId, n);
  // A document carried over from an earlier revision is described where it was written;
  // so is the definition, which only the creation (revision 1) writes.
  if (n > 1) {
    rows.push(
      ...(await listProvenance(db, projectId, 1)).filter((r) => r.kind === DEFINITION_KIND),
    );
    const carried = (await listDocuments(db, projectId, n)).filter((doc) => doc.writtenIn < n);
    for (const from of new Set(carried.map((doc) => doc.writtenIn))) {
      const kinds = new Set(carried.filter((d) => d.writtenIn === from).map((d) => d.type));
      rows.push(...(await listProvenance(db, projectId, from)).filter((r) => kinds.has(r.kind)));
    }
    rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }
  const definition = rows.find((row) => row.kind === DEFINITION_KIND);
  // Read here, not by the status query: every poll runs that one.
  const settings = await findProjectSettings(db, projectId);
  return {
    success: true,
    data: {
      projectId,
      status: project.status,
      detail: settings?.detail ?? 'standard',
      requirementStyle: settings?.requirementStyle ?? 'ears',
      conventionsVersion: settings?.conventionsVersion ?? null,
      language: settings?.language ?? null,
      // The offline engine writes English only: the parts it wrote in another's stead say so.
      writtenInEnglish: isEnglish(settings?.language)
        ? []
        : rows.filter((row) => row.engine === OFFLINE_ENGINE).map((row) => row.kind),
      context: await contextAt(db, projectId, n),
      totals: totalsOf(rows),
      definition: definition ? part(definition) : null,
      documents: rows.filter((row) => row.kind !== DEFINITION_KIND).map(part),
    },
  };
}
