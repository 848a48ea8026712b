/**
 * `npm run bench -- --quality`: what the documents are worth, measured on the twelve ideas of
 * the reading benchmark (reading.ideas.ts, four per type) through the real server.
 *
 * 1. The offline engine (the embedded default): each idea twice, its type pinned and not, then
 *    each project's documents and `GET /projects/{id}/trace`. Capabilities kept in the
 *    functional requirements, type accuracy, long lines shared between projects of a type,
 *    findings by severity, trace coverage.
 * 2. A fake model (the kit's fake provider answering with the offline engine's answerPrompt),
 *    so the provider package and the prompts are on the path: trace coverage and findings.
 *
 * Options (environment): BENCH_QUALITY_PARALLEL (projects at once, default 4),
 * BENCH_QUALITY_TIMEOUT_S (the longest wait for one project, default 300), BENCH_QUALITY_DUMP (a
 * directory: each project's documents and trace are written under `<group>/<n>-<run>/` to read
 * what the figures come from).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProjectType } from '@pgs/contract';
import { type BenchmarkIdea, READING_IDEAS } from '@pgs/offline/testing';
import { documentRole } from '../packages/server/src/runs/trace/parse.ts';
import type { CoverageTotals, Finding } from '../packages/server/src/runs/trace/types.ts';
import { startFakeAi } from '../packages/server/test/helpers/fake-ai.ts';
import { answerPrompt } from '../packages/server/test/helpers/prompt-context.ts';
import { api, newKey, type Server, startServer, stop } from './bench-common.ts';
import {
  bySeverity,
  columns,
  kept,
  longLines,
  percent,
  requirementUnits,
  SEVERITY_ORDER,
  sharedShare,
} from './bench-quality-metrics.ts';

const PARALLEL = Number(process.env.BENCH_QUALITY_PARALLEL ?? 4);
const TIMEOUT_MS = Number(process.env.BENCH_QUALITY_TIMEOUT_S ?? 300) * 1000;
const TYPES: readonly ProjectType[] = ['web', 'mobile', 'mcp'];

/** One project of the benchmark: an idea, created with its type pinned or not. */
interface Run {
  /** 1-based position in READING_IDEAS. */
  n: number;
  entry: BenchmarkIdea;
  pinned: boolean;
  result: Completed | { status: 'failed'; reason: string };
}

interface Completed {
  status: 'completed';
  type: ProjectType;
  documents: { filename: string; content: string }[];
  trace: { coverage: { totals: CoverageTotals }; findings: Finding[] };
}

const completed = (run: Run): Completed | undefined =>
  run.result.status === 'completed' ? run.result : undefined;

/** Creates one project on a key of its own (so no per-key limit is reached) and reads it back. */
async function runProject(server: Server, run: Omit<Run, 'result'>): Promise<Run> {
  const started = performance.now();
  try {
    const own = { ...server, key: await newKey(server) };
    const created = await api(own, 'POST', '/api/v1/projects', {
      idea: run.entry.idea,
      ...(run.pinned ? { type: run.entry.type } : {}),
    });
    if (created.status !== 202) throw new Error(`create answered ${created.status}`);
    const id = JSON.parse(created.text).data.projectId as string;
    for (;;) {
      const res = await api(own, 'GET', `/api/v1/projects/${id}`);
      const data = JSON.parse(res.text).data;
      if (data?.status === 'completed') {
        const trace = await api(own, 'GET', `/api/v1/projects/${id}/trace`);
        if (trace.status !== 200) throw new Error(`trace answered ${trace.status}`);
        return {
          ...run,
          result: {
            status: 'completed',
            type: data.project.type,
            documents: data.project.documents,
            trace: JSON.parse(trace.text).data,
          },
        };
      }
      if (data?.status !== 'in_progress') {
        throw new Error(`project ${data?.status ?? res.status}: ${data?.error?.message ?? ''}`);
      }
      if (performance.now() - started > TIMEOUT_MS) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    return { ...run, result: { status: 'failed', reason: (error as Error).message } };
  }
}

/** Every idea, pinned then unpinned (or only pinned), `PARALLEL` projects at a time, in order. */
async function runAll(server: Server, modes: readonly boolean[]): Promise<Run[]> {
  const todo = modes.flatMap((pinned) =>
    READING_IDEAS.map((entry, i) => ({ n: i + 1, entry, pinned })),
  );
  const runs: Run[] = new Array(todo.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < todo.length; i = next++) runs[i] = await runProject(server, todo[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, todo.length) }, worker));
  return runs;
}

