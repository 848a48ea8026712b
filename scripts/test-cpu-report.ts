import { readFileSync } from 'node:fs';

/**
 * Sums up a PGS_TEST_CPU record (scripts/test-cpu-probe.ts): each file's CPU, its own and
 * its children's, heaviest first, and the totals per package and project.
 * Usage: node scripts/test-cpu-report.ts <record.jsonl> [top=40]
 */
interface Line {
  file: string;
  pid: number;
  ownMs: number;
  childrenMs: number;
  at: number;
}

const [path, topArg] = process.argv.slice(2);
if (!path) {
  process.stderr.write('usage: node scripts/test-cpu-report.ts <record.jsonl> [top]\n');
  process.exit(2);
}
const lines: Line[] = readFileSync(path, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Line)
  .sort((a, b) => a.at - b.at);

// A worker shared by several files (the unit project) reports running totals: a file's own
// share is the difference from the previous file in the same process.
const last = new Map<number, { own: number; children: number }>();
const files = lines.map((l) => {
  const before = last.get(l.pid) ?? { own: 0, children: 0 };
  last.set(l.pid, { own: l.ownMs, children: l.childrenMs });
  return { file: l.file, own: l.ownMs - before.own, children: l.childrenMs - before.children };
});
files.sort((a, b) => b.own + b.children - (a.own + a.children));

const s = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
const top = Number(topArg ?? 40);
process.stdout.write(`${'total'.padStart(7)} ${'own'.padStart(7)} ${'child'.padStart(7)}  file\n`);
for (const f of files.slice(0, top)) {
  process.stdout.write(`${s(f.own + f.children)} ${s(f.own)} ${s(f.children)}  ${f.file}\n`);
}
const groups = new Map<string, { own: number; children: number; count: number }>();
for (const f of files) {
  const key = f.file.split('/').slice(0, 3).join('/');
  const g = groups.get(key) ?? { own: 0, children: 0, count: 0 };
  g.own += f.own;
  g.children += f.children;
  g.count++;
  groups.set(key, g);
}
process.stdout.write('\nper package and project\n');
for (const [key, g] of [...groups].sort(
  (a, b) => b[1].own + b[1].children - (a[1].own + a[1].children),
)) {
  process.stdout.write(
    `${s(g.own + g.children)} ${s(g.own)} ${s(g.children)}  ${key} (${g.count} files)\n`,
  );
}
const own = files.reduce((n, f) => n + f.own, 0);
const children = files.reduce((n, f) => n + f.children, 0);
process.stdout.write(
  `\n${s(own + children)} ${s(own)} ${s(children)}  all ${files.length} files\n`,
);
