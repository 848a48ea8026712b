/**
 * `npm run bench -- --cost`: what a project costs in tokens and dollars, and how much of its
 * input a provider's prompt cache serves (issue 21). The real server generates one project per
 * type (a fixed idea each, type pinned) against the fake provider in its prompt-cache mode
 * (test/helpers/fake-ai-cache.ts: OpenAI's automatic prefix cache, Anthropic's breakpoints),
 * answering with the offline engine's writing so the documents, and so the prompts that carry
 * them, are realistic. Once through OpenAI's Responses API (`openai:gpt-4.1-mini`), once through
 * Anthropic's Messages API (`anthropic:claude-sonnet-4-5`).
 *
 * Every figure is summed from what the fake itself reported per call (`call.reported`), never
 * from the server's own accounting. Projects run one after the other and the fake is reset
 * before each (calls and cache), so a project's calls are exactly those between two resets, and
 * each project starts from a cold cache, as the first project of its kind on a server would.
 * Cost: the default prices (models/prices.ts) of the model.
 *
 * `--record-baseline` writes the figures to scripts/bench-cost-baseline.json; when that file
 * exists, later runs print before, after and the change next to each other.
 *
 * Options (environment): BENCH_COST_TIMEOUT_S (the longest wait for one project, default 300),
 * BENCH_COST_COMMIT (the commit named in a recorded baseline; default `git rev-parse HEAD`),
 * BENCH_COST_DETAIL (`brief`, `standard` or `deep`: the projects' detail level; default
 * standard, what the baseline was recorded at).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProjectType } from '@pgs/contract';
import { costUsd, DEFAULT_PRICES, priceOf } from '../packages/server/src/models/prices.ts';
import {
  type FakeAi,
  type FakeAiCall,
  startFakeAi,
} from '../packages/server/test/helpers/fake-ai.ts';
import { answerPrompt } from '../packages/server/test/helpers/prompt-context.ts';
import { api, newKey, root, type Server, startServer, stop } from './bench-common.ts';

const TIMEOUT_MS = Number(process.env.BENCH_COST_TIMEOUT_S ?? 300) * 1000;
const DETAIL = process.env.BENCH_COST_DETAIL ?? 'standard';
if (!['brief', 'standard', 'deep'].includes(DETAIL)) {
  throw new Error(`BENCH_COST_DETAIL must be brief, standard or deep, not ${DETAIL}`);
}
const BASELINE = path.join(root, 'scripts', 'bench-cost-baseline.json');

/** One fixed idea per type (the first of each type in reading.ideas.ts), its type pinned. */
const IDEAS: Readonly<Record<ProjectType, string>> = {
  web: 'A tool for small veterinary clinics to schedule appointments, send vaccine reminders by SMS, and keep pet medical records',
  mobile:
    'An iPhone app for runners to follow a 16-week marathon plan, log runs offline, and share progress with a coach',
  mcp: 'A read-only MCP server that lets Claude query our Postgres analytics warehouse and summarise weekly revenue by region',
};
const TYPES = Object.keys(IDEAS) as ProjectType[];

/** The providers measured: the engine and the server's environment pointing it at the fake. */
const PROVIDERS: readonly { engine: string; env(fake: FakeAi): Record<string, string> }[] = [
  {
    engine: 'openai:gpt-4.1-mini',
    env: (fake) => ({ OPENAI_API_KEY: 'sk-bench-fake', OPENAI_BASE_URL: fake.baseURL }),
  },
  {
    engine: 'anthropic:claude-sonnet-4-5',
    env: (fake) => ({ ANTHROPIC_API_KEY: 'sk-ant-bench-fake', ANTHROPIC_BASE_URL: fake.baseURL }),
  },
];

