/**
 * `npm run bench -- --grounded`: what a grounded project's documents say about the codebase
 * it changes (issue 20, docs/brownfield.md). The three test repositories are written to disk,
 * made into digests by the SDK's builder (`.gitignore`, secret files, redaction, ranking),
 * sent with an idea to the real server on the offline engine, and the documents read back:
 *
 * - the stack named in the architecture's technology choices, and technologies named that the
 *   repository does not use (invented);
 * - component paths in "Current system", routes and tables in the codebase overview;
 * - requirement groups written as changes (a Today and a Change line);
 * - tasks that implement a requirement naming files, and the share of files named that exist
 *   in the repository or are marked new;
 * - planted secrets found in what the builder sent, in the documents or in provenance;
 * - the builder's time and the digest's size and tokens;
 * - the trace: FRs reaching a criterion, a component and a task, and findings.
 *
 * Options (environment): BENCH_GROUNDED_DUMP (a directory: each project's documents are
 * written under it to read what the figures come from).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPOSITORY_LIMITS, redactSecrets } from '@pgs/contract/repository';
import {
  EXPRESS_POSTGRES,
  GO_CHI,
  naiveDigest,
  PYTHON_FASTAPI,
  TEST_REPOSITORIES,
  type TestRepository,
} from '@pgs/contract/testing/repositories';
import { readRepository as readCodebase } from '@pgs/offline';
import { buildRepositoryDigest } from '@pgs/repository';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countLinear } from '../packages/server/src/models/tokens.ts';
import { api, newKey, type Server, startServer, stop } from './bench-common.ts';

const CASES: readonly { repository: TestRepository; idea: string }[] = [
  { repository: EXPRESS_POSTGRES, idea: 'Add SMS reminders two days before each appointment' },
  { repository: PYTHON_FASTAPI, idea: 'Add monthly reminders by email for unpaid invoices' },
  { repository: GO_CHI, idea: 'Add speed alerts for vehicles that drive too fast' },
];

/** Technologies none of the test repositories uses: naming one is invention. */
const FOREIGN = ['Fastify', 'Drizzle', 'React', 'Next.js', 'MongoDB', 'Django', 'Flask', 'Kotlin'];
const LANGUAGES = ['Node.js', 'TypeScript', 'Python', 'Go'];

interface Measured {
  name: string;
  buildMs: number;
  files: number;
  bytes: number;
  tokens: number;
  redactions: number;
  stack: [number, number];
  foreign: string[];
  components: [number, number];
  routes: [number, number];
  entities: [number, number];
  changes: [number, number];
  tasksWithFiles: [number, number];
  filesReal: [number, number];
  leaks: number;
  /** FRs reaching a criterion, a component and a task (trace coverage), of all FRs. */
  traced: [number, number];
  /** Trace findings: critical, then all. */
  findings: [number, number];
}

const section = (markdown: string, title: string) => {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) return '';
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
};
const count = (items: readonly string[], text: string): [number, number] => [
  items.filter((item) => text.includes(item)).length,
  items.length,
];

