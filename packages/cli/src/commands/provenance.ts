import {
  type GateFinding,
  type PartProvenance,
  type Provenance,
  TRACE_SEVERITIES,
} from '@pgs/client';
import type { Command } from '../context.ts';
import { UsageError } from '../errors.ts';
import { table } from '../output.ts';
import { API_OPTIONS, expectPositionals } from './common.ts';

const NAME = 'provenance';

/** The engine name of PGS's built-in engine in provenance. */
export const OFFLINE_ENGINE = 'offline';

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
  ['ATTEMPTS', (part) => String(part.attempts)],
  ['REPAIRS', (part) => String(part.repairs)],
  ['FINDINGS', (part) => findingCounts(part.findings)],
];

/** The definition (once written), then the documents in the order they were stored. */
function partsOf(provenance: Provenance): PartProvenance[] {
  return [...(provenance.definition ? [provenance.definition] : []), ...provenance.documents];
}

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
 * version, tokens, attempts, repairs, the gate's remaining findings by severity), the
 * totals, the findings themselves, and on the offline engine how to configure a model.
 *
 * @example
 * provenanceLines(await pgs.projects.provenance(id)).forEach((line) => console.log(line));
 */
export function provenanceLines(provenance: Provenance): string[] {
  const parts = partsOf(provenance);
  const head = `Project ${provenance.projectId}: ${provenance.status.replace('_', ' ')}`;
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
    `Total: ${plural(sum('tokensUsed'), 'token')}, ${plural(sum('attempts'), 'model call')}, ` +
      `${plural(sum('repairs'), 'repair')}; findings: ${findingCounts(left.map(({ finding }) => finding))}`,
  ];
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
 * `pgs provenance ID`: which engine wrote each part of a project, and what the gate found.
 *
 * @example
 * pgs provenance 7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21
 */
export const provenance: Command = {
  name: NAME,
  summary: 'Show which engine wrote each part of a project, and what the gate found',
  usage: 'pgs provenance ID [--json]',
  credential: 'api-key',
  help: `Reads how a project was generated (GET /projects/{id}/provenance), in any state: for
the definition and each document stored so far, the engine that wrote it (${OFFLINE_ENGINE}, PGS's
built-in engine that drafts from the idea by rules and templates with no AI model, or
provider:model, e.g. anthropic:claude-sonnet-4-5), the prompt version, the tokens, the
model calls (attempts: retries, fallbacks and repairs included), the repairs after the
quality gate, and the findings the gate still reports, counted by severity.

Arguments:
  ID                     the project id

Output: who wrote the project, a table (PART, ENGINE, PROMPT, TOKENS, ATTEMPTS,
REPAIRS, FINDINGS), the totals, then one line per remaining finding ("part [severity]
rule: message"). When every part was written by the offline engine, how to configure a
model: set PGS_MODELS on the server (PGS_TEST_MODELS for test keys), e.g.
PGS_MODELS=openai:gpt-4.1-mini with OPENAI_API_KEY. Exits 0 whatever the findings.
With --json, one line: the provenance as the API returns it ({"projectId","status",
"definition","documents"}).`,
  options: { ...API_OPTIONS },
  async run(ctx) {
    const projectId = ctx.positionals[0]?.trim();
    if (!projectId) throw new UsageError('missing the project ID', `pgs ${NAME}`);
    expectPositionals(ctx.positionals, 1, NAME);
    const data = await ctx.client().projects.provenance(projectId, { signal: ctx.io.signal });
    if (ctx.json) {
      ctx.print(JSON.stringify(data));
      return;
    }
    for (const line of provenanceLines(data)) ctx.print(line);
  },
};
