import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db.ts';
import type { Mode } from './accounts.ts';

// The ledger audit's queries. Each builder returns the statement (text and parameters, as
// drizzle's `sql` tag holds them); the readers run it and turn the driver's values (bigint
// and numeric arrive as strings from node-postgres) into numbers. They are meant to run in
// one read-only REPEATABLE READ transaction, so that every figure comes from one snapshot.
//
// The unit the rules apply to is a *run*: a project's creation (revision 1, the `projects`
// row) or one of its revisions (revision n ≥ 2, a `project_revisions` row, docs/revisions.md).
// A movement's run is its `project_id` and the revision its key names: `project:<id>:r<n>:…`
// for a revision, `project:<id>:…` (no `r<n>`) for the creation.

/** Movements that end a run's reservation: after one of them it holds nothing. */
const SETTLING_KINDS = sql`('consume', 'refund')`;

/** The project movements of the ledger, each with the revision of the run it belongs to. */
const RUN_MOVEMENTS = sql`(
  select account_id, mode, project_id, kind, amount,
    coalesce(substring(movement_key from ':r([0-9]+):')::int, 1) as revision
  from credit_ledger where project_id is not null
)`;

/**
 * Every run with a row: each project as revision 1, and each of its revisions (whose account
 * and mode are the project's). A deleted project's revisions went with it.
 */
const RUNS = sql`(
  select id as project_id, 1 as revision, account_id, mode, status,
    credits_reserved, credits_consumed
  from projects
  union all
  select r.project_id, r.revision, p.account_id, p.mode, r.status,
    r.credits_reserved, r.credits_consumed
  from project_revisions r join projects p on p.id = r.project_id
)`;

/** One account in one mode: what is stored and what the ledger says it should be. */
export interface AuditTotalsRow {
  accountId: string;
  mode: Mode;
  /** `credit_balances.balance` (0 without a row). */
  balance: number;
  /** The sum of `credits_reserved` over the pair's projects and revisions in progress. */
  reserved: number;
  /** The sum of every ledger movement of the pair. */
  expectedBalance: number;
  /** The sum of the runs' reservations the ledger has not settled (no consume, no refund yet). */
  expectedReserved: number;
}

/**
 * Every account in both modes, with its stored balance, the credits its projects and
 * revisions in progress hold, the sum of its ledger and the reservations its ledger leaves
 * open (per run: a completed creation does not settle a revision's reservation).
 */
export function auditTotalsQuery(): SQL {
  return sql`
    with pairs as (
      select a.id as account_id, m.mode
      from accounts a cross join (values ('live'), ('test')) as m(mode)
    ),
    ledger as (
      select account_id, mode, sum(amount) as total
      from credit_ledger group by account_id, mode
    ),
    reservations as (
      select account_id, mode, project_id, revision,
        coalesce(-sum(amount) filter (where kind = 'reserve'), 0) as held,
        bool_or(kind in ${SETTLING_KINDS}) as settled
      from ${RUN_MOVEMENTS} as movements
      group by account_id, mode, project_id, revision
    ),
    open_reservations as (
      select account_id, mode, sum(held) as held
      from reservations where not settled group by account_id, mode
    ),
    running as (
      select account_id, mode, sum(credits_reserved) as reserved
      from ${RUNS} as runs where status = 'in_progress' group by account_id, mode
    )
    select p.account_id as "accountId", p.mode as "mode",
      coalesce(b.balance, 0)::text as "balance",
      coalesce(r.reserved, 0)::text as "reserved",
      coalesce(l.total, 0)::text as "expectedBalance",
      coalesce(o.held, 0)::text as "expectedReserved"
    from pairs p
      left join credit_balances b on b.account_id = p.account_id and b.mode = p.mode
      left join ledger l on l.account_id = p.account_id and l.mode = p.mode
      left join open_reservations o on o.account_id = p.account_id and o.mode = p.mode
      left join running r on r.account_id = p.account_id and r.mode = p.mode
    order by p.account_id, p.mode`;
}