async function writeRepository(dir: string, repository: TestRepository): Promise<void> {
  for (const [file, content] of Object.entries(repository.files)) {
    await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
}

async function measure(server: Server, work: string, c: (typeof CASES)[number]): Promise<Measured> {
  const { repository, idea } = c;
  const dir = path.join(work, repository.name);
  await writeRepository(dir, repository);
  const started = performance.now();
  const { repository: digest, report } = await buildRepositoryDigest(dir, { countTokens });
  const buildMs = performance.now() - started;
  const sent = JSON.stringify(digest);
  const own = { ...server, key: await newKey(server) };
  const created = await api(own, 'POST', '/api/v1/projects', {
    idea,
    context: { repository: digest },
  });
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${created.text}`);
  const id = JSON.parse(created.text).data.projectId as string;
  const done = await api(own, 'GET', `/api/v1/projects/${id}`, undefined, { prefer: 'wait=60' });
  let data = JSON.parse(done.text).data;
  for (let i = 0; data.status === 'in_progress' && i < 10; i++) {
    data = JSON.parse(
      (await api(own, 'GET', `/api/v1/projects/${id}`, undefined, { prefer: 'wait=60' })).text,
    ).data;
  }
  if (data.status !== 'completed') throw new Error(`${repository.name}: project ${data.status}`);
  const docs = new Map<string, string>(
    data.project.documents.map((d: { filename: string; content: string }) => [
      d.filename,
      d.content,
    ]),
  );
  const provenance = (await api(own, 'GET', `/api/v1/projects/${id}/provenance`)).text;
  const trace = JSON.parse((await api(own, 'GET', `/api/v1/projects/${id}/trace`)).text).data as {
    coverage: {
      totals: { frs: number; withCriterion: number; withComponent: number; withTask: number };
    };
    findings: { severity: string }[];
  };
  const totals = trace.coverage.totals;
  if (process.env.BENCH_GROUNDED_DUMP) {
    const out = path.join(process.env.BENCH_GROUNDED_DUMP, repository.name);
    await mkdir(out, { recursive: true });
    for (const [file, content] of docs) await writeFile(path.join(out, file), content);
  }
  const architecture = docs.get('ARCHITECTURE.md') ?? '';
  const overview = docs.get('CODEBASE_OVERVIEW.md') ?? '';
  const choices = section(architecture, 'Technology choices');
  const groups = section(docs.get('PRODUCT_REQUIREMENTS.md') ?? '', 'Functional requirements')
    .split('\n### ')
    .slice(1);
  const rows = section(docs.get('IMPLEMENTATION_PLAN.md') ?? '', 'Tasks')
    .split('\n')
    .filter((line) => /^\| T-\d+ \|/.test(line))
    .map((line) => line.split(' | '))
    .filter((cells) => /(?:^|[^N])FR-\d/.test(cells[2] ?? ''));
  const paths = new Set(Object.keys(repository.files));
  const folders = new Set([...paths].map((p) => p.slice(0, p.lastIndexOf('/'))));
  const named = rows.flatMap((cells) =>
    (cells[3] ?? '').includes('(new)') ? [] : [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)],
  );
  const everything = [sent, provenance, ...docs.values()].join('\n');
  const languages = new Set(repository.expected.stack);
  return {
    name: repository.name,
    buildMs,
    files: digest.files.length,
    bytes: report.totalBytes,
    tokens: report.tokens,
    redactions: report.redactions,
    stack: count(repository.expected.stack, choices),
    foreign: [...FOREIGN, ...LANGUAGES.filter((l) => !languages.has(l))].filter((t) =>
      new RegExp(`(?:^|[^\\w.])${t.replace('.', '\\.')}(?![\\w])`).test(choices),
    ),
    components: count(
      repository.expected.componentPaths.map((p) => `\`${p}\``),
      section(architecture, 'Current system'),
    ),
    routes: count(
      repository.expected.routes.map((r) => {
        const [method, route] = r.split(' ');
        return `| ${method} | \`${route}\``;
      }),
      overview,
    ),
    entities: count(repository.expected.entities, section(overview, 'Data model')),
    changes: [
      groups.filter((g) => g.includes('**Today:**') && g.includes('**Change:**')).length,
      groups.length,
    ],
    tasksWithFiles: [rows.filter((cells) => (cells[3] ?? '—') !== '—').length, rows.length],
    filesReal: [named.filter((m) => paths.has(m[1]!) || folders.has(m[1]!)).length, named.length],
    leaks: repository.secrets.filter((secret) => everything.includes(secret)).length,
    traced: [Math.min(totals.withCriterion, totals.withComponent, totals.withTask), totals.frs],
    findings: [
      trace.findings.filter((f) => f.severity === 'critical').length,
      trace.findings.length,
    ],
  };
}

const pair = ([k, n]: [number, number]) => `${k}/${n}`;

/** The median of `runs` timings of `work`, in ms. */
function median(runs: number, work: () => unknown): number {
  const times = Array.from({ length: runs }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  }).sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