/** One project's figures, summed over its calls as the fake reported them. */
export interface Figures {
  requests: number;
  promptChars: number;
  /** All input tokens, cached and written ones included. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** The file `--record-baseline` writes: figures by engine, then by type. */
interface Baseline {
  commit: string;
  recordedAt: string;
  figures: Record<string, Partial<Record<ProjectType, Figures>>>;
}

/** Sums a project's calls; every call must have been answered with usage. */
function figuresOf(engine: string, calls: readonly FakeAiCall[]): Figures {
  const unanswered = calls.filter((call) => call.reported === undefined).length;
  if (unanswered > 0) throw new Error(`${unanswered} calls were answered without usage`);
  const sum = (pick: (call: FakeAiCall) => number) =>
    calls.reduce((total, call) => total + pick(call), 0);
  const figures = {
    requests: calls.length,
    promptChars: sum((call) => call.prompt.length),
    inputTokens: sum((call) => call.reported!.input),
    cacheReadTokens: sum((call) => call.reported!.cacheRead),
    cacheWriteTokens: sum((call) => call.reported!.cacheWrite),
    outputTokens: sum((call) => call.reported!.output),
  };
  const price = priceOf(DEFAULT_PRICES, engine);
  if (price === undefined) throw new Error(`no default price for ${engine}`);
  const cost = costUsd(price, {
    inputTokens: figures.inputTokens,
    cachedInputTokens: figures.cacheReadTokens,
    cacheWriteTokens: figures.cacheWriteTokens,
    outputTokens: figures.outputTokens,
  });
  return { ...figures, costUsd: cost };
}

/** Creates a project of `type` and waits for it to complete. */
async function generate(server: Server, type: ProjectType): Promise<string> {
  const created = await api(server, 'POST', '/api/v1/projects', {
    idea: IDEAS[type],
    type,
    detail: DETAIL,
  });
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${created.text}`);
  const id = JSON.parse(created.text).data.projectId as string;
  const started = performance.now();
  for (;;) {
    const res = await api(server, 'GET', `/api/v1/projects/${id}`);
    const data = JSON.parse(res.text).data;
    if (data?.status === 'completed') return id;
    if (data?.status !== 'in_progress') {
      throw new Error(
        `${type} project ${data?.status ?? res.status}: ${data?.error?.message ?? ''}`,
      );
    }
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${type} project timed out`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One server on the engine, one project per type; each project's calls summed. */
async function measureEngine(
  fake: FakeAi,
  engine: string,
  env: Record<string, string>,
): Promise<Record<ProjectType, Figures>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-cost-'));
  let server: Server | undefined;
  try {
    server = await startServer(dataDir, {
      PGS_STATUS_RATE_LIMIT: '10000000',
      PGS_TEST_MODELS: engine,
      ...env,
    });
    server.key = await newKey(server);
    const figures = {} as Record<ProjectType, Figures>;
    for (const type of TYPES) {
      fake.reset();
      await generate(server, type);
      const calls = [...fake.calls];
      // Grouped by order: the project ran alone since the reset. A cache key, when the server
      // sends one, must then be one per project.
      const keys = new Set(calls.map((call) => call.body.prompt_cache_key).filter(Boolean));
      if (keys.size > 1) console.log(`  note: ${type} sent ${keys.size} prompt_cache_key values`);
      figures[type] = figuresOf(engine, calls);
    }
    return figures;
  } finally {
    if (server) await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const count = (n: number) => n.toLocaleString('en-US');
const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const pct = (s: number) => `${(s * 100).toFixed(1)} %`;
const usd = (n: number) => `$${n.toFixed(4)}`;
const change = (before: number, after: number) =>
  before === 0
    ? '—'
    : `${after >= before ? '+' : ''}${(((after - before) / before) * 100).toFixed(1)} %`;
const points = (before: number, after: number) =>
  `${after >= before ? '+' : ''}${((after - before) * 100).toFixed(1)} pp`;

/** Rows as aligned columns: the first left-aligned, the others right-aligned. */
function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row) =>
      `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd(),
    )
    .join('\n');
}

function total(figures: readonly Figures[]): Figures {
  const sum = (key: keyof Figures) => figures.reduce((n, f) => n + f[key], 0);
  return {
    requests: sum('requests'),
    promptChars: sum('promptChars'),
    inputTokens: sum('inputTokens'),
    cacheReadTokens: sum('cacheReadTokens'),
    cacheWriteTokens: sum('cacheWriteTokens'),
    outputTokens: sum('outputTokens'),
    costUsd: Math.round(sum('costUsd') * 1e6) / 1e6,
  };
}

function measuredTable(figures: Record<ProjectType, Figures>): string {
  const rows = [
    [
      'type',
      'requests',
      'prompt chars',
      'input tokens',
      'cache reads',
      'served',
      'cache writes',
      'output tokens',
      'cost',
    ],
  ];
  const all = [
    ...TYPES.map((type) => [type, figures[type]] as const),
    ['all', total(TYPES.map((t) => figures[t]))] as const,
  ];
  for (const [type, f] of all) {
    rows.push([
      type,
      count(f.requests),
      count(f.promptChars),
      count(f.inputTokens),
      count(f.cacheReadTokens),
      pct(share(f.cacheReadTokens, f.inputTokens)),
      count(f.cacheWriteTokens),
      count(f.outputTokens),
      usd(f.costUsd),
    ]);
  }
  return table(rows);
}

function comparisonTable(
  before: Partial<Record<ProjectType, Figures>>,
  after: Record<ProjectType, Figures>,
): string {
  const rows = [
    [
      'type',
      'requests',
      'input before',
      'input after',
      'change',
      'served before',
      'served after',
      'change',
      'cost before',
      'cost after',
      'change',
    ],
  ];
  const known = TYPES.filter((type) => before[type] !== undefined);
  const pairs = [
    ...known.map((type) => [type, before[type]!, after[type]] as const),
    ['all', total(known.map((t) => before[t]!)), total(known.map((t) => after[t]))] as const,
  ];
  for (const [type, b, a] of pairs) {
    const [sb, sa] = [
      share(b.cacheReadTokens, b.inputTokens),
      share(a.cacheReadTokens, a.inputTokens),
    ];
    rows.push([
      type,
      `${b.requests} → ${a.requests}`,
      count(b.inputTokens),
      count(a.inputTokens),
      change(b.inputTokens, a.inputTokens),
      pct(sb),
      pct(sa),
      points(sb, sa),
      usd(b.costUsd),
      usd(a.costUsd),
      change(b.costUsd, a.costUsd),
    ]);
  }
  return table(rows);
}

function commit(): string {
  if (process.env.BENCH_COST_COMMIT) return process.env.BENCH_COST_COMMIT;
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })
      .toString()
      .trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--', 'packages/server/src'], {
      cwd: root,
    })
      .toString()
      .trim();
    return changed ? `${head} with uncommitted changes under packages/server/src` : head;
  } catch {
    return 'unknown';
  }
}

async function readBaseline(): Promise<Baseline | undefined> {
  try {
    return JSON.parse(await readFile(BASELINE, 'utf8')) as Baseline;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${path.relative(root, BASELINE)} cannot be read: ${(error as Error).message}`);
  }
}