const label = (run: Run) => `${run.n}`;
const mode = (run: Run) => (run.pinned ? 'pinned' : 'unpinned');
const short = (idea: string) => (idea.length > 44 ? `${idea.slice(0, 43)}…` : idea);
const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
const ratio = (k: number, n: number) => `${k}/${n}`;
const failure = (run: Run) =>
  run.result.status === 'failed' ? `failed: ${run.result.reason}` : '';

function capabilitiesReport(runs: readonly Run[]): void {
  console.log(
    '\n  Capabilities kept: expected verb, object and qualifiers (as stems) in one unit of ' +
      'PRODUCT_REQUIREMENTS.md § Functional requirements (a ### group, or a list item, row or paragraph)',
  );
  let found = 0;
  let expected = 0;
  const rows = [
    ['#', 'type', 'idea', 'pinned', 'unpinned', 'missed (pinned; unpinned when it differs)'],
  ];
  for (const [i, entry] of READING_IDEAS.entries()) {
    const cells: string[] = [];
    const missed: string[] = [];
    for (const pinned of [true, false]) {
      const run = runs.find((r) => r.n === i + 1 && r.pinned === pinned);
      const doc =
        run && completed(run)?.documents.find((d) => documentRole(d.filename) === 'requirements');
      const units = doc ? requirementUnits(doc.content) : undefined;
      const miss = entry.capabilities.filter((capability) => !units || !kept(capability, units));
      expected += entry.capabilities.length;
      found += entry.capabilities.length - miss.length;
      const why =
        !run || !completed(run)
          ? 'failed'
          : !doc
            ? 'no requirements'
            : !units
              ? 'no FR section'
              : '';
      cells.push(why || ratio(entry.capabilities.length - miss.length, entry.capabilities.length));
      missed.push(
        miss
          .map((c) => [[c.verb].flat()[0], c.object, ...(c.qualifiers ?? [])].join(' '))
          .join(', ') || '—',
      );
    }
    const same = missed[0] === missed[1];
    rows.push([
      `${i + 1}`,
      entry.type,
      short(entry.idea),
      cells[0]!,
      cells[1]!,
      same ? missed[0]! : missed.join('; '),
    ]);
  }
  console.log(columns(rows));
  const share = expected === 0 ? 0 : found / expected;
  console.log(
    `  aim ≥ 90 % kept: ${percent(share)} (${found} of ${expected} over ${runs.length} projects): ${verdict(share >= 0.9)}`,
  );
}

function typeReport(runs: readonly Run[]): void {
  console.log('\n  Type accuracy (type not pinned: the type the server inferred)');
  const rows = [['#', 'expected', 'inferred', 'right']];
  let right = 0;
  for (const run of runs.filter((r) => !r.pinned)) {
    const type = completed(run)?.type;
    if (type === run.entry.type) right += 1;
    rows.push([
      label(run),
      run.entry.type,
      type ?? failure(run),
      type === run.entry.type ? 'yes' : 'no',
    ]);
  }
  console.log(columns(rows));
  console.log(`  aim ≥ 11 of 12 right: ${right} of 12: ${verdict(right >= 11)}`);
}

