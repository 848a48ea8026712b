/**
 * The report of a conformance check (docs/conformance.md): the spec of one revision held
 * against what a repository digest shows. Pure and deterministic: the same spec, facts and
 * citations give the same report. A file's text is never copied in, only a cited line's
 * first {@link MAX_TEXT} characters (already redacted).
 */
import type { ConformanceReport, RepositoryCitation } from '@pgs/contract';
import type { CodebaseFacts } from '../models/codebase.ts';
import { TextIndex } from './match.ts';
import type { SpecView } from './spec.ts';
import { suggestedChange } from './suggestion.ts';

type TestRef = ConformanceReport['criteria'][number]['tests'][number];
type Evidence = ConformanceReport['requirements'][number]['evidence'][number];

/** Tests listed per entry, and evidence per requirement: the counts say the rest. */
export const MAX_LISTED = 20;
/** Characters of a cited line the report shows. */
export const MAX_TEXT = 160;

/** The code as a check reads it: the reader's facts and the tests' citations. */
export interface CodeView {
  facts: Pick<CodebaseFacts, 'routes' | 'entities' | 'components' | 'paths' | 'entryPoints'>;
  citations: readonly RepositoryCitation[];
}

const refOf = (citation: RepositoryCitation, id?: string): TestRef => ({
  path: citation.path,
  line: citation.line,
  text: citation.text.slice(0, MAX_TEXT),
  ...(id === undefined || id === citation.id ? {} : { id: citation.id }),
});

/** Whether a task's file is in the digest: the path itself, or a folder (`src/billing/`) with files. */
function exists(paths: ReadonlySet<string>, file: string): boolean {
  if (paths.has(file)) return true;
  const folder = file.endsWith('/') ? file : `${file}/`;
  for (const path of paths) if (path.startsWith(folder)) return true;
  return false;
}

/**
 * Holds `spec` against `code`: per criterion the tests citing it, per task its files and
 * whether each is in the digest, per requirement `tested` (a test cites it or one of its
 * criteria), `implemented` (no citing test, but a file its tasks name is in the digest, or a
 * route, table or component its text names is in the code) or `missing`; the routes, tables
 * and components no requirement or design text names (`drift`); and the change request that
 * would describe them.
 *
 * @example
 * const report = conformanceReport(specView(documents), { facts: codebaseFacts(digest), citations });
 * report.totals; // { requirements: 5, tested: 2, implemented: 2, missing: 1, … }
 */
export function conformanceReport(spec: SpecView, code: CodeView): ConformanceReport {
  const byId = new Map<string, RepositoryCitation[]>();
  for (const citation of code.citations) {
    byId.set(citation.id, [...(byId.get(citation.id) ?? []), citation]);
  }
  const citing = (id: string) => byId.get(id) ?? [];
  const paths = new Set(code.facts.paths);

  const criteria = spec.requirements.flatMap((requirement) =>
    requirement.criteria.map((id) => ({
      id,
      requirement: requirement.id,
      tests: citing(id)
        .slice(0, MAX_LISTED)
        .map((c) => refOf(c, id)),
    })),
  );
  const tasks = spec.tasks.map((task) => ({
    id: task.id,
    title: task.title,
    files: task.files.map((path) => ({ path, exists: exists(paths, path) })),
    tests: citing(task.id)
      .slice(0, MAX_LISTED)
      .map((c) => refOf(c, task.id)),
  }));

  const requirements = spec.requirements.map((requirement) => {
    const tests = [requirement.id, ...requirement.criteria]
      .flatMap(citing)
      .slice(0, MAX_LISTED)
      .map((c) => refOf(c, requirement.id));
    const evidence = evidenceOf(requirement, spec, code, paths).slice(0, MAX_LISTED);
    const status: 'tested' | 'implemented' | 'missing' =
      tests.length > 0 ? 'tested' : evidence.length > 0 ? 'implemented' : 'missing';
    return {
      id: requirement.id,
      title: requirement.title,
      status,
      tests,
      tasks: [...requirement.tasks],
      evidence,
    };
  });

  const drift = driftOf(spec, code);
  const count = (status: string) => requirements.filter((r) => r.status === status).length;
  const driftCount = drift.routes.length + drift.tables.length + drift.components.length;
  return {
    requirements,
    criteria,
    tasks,
    drift,
    suggestedChange: suggestedChange(drift),
    totals: {
      requirements: requirements.length,
      tested: count('tested'),
      implemented: count('implemented'),
      missing: count('missing'),
      criteria: criteria.length,
      criteriaCited: criteria.filter((c) => c.tests.length > 0).length,
      drift: driftCount,
    },
  };
}

/** The code that shows a requirement is built: its tasks' files present, and what its text names. */
function evidenceOf(
  requirement: SpecView['requirements'][number],
  spec: SpecView,
  code: CodeView,
  paths: ReadonlySet<string>,
): Evidence[] {
  const evidence: Evidence[] = [];
  const seen = new Set<string>();
  const add = (item: Evidence) => {
    const key = `${item.kind}:${item.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      evidence.push(item);
    }
  };
  const own = new Set([requirement.id, ...requirement.criteria]);
  for (const task of spec.tasks) {
    if (![...task.requirements, ...task.criteria].some((id) => own.has(id))) continue;
    for (const file of task.files) {
      if (exists(paths, file)) add({ kind: 'file', name: file, path: file });
    }
  }
  const text = new TextIndex(requirement.text);
  for (const route of code.facts.routes) {
    if (text.namesRoute(route.path)) {
      add({ kind: 'route', name: `${route.method} ${route.path}`, path: route.file });
    }
  }
  for (const entity of code.facts.entities) {
    if (text.namesTable(entity.name)) add({ kind: 'table', name: entity.name, path: entity.file });
  }
  for (const component of code.facts.components) {
    if (text.namesComponent(component.name, component.path)) {
      add({ kind: 'component', name: component.name, path: component.path });
    }
  }
  return evidence;
}

/**
 * What the code has that the spec does not describe. A component is covered when the spec
 * names it, when it holds a file the spec covers otherwise (a task's file, a covered route's
 * or table's), or when it is where the process starts: a folder of migrations or an entry
 * point is how the code is built, not something a requirement asks for.
 */
function driftOf(spec: SpecView, code: CodeView): ConformanceReport['drift'] {
  const described = new TextIndex(spec.described);
  const routes = code.facts.routes.filter((route) => !described.namesRoute(route.path));
  const tables = code.facts.entities.filter((entity) => !described.namesTable(entity.name));
  const coveredFiles = new Set<string>([
    ...spec.tasks.flatMap((task) => task.files),
    ...code.facts.entryPoints,
    ...code.facts.routes.filter((r) => !routes.includes(r)).map((r) => r.file),
    ...code.facts.entities
      .filter((e) => !tables.includes(e))
      .flatMap((e) => [e.file, ...(e.alsoIn ?? [])]),
  ]);
  const components = code.facts.components.filter(
    (component) =>
      !described.namesComponent(component.name, component.path) &&
      !coveredFiles.has(component.path) &&
      !component.files.some((file) => coveredFiles.has(file)),
  );
  return {
    routes: routes.map(({ method, path, file }) => ({ method, path, file })),
    tables: tables.map(({ name, file }) => ({ name, file })),
    components: components.map(({ name, path }) => ({ name, path })),
  };
}
