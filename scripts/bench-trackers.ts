/**
 * The `--trackers` group of `npm run bench` (issue 31, item 6): one project of 300 tasks (and
 * its 30 FR groups as parents) pushed to the GitHub fake through the real adapter (Octokit)
 * and the sync engine, with 10 % of writes answered 503 and one secondary rate-limit window
 * (Retry-After 60 s) midway; then a crash is simulated (every link lost) and the project synced
 * again, then once more unchanged. Prints calls, time and the waits the retry policy asked
 * for (never slept: the bench passes a sleep that only counts), and checks: duplicates 0,
 * every item mapped, nothing left failed.
 */
import { readSpec } from '../packages/server/src/trackers/drafts.ts';
import { githubAdapter } from '../packages/server/src/trackers/providers/github.ts';
import type { TrackerClient } from '../packages/server/src/trackers/providers/provider.ts';
import {
  type ItemLink,
  type LinkStore,
  runSync,
  type SyncOutcome,
} from '../packages/server/src/trackers/sync.ts';
import { startFakeGitHub } from '../packages/server/test/fakes/github.ts';

const TASKS = 300;
const GROUPS = 30;
const FAILURE_RATE = 0.1;
const PROJECT = '5e1f0c52-9d3a-4c61-8f7e-2b6a4d9c0e17';

/** A seeded generator (mulberry32): the same failures on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function spec() {
  const sections = Array.from({ length: GROUPS }, (_, g) => {
    const n = g + 1;
    return `### FR-${n} Feature ${n} (Must)\n\n**FR-${n}.1** WHEN a user asks for feature ${n} THE SYSTEM SHALL answer within 2 seconds.\n\n**FR-${n}.2** IF feature ${n} fails THEN THE SYSTEM SHALL say why.\n`;
  });
  return readSpec([
    {
      filename: 'PRODUCT_REQUIREMENTS.md',
      content: `# Product Requirements: Bench\n\n## Functional requirements\n\n${sections.join('\n')}`,
    },
  ]);
}

const tasks = Array.from({ length: TASKS }, (_, i) => {
  const fr = `FR-${(i % GROUPS) + 1}`;
  return {
    id: `T-${i + 1}`,
    title: `Task number ${i + 1}`,
    phase: `M${Math.floor(i / 50) + 1}`,
    requirements: [fr],
    criteria: [`${fr}.1`, `${fr}.2`],
    dependsOn: i % 3 === 0 || i === 0 ? [] : [`T-${i}`],
    files: [],
    status: 'todo' as const,
  };
});

export async function trackersBench(): Promise<void> {
  const fake = await startFakeGitHub({ maxPerPage: 100 });
  try {
    const client = githubAdapter.connect({
      baseUrl: fake.baseUrl,
      credentials: fake.credentials,
      target: fake.target,
      timeoutMs: 15_000,
    });
    const random = seeded(31);
    let writes = 0;
    let injected = 0;
    let limited = false;
    // 10 % of writes answered 503 on the wire, and one rate-limit window at the 200th write.
    const faulty = (name: 'create' | 'update' | 'setState') =>
      (async (...args: unknown[]) => {
        writes++;
        if (!limited && writes === 200) {
          limited = true;
          fake.rateLimit(3, 60);
        } else if (random() < FAILURE_RATE) {
          injected++;
          fake.failWrites(1, 503);
        }
        return (client[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      }) as never;
    const flaky: TrackerClient = {
      ...client,
      verify: client.verify.bind(client),
      findMarked: client.findMarked.bind(client),
      get: client.get.bind(client),
      create: faulty('create'),
      update: faulty('update'),
      setState: faulty('setState'),
    };
    const rows = new Map<string, ItemLink>();
    const links: LinkStore = {
      list: async () => [...rows.values()],
      save: async (link) => void rows.set(link.itemId, link),
    };
    let waitedMs = 0;
    let retries = 0;
    const run = async (label: string) => {
      const calls = fake.calls();
      const started = performance.now();
      const outcome: SyncOutcome = await runSync({
        projectId: PROJECT,
        revision: 1,
        scope: 'all',
        dryRun: false,
        tasks,
        spec: spec(),
        projectUrl: 'https://pgs.example.com/#/projects/bench',
        client: flaky,
        links,
        sleep: async (ms) => {
          waitedMs += ms;
          retries++;
        },
      });
      const ms = performance.now() - started;
      const counts = new Map<string, number>();
      for (const item of outcome.items) counts.set(item.action, (counts.get(item.action) ?? 0) + 1);
      console.log(
        `  ${label.padEnd(26)} ${outcome.status.padEnd(9)} ${[...counts].map(([a, n]) => `${n} ${a}`).join(', ')}; ` +
          `${fake.calls() - calls} calls in ${(ms / 1000).toFixed(1)} s`,
      );
      return outcome;
    };
    console.log(
      `\ntrackers: ${TASKS} tasks and ${GROUPS} FR parents to the GitHub fake (Octokit), 10 % of writes 503, one rate-limit window (3 answers, Retry-After 60 s)`,
    );
    const first = await run('first sync');
    const waitedFirst = waitedMs;
    const retriesFirst = retries;
    rows.clear();
    const recovered = await run('after losing every link');
    const again = await run('again, nothing changed');
    const issues = fake.issues();
    const markers = issues.map((i) => /item=((?:T|FR)-\d+)/.exec(i.body)?.[1] ?? '?');
    const duplicates = markers.length - new Set(markers).size;
    const mapped = [...rows.keys()].length;
    const failed = [first, recovered, again]
      .flatMap((o) => o.items)
      .filter((i) => i.action === 'failed');
    console.log(
      `  first sync: ${injected} writes answered 503 and 3 rate-limited, ${retriesFirst} retries, backoff asked ${(waitedFirst / 1000).toFixed(1)} s (not slept)`,
    );
    console.log(
      `  issues ${issues.length}, duplicates ${duplicates}, mapped ${mapped} of ${TASKS + GROUPS}, failed items ${failed.length}`,
    );
    if (duplicates !== 0 || mapped !== TASKS + GROUPS || issues.length !== TASKS + GROUPS) {
      throw new Error('trackers bench: duplicates or unmapped items');
    }
  } finally {
    await fake.close();
  }
}