/**
 * A run (a project's creation or one of its revisions) whose row and ledger movements
 * disagree (see {@link projectMismatchesQuery}).
 */
export interface ProjectMismatchRow {
  projectId: string;
  /** 1 for the creation (the `projects` row), n ≥ 2 for a revision (`project_revisions`). */
  revision: number;
  accountId: string;
  mode: Mode;
  /** The run's row's status; null when the project was deleted (its movements stay). */
  status: 'in_progress' | 'completed' | 'failed' | null;
  creditsReserved: number | null;
  creditsConsumed: number | null;
  /** The sum of its movements, the credits its `reserve` took, and whether it was settled. */
  ledgerNet: number;
  ledgerReserved: number;
  settled: boolean;
}

/**
 * Runs whose movements do not match their row (the project's for revision 1, the revision's
 * for n ≥ 2): one in progress must hold exactly its `credits_reserved` (a `reserve`, nothing
 * settling it); one ended must have reserved its `credits_reserved`, be settled, and have
 * movements summing to minus its `credits_consumed`; one with movements and no row (its
 * project was deleted, revisions with it) must be settled and have cost between nothing and
 * its reservation; movements must be on the project's own account and mode. A run that
 * reserved nothing and has no movement is outside the ledger and not checked.
 */
export function projectMismatchesQuery(): SQL {
  return sql`
    with runs as ${RUNS},
    moves as (
      select project_id, revision, account_id, mode,
        sum(amount) as net,
        coalesce(-sum(amount) filter (where kind = 'reserve'), 0) as held,
        bool_or(kind in ${SETTLING_KINDS}) as settled
      from ${RUN_MOVEMENTS} as movements
      group by project_id, revision, account_id, mode
    )
    select coalesce(p.project_id, m.project_id)::text as "projectId",
      coalesce(p.revision, m.revision) as "revision",
      coalesce(m.account_id, p.account_id) as "accountId",
      coalesce(m.mode, p.mode) as "mode",
      p.status as "status",
      p.credits_reserved as "creditsReserved",
      p.credits_consumed as "creditsConsumed",
      coalesce(m.net, 0)::text as "ledgerNet",
      coalesce(m.held, 0)::text as "ledgerReserved",
      coalesce(m.settled, false) as "settled"
    from runs p full join moves m on m.project_id = p.project_id and m.revision = p.revision
    where
      (p.project_id is not null and m.project_id is not null
        and (m.account_id <> p.account_id or m.mode <> p.mode))
      or (p.status = 'in_progress'
        and (coalesce(m.settled, false) or coalesce(m.held, 0) <> p.credits_reserved))
      or (p.status in ('completed', 'failed')
        and (p.credits_reserved > 0 or m.project_id is not null)
        and (not coalesce(m.settled, false)
          or coalesce(m.held, 0) <> p.credits_reserved
          or coalesce(m.net, 0) <> -coalesce(p.credits_consumed, 0)))
      or (p.project_id is null and (not m.settled or m.net > 0 or m.net < -m.held))
    order by 1, 2`;
}

/** One ledger row, as the audit reports it. */
export interface LedgerMovementRow {
  id: number;
  kind: string;
  amount: number;
  projectId: string | null;
  movementKey: string;
  createdAt: Date;
}

/**
 * Ledger rows of one account and mode: those of `projectIds`, and with `everything` the
 * newest of all the others; `limit` rows at most, oldest first.
 */
