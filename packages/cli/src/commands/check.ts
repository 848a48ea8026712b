import type { ConformanceCheck, ConformanceReport } from '@pgs/client';
import type { Command } from '../context.ts';
import { NotConformantError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, projectIdArgument } from './common.ts';
import { buildDigest, contextOf, repoValues } from './repo.ts';

const NAME = 'check';
/** Longest title shown in the table; --json has it whole. */
const MAX_TITLE = 60;
/** Drift items printed per kind; --json has them all. */
const MAX_DRIFT = 20;

type Requirement = ConformanceReport['requirements'][number];

const shorten = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

const COLUMNS: readonly [string, (r: Requirement) => string][] = [
  ['ID', (r) => r.id],
  ['STATUS', (r) => r.status],
  ['TESTS', (r) => (r.tests.length === 0 ? '-' : r.tests.map((t) => `${t.path}:${t.line}`)[0]!)],
  ['TITLE', (r) => shorten(r.title, MAX_TITLE)],
];

/**
 * A check in words: the totals, one row per requirement, the drift and the suggested change.
 *
 * @example
 * checkLines(await pgs.projects.conformance.get(id, checkId), id, true).forEach((l) => console.log(l));
 */
export function checkLines(check: ConformanceCheck, projectId: string, tty: boolean): string[] {
  const { report, repository } = check;
  const at = repository.commit === null ? '' : ` @ ${repository.commit.slice(0, 12)}`;
  if (report === undefined) {
    return [`Check ${check.id}: ${check.status}${check.error ? ` (${check.error.message})` : ''}`];
  }
  const { totals, drift } = report;
  const lines = [
    `${repository.name}${at} against revision ${check.revision}: ${totals.requirements} requirements, ` +
      `${totals.tested} tested, ${totals.implemented} implemented, ${totals.missing} missing; ` +
      `${totals.criteriaCited} of ${totals.criteria} criteria cited by a test`,
    '',
    ...table(COLUMNS, report.requirements, tty),
  ];
  const items = [
    ...drift.routes.map((r) => `route      ${r.method} ${r.path}  (${r.file})`),
    ...drift.tables.map((t) => `table      ${t.name}  (${t.file})`),
    ...drift.components.map((c) => `component  ${c.name}  (${c.path})`),
  ];
  lines.push('');
  if (items.length === 0) {
    lines.push('Drift: none (every route, table and component is described).');
  } else {
    lines.push(`Drift: ${items.length} in the code that no requirement covers`);
    for (const item of items.slice(0, MAX_DRIFT)) lines.push(`  ${item}`);
    if (items.length > MAX_DRIFT) lines.push(`  … and ${items.length - MAX_DRIFT} more (--json)`);
  }
  if (report.suggestedChange !== null) {
    lines.push(
      '',
      'Suggested change (submit it as a revision):',
      `  pgs revise ${projectId} ${JSON.stringify(report.suggestedChange)}`,
    );
  }
  return lines;
}

/**
 * `pgs check ID --repo .`: builds the digest of the repository (with the tests citing spec
 * IDs), checks it against the project's spec, and prints per requirement and the drift.
 *
 * @example
 * pgs check 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --repo . --strict
 */
export const check: Command = {
  name: NAME,
  summary: 'Check a repository against a completed project’s spec',
  usage: 'pgs check ID [--repo DIR] [--repo-budget TOKENS] [--strict] [--json]',
  credential: 'api-key',
  help: `Builds the digest of the codebase at --repo (default: the working directory) as
pgs generate --repo does, adds the lines of its test files that cite spec IDs (FR-3.2,
FR-3, T-4 in a test's name, description or comment), sends it (POST
/projects/{id}/conformance) and prints the report once it is made: per requirement
tested (a test cites it or one of its criteria), implemented (code but no citing test)
or missing; the routes, tables and components no requirement covers; and the change
request that would bring the spec to the code (docs/conformance.md).

Arguments:
  ID                     the project id (a completed project: in progress or failed
                         exits 12)

Options:
  --repo DIR             the codebase to check (default: .): the digest pgs generate
                         --repo sends (.gitignore honoured; secret files left out;
                         secrets inside files replaced by [redacted:<rule>]), and
                         the cited lines of every test file
  --repo-budget TOKENS   at most this many tokens of files (o200k); default 40000
  --strict               exit 15 when a requirement is missing or the code has drift
                         (a gate for CI); without it, a finished check exits 0

With --json, one line: the check as the API returns it, report included.`,
  options: {
    ...API_OPTIONS,
    repo: { type: 'string' },
    'repo-budget': { type: 'string' },
    strict: { type: 'boolean' },
  },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, NAME);
    ctx.errorContext.projectId = projectId;
    const repo = repoValues({ ...ctx.values, repo: ctx.values.repo ?? '.' }, NAME)!;
    const built = await buildDigest(ctx, repo, NAME, { citations: true });
    const context = contextOf(built, repo, NAME);
    const conformance = ctx.client().projects.conformance;
    const created = await conformance.create(projectId, { context }, { signal: ctx.io.signal });
    const done = await conformance.waitForCompletion(projectId, created.id, {
      signal: ctx.io.signal,
    });
    if (ctx.json) ctx.print(JSON.stringify(done));
    else
      for (const line of checkLines(done, projectId, ctx.io.stdout.isTTY === true)) ctx.print(line);
    const totals = done.report?.totals;
    if (ctx.values.strict === true && totals !== undefined && totals.missing + totals.drift > 0) {
      throw new NotConformantError(projectId, totals.missing, totals.drift);
    }
  },
};