function sharedLinesReport(runs: readonly Run[]): void {
  console.log(
    '\n  Shared long lines (pinned runs): share of a project’s lines of 40+ characters (trimmed, ' +
      'table separators out) found verbatim in another idea’s project of the same type',
  );
  const pinned = runs.filter((r) => r.pinned && completed(r));
  const lines = new Map(
    pinned.map((r) => [r, longLines(completed(r)!.documents.map((d) => d.content))]),
  );
  const sets = new Map(pinned.map((r) => [r, new Set(lines.get(r))]));
  const rows = [['type', 'projects', 'long lines (each)', 'shared (each)', 'mean', 'max']];
  let worst = 0;
  for (const type of TYPES) {
    const mine = pinned.filter((r) => r.entry.type === type);
    const shares = mine.map((r) =>
      sharedShare(
        lines.get(r)!,
        mine.filter((other) => other !== r).map((other) => sets.get(other)!),
      ),
    );
    const max = Math.max(0, ...shares);
    worst = Math.max(worst, max);
    rows.push([
      type,
      mine.map(label).join(' '),
      mine.map((r) => `${lines.get(r)!.length}`).join(' '),
      shares.map(percent).join(' '),
      percent(shares.reduce((a, b) => a + b, 0) / Math.max(1, shares.length)),
      percent(max),
    ]);
  }
  console.log(columns(rows));
  const missing = runs.filter((r) => r.pinned).length - pinned.length;
  console.log(
    `  aim ≤ 25 % for every project: worst ${percent(worst)}${missing ? ` (${missing} failed, not counted)` : ''}: ${verdict(worst <= 0.25 && missing === 0)}`,
  );
}

function findingsReport(runs: readonly Run[]): void {
  console.log('\n  Trace findings by severity (GET /projects/{id}/trace)');
  const rows = [['#', 'run', ...SEVERITY_ORDER]];
  const total = bySeverity([]);
  const rules = new Map<string, number>();
  for (const run of runs) {
    const findings = completed(run)?.trace.findings;
    if (!findings) {
      rows.push([label(run), mode(run), failure(run)]);
      continue;
    }
    const counts = bySeverity(findings);
    for (const severity of SEVERITY_ORDER) total[severity] += counts[severity];
    for (const f of findings) rules.set(f.rule, (rules.get(f.rule) ?? 0) + 1);
    rows.push([label(run), mode(run), ...SEVERITY_ORDER.map((s) => `${counts[s]}`)]);
  }
  rows.push(['all', `${runs.length}`, ...SEVERITY_ORDER.map((s) => `${total[s]}`)]);
  console.log(columns(rows));
  console.log(
    `  by rule: ${
      [...rules]
        .sort((a, b) => b[1] - a[1])
        .map(([rule, n]) => `${rule} ${n}`)
        .join(', ') || 'none'
    }`,
  );
  const failed = runs.filter((r) => !completed(r)).length;
  console.log(
    `  aim no critical: ${total.critical} critical${failed ? `, ${failed} projects failed` : ''}: ${verdict(total.critical === 0 && failed === 0)}`,
  );
}

const COVERAGE = [
  ['FR→criterion', 'withCriterion', 'frs'],
  ['FR→component', 'withComponent', 'frs'],
  ['FR→task', 'withTask', 'frs'],
  ['Must→story', 'mustsWithStory', 'musts'],
] as const;

function coverageReport(runs: readonly Run[]): void {
  console.log(
    '\n  Trace coverage (coverage.totals): FRs with a criterion, a component, a task; Musts with a story',
  );
  const rows = [['#', 'run', 'FRs', ...COVERAGE.map(([name]) => name)]];
  const sums = COVERAGE.map(() => ({ k: 0, n: 0 }));
  let whole = 0;
  for (const run of runs) {
    const totals = completed(run)?.trace.coverage.totals;
    if (!totals) {
      rows.push([label(run), mode(run), failure(run)]);
      continue;
    }
    COVERAGE.forEach(([, k, n], i) => {
      sums[i]!.k += totals[k];
      sums[i]!.n += totals[n];
    });
    if (totals.frs > 0 && COVERAGE.every(([, k, n]) => totals[k] === totals[n])) whole += 1;
    rows.push([
      label(run),
      mode(run),
      `${totals.frs}`,
      ...COVERAGE.map(([, k, n]) => ratio(totals[k], totals[n])),
    ]);
  }
  console.log(columns(rows));
  console.log(
    `  aim 100 %: ${COVERAGE.map(([name], i) => `${name} ${percent(sums[i]!.k / Math.max(1, sums[i]!.n))}`).join(', ')}; ` +
      `${whole} of ${runs.length} projects covered on all four: ${verdict(whole === runs.length)}`,
  );
}