/** Runs the cost group: both engines, every type; prints the tables (and the baseline's). */
export async function costBench(): Promise<void> {
  const record = process.argv.includes('--record-baseline');
  const baseline = record ? undefined : await readBaseline();
  const label = commit();
  console.log(
    `PGS bench --cost ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node} (${label}): ` +
      `one ${DETAIL} project per type against the fake provider in prompt-cache mode, answering with the offline engine`,
  );
  const fake = await startFakeAi(
    (call) => {
      const answer = answerPrompt(call.prompt);
      return call.schema === undefined
        ? { kind: 'text', text: answer }
        : { kind: 'json', value: JSON.parse(answer) };
    },
    { promptCache: true },
  );
  const measured: Baseline['figures'] = {};
  try {
    for (const { engine, env } of PROVIDERS) {
      const figures = await measureEngine(fake, engine, env(fake));
      measured[engine] = figures;
      const price = priceOf(DEFAULT_PRICES, engine)!;
      console.log(
        `\n${engine} (USD per million tokens: input ${price.input}, cached ${price.cachedInput}, ` +
          `cache write ${price.cacheWrite ?? price.input}, output ${price.output}); served = cache reads ÷ input tokens`,
      );
      console.log(measuredTable(figures));
      const before = baseline?.figures[engine];
      if (baseline && before) {
        console.log(
          `\n  against the baseline of ${baseline.commit} (recorded ${baseline.recordedAt}):`,
        );
        console.log(comparisonTable(before, figures));
      }
    }
  } finally {
    await fake.close();
  }
  if (record) {
    const file: Baseline = {
      commit: label,
      recordedAt: new Date().toISOString().slice(0, 10),
      figures: measured,
    };
    await writeFile(BASELINE, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\nbaseline recorded in ${path.relative(root, BASELINE)}`);
  } else if (!baseline) {
    console.log('\nno baseline: `npm run bench -- --cost --record-baseline` records one');
  }
}