export function pairMovementsQuery(
  accountId: string,
  mode: Mode,
  { projectIds, everything, limit }: { projectIds: string[]; everything: boolean; limit: number },
): SQL {
  const ofProjects =
    projectIds.length === 0
      ? sql`false`
      : sql`project_id::text in (${sql.join(
          projectIds.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  return sql`
    select * from (
      select id::text as "id", kind, amount::text as "amount", project_id::text as "projectId",
        movement_key as "movementKey", created_at as "createdAt"
      from credit_ledger
      where account_id = ${accountId} and mode = ${mode}
        and (${everything ? sql`true` : sql`false`} or ${ofProjects})
      order by ${projectIds.length === 0 ? sql`` : sql`(${ofProjects}) desc, `}credit_ledger.id desc
      limit ${limit}
    ) as chosen order by "id"::bigint`;
}

/**
 * A project in progress, being revised, or named by a mismatch, as the audit reports it (its
 * own row, revision 1's figures; a revision's show in its ledger rows' keys).
 */
export interface AuditProjectRow {
  projectId: string;
  status: 'in_progress' | 'completed' | 'failed';
  creditsReserved: number;
  creditsConsumed: number | null;
  createdAt: Date;
}

/**
 * The projects of one account and mode that are in progress, have a revision in progress,
 * or are among `projectIds`.
 */
export function pairProjectsQuery(accountId: string, mode: Mode, projectIds: string[]): SQL {
  const named =
    projectIds.length === 0
      ? sql`false`
      : sql`id::text in (${sql.join(
          projectIds.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  return sql`
    select id::text as "projectId", status, credits_reserved as "creditsReserved",
      credits_consumed as "creditsConsumed", created_at as "createdAt"
    from projects
    where account_id = ${accountId} and mode = ${mode}
      and (status = 'in_progress' or ${named}
        or exists (select 1 from project_revisions r
          where r.project_id = projects.id and r.status = 'in_progress'))
    order by created_at, id`;
}

async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  // node-postgres and PGlite both answer `{ rows }`.
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const num = (value: unknown) => Number(value);
const numOrNull = (value: unknown) => (value === null || value === undefined ? null : num(value));
const date = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Runs {@link auditTotalsQuery}. */
export async function readAuditTotals(tx: Tx): Promise<AuditTotalsRow[]> {
  return (await rows<Record<string, unknown>>(tx, auditTotalsQuery())).map((row) => ({
    accountId: String(row.accountId),
    mode: row.mode as Mode,
    balance: num(row.balance),
    reserved: num(row.reserved),
    expectedBalance: num(row.expectedBalance),
    expectedReserved: num(row.expectedReserved),
  }));
}

/** Runs {@link projectMismatchesQuery}. */
export async function readProjectMismatches(tx: Tx): Promise<ProjectMismatchRow[]> {
  return (await rows<Record<string, unknown>>(tx, projectMismatchesQuery())).map((row) => ({
    projectId: String(row.projectId),
    revision: num(row.revision),
    accountId: String(row.accountId),
    mode: row.mode as Mode,
    status: (row.status ?? null) as ProjectMismatchRow['status'],
    creditsReserved: numOrNull(row.creditsReserved),
    creditsConsumed: numOrNull(row.creditsConsumed),
    ledgerNet: num(row.ledgerNet),
    ledgerReserved: num(row.ledgerReserved),
    settled: row.settled === true,
  }));
}

/** Runs {@link pairMovementsQuery}. */
export async function readPairMovements(
  tx: Tx,
  accountId: string,
  mode: Mode,
  options: { projectIds: string[]; everything: boolean; limit: number },
): Promise<LedgerMovementRow[]> {
  const query = pairMovementsQuery(accountId, mode, options);
  return (await rows<Record<string, unknown>>(tx, query)).map((row) => ({
    id: num(row.id),
    kind: String(row.kind),
    amount: num(row.amount),
    projectId: row.projectId === null ? null : String(row.projectId),
    movementKey: String(row.movementKey),
    createdAt: date(row.createdAt),
  }));
}

/** Runs {@link pairProjectsQuery}. */
export async function readPairProjects(
  tx: Tx,
  accountId: string,
  mode: Mode,
  projectIds: string[],
): Promise<AuditProjectRow[]> {
  const query = pairProjectsQuery(accountId, mode, projectIds);
  return (await rows<Record<string, unknown>>(tx, query)).map((row) => ({
    projectId: String(row.projectId),
    status: row.status as AuditProjectRow['status'],
    creditsReserved: num(row.creditsReserved),
    creditsConsumed: numOrNull(row.creditsConsumed),
    createdAt: date(row.createdAt),
  }));
}