/**
 * The server's own costs for a digest at the contract's limits (1,000 files, 1 MiB): the
 * offline reader, the second redaction pass, and counting the tokens of a file that is one
 * run without a break (which a quadratic counter would take a minute over).
 */
async function serverCosts(): Promise<void> {
  const base = TEST_REPOSITORIES.flatMap((r) => naiveDigest(r).files).filter((f) => f.content);
  const files: { path: string; content: string }[] = [];
  for (let i = 0; files.length < REPOSITORY_LIMITS.maxFiles; i++)
    for (const f of base.slice(0, REPOSITORY_LIMITS.maxFiles - files.length))
      files.push({
        path: `svc${i}/${f.path}`,
        content: f.content.repeat(Math.ceil(1040 / f.content.length)).slice(0, 1040),
      });
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const read = median(5, () => readCodebase({ name: 'big', commit: null, files }));
  const redactTimes: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    for (const f of files) await redactSecrets(f.path, f.content);
    redactTimes.push(performance.now() - started);
  }
  redactTimes.sort((a, b) => a - b);
  const unbroken = 'é'.repeat(REPOSITORY_LIMITS.maxFileBytes / 2);
  const count = median(3, () => countLinear(unbroken));
  console.log(
    `\n  A digest at the limits (${files.length} files, ${bytes} bytes): read by the offline engine in ${read.toFixed(0)} ms, redacted by the server in ${redactTimes[1]!.toFixed(0)} ms (medians); the tokens of a ${REPOSITORY_LIMITS.maxFileBytes}-byte file without a break counted in ${count.toFixed(0)} ms.`,
  );
}

export async function groundedBench(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'pgs-bench-grounded-'));
  const server = await startServer(path.join(work, 'data'), {});
  try {
    console.log(
      `PGS grounded bench ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}: three test repositories through the SDK's digest builder and the offline engine`,
    );
    const results: Measured[] = [];
    for (const c of CASES) results.push(await measure(server, work, c));
    const rows = [
      [
        'repository',
        'digest (files, bytes, tokens, ms)',
        'redacted',
        'stack named',
        'invented',
        'components',
        'routes',
        'tables',
        'FRs as changes',
        'tasks naming files',
        'files named that exist',
        'secrets leaked',
        'FRs traced',
        'findings (critical/all)',
      ],
      ...results.map((r) => [
        r.name,
        `${r.files}, ${r.bytes}, ${r.tokens}, ${r.buildMs.toFixed(0)}`,
        String(r.redactions),
        pair(r.stack),
        r.foreign.join(', ') || 'none',
        pair(r.components),
        pair(r.routes),
        pair(r.entities),
        pair(r.changes),
        pair(r.tasksWithFiles),
        pair(r.filesReal),
        String(r.leaks),
        pair(r.traced),
        `${r.findings[0]}/${r.findings[1]}`,
      ]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    for (const row of rows)
      console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`);
    const sum = (pick: (r: Measured) => [number, number]) =>
      results.reduce<[number, number]>(
        (acc, r) => [acc[0] + pick(r)[0], acc[1] + pick(r)[1]],
        [0, 0],
      );
    const share = ([k, n]: [number, number]) =>
      n === 0 ? 'n/a' : `${((100 * k) / n).toFixed(0)} %`;
    await serverCosts();
    console.log(
      `\n  Stack named ${share(sum((r) => r.stack))}, components ${share(sum((r) => r.components))}, routes ${share(sum((r) => r.routes))}, tables ${share(sum((r) => r.entities))}; FRs as changes ${share(sum((r) => r.changes))}; tasks naming files ${share(sum((r) => r.tasksWithFiles))}, of which existing or marked new ${share(sum((r) => r.filesReal))}; technologies invented ${results.reduce((n, r) => n + r.foreign.length, 0)}; secrets leaked ${results.reduce((n, r) => n + r.leaks, 0)}; FRs traced to a criterion, a component and a task ${share(sum((r) => r.traced))}; critical trace findings ${results.reduce((n, r) => n + r.findings[0], 0)}.`,
    );
  } finally {
    await stop(server.child);
    await rm(work, { recursive: true, force: true });
  }
}
