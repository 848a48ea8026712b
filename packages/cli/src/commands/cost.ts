import type { PartProvenance, Provenance } from '@pgs/client';
import type { Command } from '../context.ts';
import { table } from '../output.ts';
import {
  cacheShare,
  dollars,
  OFFLINE_ENGINE,
  OFFLINE_FREE_NOTE,
  partsOf,
  type Usage,
  unknownCostNote,
} from '../usage.ts';
import { API_OPTIONS, projectIdArgument, revisionValue } from './common.ts';

const NAME = 'cost';

/** A row of the table: a part, or the total (no engine). */
type Row = Usage & Pick<PartProvenance, 'kind' | 'engine'>;

const COLUMNS: readonly [string, (row: Row) => string][] = [
  ['PART', (row) => row.kind],
  ['ENGINE', (row) => row.engine],
  ['INPUT', (row) => String(row.inputTokens)],
  ['CACHED', (row) => String(row.cachedInputTokens)],
  ['CACHE WRITE', (row) => String(row.cacheWriteTokens)],
  ['OUTPUT', (row) => String(row.outputTokens)],
  ['COST', (row) => dollars(row.costUsd)],
];

/**
 * One row per part, then the `total` row (the provenance's `totals`): aligned columns under
 * a header (a terminal), or tab-separated lines without one (a pipe).
 *
 * @example
 * costTable(await pgs.projects.provenance(id), false); // ['definition\toffline\t837\t0\t0\t448\t$0', …, 'total\t\t57402\t0\t0\t8974\t$0']
 */
export function costTable(provenance: Provenance, tty: boolean): string[] {
  const rows: Row[] = [...partsOf(provenance), { kind: 'total', engine: '', ...provenance.totals }];
  return table(COLUMNS, rows, tty);
}

/**
 * What a project's model calls cost, in words: the total, the table of parts (input,
 * cached, cache-write and output tokens, cost) with its total row, the share of input the
 * prompt cache served, and why a cost is unknown or $0. `revision` names the revision read.
 *
 * @example
 * costLines(await pgs.projects.provenance(id)).forEach((line) => console.log(line));
 */
export function costLines(provenance: Provenance, revision?: number): string[] {
  const parts = partsOf(provenance);
  const which = revision === undefined ? '' : `, revision ${revision}`;
  const head = `Project ${provenance.projectId}${which}: ${provenance.status.replace('_', ' ')}`;
  if (parts.length === 0) return [`${head}; nothing generated yet.`];
  const lines = [`${head}; cost ${dollars(provenance.totals.costUsd)}.`, ''];
  lines.push(...costTable(provenance, true));
  const notes = [
    cacheShare(provenance.totals),
    unknownCostNote(parts),
    parts.some((part) => part.engine === OFFLINE_ENGINE && part.costUsd === 0)
      ? OFFLINE_FREE_NOTE
      : undefined,
  ].filter((note) => note !== undefined);
  if (notes.length > 0) lines.push('', ...notes);
  return lines;
}

/**
 * `pgs cost ID`: what a project's model calls cost, part by part.
 *
 * @example
 * pgs cost 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --revision 2
 */
export const cost: Command = {
  name: NAME,
  summary: "Show what a project's model calls cost, part by part",
  usage: 'pgs cost ID [--revision N] [--json]',
  credential: 'api-key',
  help: `Reads what the model calls that wrote a project cost (GET /projects/{id}/provenance),
in any state: for the definition and each document stored so far, the engine that wrote
it, the input tokens (all of them, cached included), those the provider's prompt cache
served (CACHED) and those written to it (CACHE WRITE), the output tokens, and the cost in
US dollars to the millionth, at the prices known when the calls were made (docs/cost.md).
This is what the calls cost at the provider, not the credits charged (pgs credits).

Arguments:
  ID                     the project id

Options:
  --revision N           revision N of the project (pgs history ID lists them), once it
                         is completed; default the current revision. Its parts are the
                         documents it holds: one carried over counts where it was written

Output: the total, a table (PART, ENGINE, INPUT, CACHED, CACHE WRITE, OUTPUT, COST) with a
last "total" row, then the share of input tokens the prompt cache served. A cost is
"unknown" when a model called has no known price, never a guess: a line names the
engines, and PGS_MODEL_PRICES on the server sets prices. The offline engine (PGS's
built-in engine, no AI model) costs $0. Piped, one tab-separated line per part and the
"total" line, no header and no notes. What every run of a project cost so far (its
creation and revisions) is the COST of pgs list. A revision in progress or failed exits 12.
With --json, one line: {"projectId","status","totals","parts"}, the provenance's totals
and its parts (the definition, then the documents) as the API returns them.`,
  options: { ...API_OPTIONS, revision: { type: 'string' } },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, NAME);
    const revision = revisionValue(ctx.values, NAME);
    const data = await ctx
      .client()
      .projects.provenance(projectId, { revision, signal: ctx.io.signal });
    if (ctx.json) {
      const { projectId: id, status, totals } = data;
      ctx.print(JSON.stringify({ projectId: id, status, totals, parts: partsOf(data) }));
      return;
    }
    const lines = ctx.io.stdout.isTTY === true ? costLines(data, revision) : costTable(data, false);
    for (const line of lines) ctx.print(line);
  },
};