/** With BENCH_QUALITY_DUMP, writes each project's documents and trace to read them. */
async function dump(group: string, runs: readonly Run[]): Promise<void> {
  const root = process.env.BENCH_QUALITY_DUMP;
  if (!root) return;
  for (const run of runs) {
    const result = completed(run);
    if (!result) continue;
    const dir = path.join(root, group, `${run.n}-${mode(run)}`);
    await mkdir(dir, { recursive: true });
    for (const doc of result.documents) {
      await writeFile(path.join(dir, path.basename(doc.filename)), doc.content);
    }
    await writeFile(path.join(dir, 'trace.json'), JSON.stringify(result.trace, null, 2));
  }
}

/** Starts a server on a data directory of its own, runs the ideas, stops it. */
async function withServer(
  env: Record<string, string>,
  modes: readonly boolean[],
): Promise<{ runs: Run[]; seconds: number }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-quality-'));
  let server: Server | undefined;
  try {
    // A server that does not start (an engine mid-rewrite) still leaves no data behind.
    server = await startServer(dataDir, { PGS_STATUS_RATE_LIMIT: '10000000', ...env });
    const started = performance.now();
    const runs = await runAll(server, modes);
    return { runs, seconds: (performance.now() - started) / 1000 };
  } finally {
    if (server) await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** Runs the quality group: the offline engine, then a fake model; prints what it measured. */
export async function qualityBench(): Promise<void> {
  console.log(
    `PGS bench --quality ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}, ` +
      `${os.cpus().length} cores (load average ${loadAverage()}); ${READING_IDEAS.length} ideas of reading.ideas.ts, ${PARALLEL} projects at a time`,
  );
  const offline = await withServer({}, [true, false]);
  console.log(
    `\nquality through the offline engine (embedded default): ${offline.runs.length} projects ` +
      `(each idea with its type pinned, then not) in ${offline.seconds.toFixed(1)} s`,
  );
  await dump('offline', offline.runs);
  capabilitiesReport(offline.runs);
  typeReport(offline.runs);
  sharedLinesReport(offline.runs);
  findingsReport(offline.runs);
  coverageReport(offline.runs);

  const fake = await startFakeAi((call) => {
    const answer = answerPrompt(call.prompt);
    return call.schema === undefined
      ? { kind: 'text', text: answer }
      : { kind: 'json', value: JSON.parse(answer) };
  });
  try {
    const viaModel = await withServer(
      { PGS_TEST_MODELS: 'openai-compatible:bench', PGS_OPENAI_COMPATIBLE_BASE_URL: fake.baseURL },
      [true, false],
    );
    console.log(
      `\nquality through a fake model (Chat Completions on loopback, answering with the offline engine; ` +
        `the provider package and the prompts on the path): ${viaModel.runs.length} projects (each idea with its type pinned, then not), ` +
        `${fake.calls.length} calls, in ${viaModel.seconds.toFixed(1)} s`,
    );
    console.log('  Real models: not measured; no model provider can be reached from this machine.');
    await dump('fake-model', viaModel.runs);
    coverageReport(viaModel.runs);
    findingsReport(viaModel.runs);
  } finally {
    await fake.close();
  }
  console.log(`\nload average after: ${loadAverage()}`);
}
