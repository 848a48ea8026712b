import {
  type GateFinding,
  type PartProvenance,
  type Provenance,
  TRACE_SEVERITIES,
} from '@pgs/client';
import type { Command } from '../context.ts';
import { table } from '../output.ts';
import { dollars, OFFLINE_ENGINE, partsOf, unknownCostNote } from '../usage.ts';
import { API_OPTIONS, projectIdArgument, revisionValue } from './common.ts';

const NAME = 'provenance';

/** What a run on the offline engine is, and how to configure a model instead. */
export const OFFLINE_NOTE = [
  "The offline engine is PGS's built-in engine: it drafts the documents from the idea by",
  'rules and templates, with no AI model. To generate with a model, set PGS_MODELS on the',
  'server (PGS_TEST_MODELS for test keys) and restart it, for example',
  'PGS_MODELS=openai:gpt-4.1-mini with OPENAI_API_KEY, or',
  'PGS_MODELS=anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY (the README section',
  '"Generating with AI models" has the details).',
];

/**
 * Findings counted by severity, the worst first, with the severities that have none left
 * out: `1 high, 2 medium`, or `none`.
 *
 * @example
 * findingCounts(part.findings); // '1 high, 2 medium'
 */
export function findingCounts(findings: readonly GateFinding[]): string {
  const counts = TRACE_SEVERITIES.map((severity) => ({
    severity,
    n: findings.filter((finding) => finding.severity === severity).length,
  })).filter(({ n }) => n > 0);
  return counts.length === 0
    ? 'none'
    : counts.map(({ n, severity }) => `${n} ${severity}`).join(', ');
}

const COLUMNS: readonly [string, (part: PartProvenance) => string][] = [
  ['PART', (part) => part.kind],
  ['ENGINE', (part) => part.engine],
  ['PROMPT', (part) => part.promptVersion],
  ['TOKENS', (part) => String(part.tokensUsed)],
  ['CACHED', (part) => String(part.cachedInputTokens)],
  ['COST', (part) => dollars(part.costUsd)],
  ['ATTEMPTS', (part) => String(part.attempts)],
  ['REPAIRS', (part) => String(part.repairs)],
  ['FINDINGS', (part) => findingCounts(part.findings)],
];

/** The engines that wrote the parts, in order of first use, the offline one in words. */
function writtenBy(parts: readonly PartProvenance[]): string {
  const engines = [...new Set(parts.map((part) => part.engine))].map((engine) =>
    engine === OFFLINE_ENGINE ? 'the offline engine' : engine,
  );
  if (engines.length <= 1) return engines.join('');
  return `${engines.slice(0, -1).join(', ')} and ${engines.at(-1)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * How a project was generated, in words: who wrote it, one row per part (engine, prompt
 * version, tokens, cached input tokens, cost, attempts, repairs, the gate's remaining
 * findings by severity), the totals, why a cost is unknown, the findings themselves, and
 * on the offline engine how to configure a model. `revision` names the revision read.
 *
 * @example
 * provenanceLines(await pgs.projects.provenance(id)).forEach((line) => console.log(line));
 */
export function provenanceLines(provenance: Provenance, revision?: number): string[] {
  const parts = partsOf(provenance);
  const which = revision === undefined ? '' : `, revision ${revision}`;
  const head = `Project ${provenance.projectId}${which}: ${provenance.status.replace('_', ' ')}`;
  if (parts.length === 0) return [`${head}; nothing generated yet.`];
  const offline = parts.every((part) => part.engine === OFFLINE_ENGINE);
  const sum = (key: 'tokensUsed' | 'attempts' | 'repairs') =>
    parts.reduce((total, part) => total + part[key], 0);
  const left = parts.flatMap((part) => part.findings.map((finding) => ({ part, finding })));
  const lines = [
    `${head}; written by ${writtenBy(parts)}${offline ? ' (no AI model)' : ''}.`,
    '',
    ...table(COLUMNS, parts, true),
    '',
    `Total: ${plural(sum('tokensUsed'), 'token')} (${provenance.totals.cachedInputTokens} cached), ` +
      `cost ${dollars(provenance.totals.costUsd)}, ${plural(sum('attempts'), 'model call')}, ` +
      `${plural(sum('repairs'), 'repair')}; findings: ${findingCounts(left.map(({ finding }) => finding))}`,
  ];
  const unknown = unknownCostNote(parts);
  if (unknown !== undefined) lines.push(unknown);
  if (left.length > 0) {
    lines.push('', 'Findings the quality gate still reports:');
    for (const severity of TRACE_SEVERITIES) {
      for (const { part, finding } of left.filter(({ finding }) => finding.severity === severity)) {
        lines.push(`  ${part.kind} [${severity}] ${finding.rule}: ${finding.message}`);
      }
    }
  }
  if (offline) lines.push('', ...OFFLINE_NOTE);
  return lines;
}

/**
 * `pgs provenance ID`: which engine wrote each part of a project, what it cost, and what
 * the gate found.
 *
 * @example
 * pgs provenance 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21 --revision 2
 */
export const provenance: Command = {
  name: NAME,
  summary: 'Show which engine wrote each part of a project, and what the gate found',
  usage: 'pgs provenance ID [--revision N] [--json]',
  credential: 'api-key',
  help: `Reads how a project was generated (GET /projects/{id}/provenance), in any state: for
the definition and each document stored so far, the engine that wrote it (${OFFLINE_ENGINE}, PGS's
built-in engine that drafts from the idea by rules and templates with no AI model, or
provider:model, e.g. anthropic:claude-sonnet-4-5), the prompt version, the tokens, the
input tokens the provider's prompt cache served, what its model calls cost, the model
calls (attempts: retries, fallbacks and repairs included), the repairs after the quality
gate, and the findings the gate still reports, counted by severity.

Arguments:
  ID                     the project id

Options:
  --revision N           revision N of the project (pgs history ID lists them), once it
                         is completed; default the current revision. A document carried
                         over is described where it was written

Output: who wrote the project, a table (PART, ENGINE, PROMPT, TOKENS, CACHED, COST,
ATTEMPTS, REPAIRS, FINDINGS), the totals, then one line per remaining finding ("part
[severity] rule: message"). COST is in US dollars to the millionth ($0.004213), $0 for
the offline engine, "unknown" when a model called has no known price (never a guess: a
line names the engines; PGS_MODEL_PRICES on the server sets prices); pgs cost ID has the
tokens in detail. When every part was written by the offline engine, how to configure a
model: set PGS_MODELS on the server (PGS_TEST_MODELS for test keys), e.g.
PGS_MODELS=openai:gpt-4.1-mini with OPENAI_API_KEY. Exits 0 whatever the findings; a
revision in progress or failed exits 12.
With --json, one line: the provenance as the API returns it ({"projectId","status",
"totals","definition","documents"}).`,
  options: { ...API_OPTIONS, revision: { type: 'string' } },
  async run(ctx) {
    const projectId = projectIdArgument(ctx.positionals, NAME);
    const revision = revisionValue(ctx.values, NAME);
    const data = await ctx
      .client()
      .projects.provenance(projectId, { revision, signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify(data));
      return;
    }
    for (const line of provenanceLines(data, revision)) ctx.print(line);
  },
};
