/**
 * What a grounded project's writers share (docs/brownfield.md): the codebase read once per
 * project, the existing files a requirement touches, the home of a new one. The kinds' files
 * write their grounded sections with these (the codebase overview, the architecture's current
 * system and existing stack, requirements as changes to what exists, tasks that name the files
 * they touch, a README for the repository as it is). Every path comes from the digest; a file
 * that does not exist yet is marked new, and what the digest does not show is never stated.
 */
import {
  type CodebaseFacts,
  type CodebaseOverviewSection,
  codebaseOverview,
  type RankedFile,
  rankFiles,
} from '../codebase/index.ts';
import type { Facts, Requirement } from '../facts/facts.ts';
import { bold, ic as code, type FlowContent, type Inline, listingOf, t } from '../text/nodes.ts';
import { decapitalize, kebab, snake } from '../text/words.ts';

export const NOT_FOUND = 'not found in the digest';

export const codebaseOf = (f: Facts): CodebaseFacts => f.codebase!;

/** The folder of a path (`''` at the root). */
const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

const overviews = new WeakMap<Facts, ReadonlyMap<CodebaseOverviewSection, FlowContent[]>>();

/**
 * The codebase overview's sections, written once per project's facts.
 *
 * @example
 * overview(f).get('Stack'); // [p`The technologies…`, table(['Layer', 'Technology', …], …)]
 */
export function overview(f: Facts): ReadonlyMap<CodebaseOverviewSection, FlowContent[]> {
  let sections = overviews.get(f);
  if (!sections) {
    sections = codebaseOverview(codebaseOf(f), {
      idea: f.idea,
      terms: f.requirements.map((r) => r.text),
    });
    overviews.set(f, sections);
  }
  return sections;
}

/**
 * The existing files a requirement concerns, best first: by its words, its entity and its
 * service, as the digest's paths, routes and tables show them.
 *
 * @example
 * touchedBy(f, f.requirements[0]!).map((file) => file.path); // ['src/routes/appointments.ts', …]
 */
export function touchedBy(f: Facts, req: Requirement, limit = 3): RankedFile[] {
  const terms = [
    req.text,
    req.ent.label,
    req.ent.plural,
    ...(req.service ? [req.service.name] : []),
  ];
  return rankFiles(codebaseOf(f), terms, { limit });
}

/** The source extension most files of the digest have (`.ts`, `.py`, `.go`…). */
function mainExtension(facts: CodebaseFacts): string | undefined {
  const counts = new Map<string, number>();
  for (const path of facts.paths) {
    const ext = /\.(ts|tsx|js|mjs|py|go|rb|php|java|kt|rs|cs|swift|dart)$/.exec(path)?.[0];
    if (ext) counts.set(ext, (counts.get(ext) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/**
 * Where a requirement's code goes when no existing file concerns it: a new file beside the
 * code that handles requests (the routes folder the digest shows), named for its entity in
 * the repository's own language; undefined when the digest shows no such place.
 *
 * @example
 * newHome(f, req); // 'src/routes/team-invoices.ts'
 */
export function newHome(f: Facts, req: Requirement): string | undefined {
  const facts = codebaseOf(f);
  const ext = mainExtension(facts);
  if (!ext) return undefined;
  const stem = /\.(py|go|rb|rs)$/.test(ext) ? snake(req.ent.plural, 3) : kebab(req.ent.plural, 3);
  // Handlers that are a folder of their own (Go's internal/<package>) get a sibling package.
  const handlers = facts.components.find(
    (c) => /handler|controller/i.test(c.role) && !/\.[a-z]+$/.test(c.path),
  );
  if (ext === '.go' && handlers && /^internal\/[^/]+$/.test(handlers.path)) {
    return `internal/${stem}/${stem}.go`;
  }
  const routeFile = facts.routes[0]?.file;
  const folder = handlers
    ? handlers.path
    : routeFile
      ? folderOf(routeFile)
      : facts.components[0]?.path.replace(/\/[^/]*\.[a-z]+$/, '');
  if (folder === undefined) return undefined;
  return `${folder ? `${folder}/` : ''}${stem}${ext}`;
}

/** "`a` (route POST /appointments), `b` (table appointments)": files with why they matter. */
function withReasons(files: readonly RankedFile[]): Inline {
  return listingOf(
    files.map((file) => [code(file.path), file.reasons[0] ? ` (${file.reasons[0]})` : '']),
  );
}

const TEST_FILE =
  /(?:^|\/)(?:tests?|__tests__|spec)\/|[._-](?:test|spec)\.[a-z]+$|_test\.go$|(?:^|\/)test_[^/]*\.py$/;

const MIGRATION = /(?:^|\/)(?:migrations?|alembic\/versions|db\/migrate)\//;

/**
 * A file a change touches, as a plan names it: a migration that has run is never edited,
 * so the change is a new migration beside it.
 */
function asTouched(path: string): Inline {
  return MIGRATION.test(path) ? t`a new migration in ${code(folderOf(path))}` : code(path);
}

/** A path as `asTouched` names it, to tell two apart. */
const touchedKey = (path: string) => (MIGRATION.test(path) ? `migration:${folderOf(path)}` : path);

/** Where the tests of a requirement go when none exists: beside the tests the digest has. */
function newTestHome(f: Facts, req: Requirement): string | undefined {
  const sample = codebaseOf(f).tests.files[0];
  if (!sample) return undefined;
  const name = sample.slice(sample.lastIndexOf('/') + 1);
  const stem = snake(req.ent.plural, 3);
  // Go keeps a package's tests beside its code.
  const home = newHome(f, req);
  if (/_test\.go$/.test(name) && home) return `${folderOf(home)}/${stem}_test.go`;
  const file = /^test_.*\.py$/.test(name)
    ? `test_${stem}.py`
    : /_test\.go$/.test(name)
      ? `${stem}_test.go`
      : name.replace(/^[^.]+/, kebab(req.ent.plural, 3));
  return `${folderOf(sample) ? `${folderOf(sample)}/` : ''}${file}`;
}

/**
 * The files a piece of work touches: for its tests, the test files that exist for it (else
 * a new one beside the others); for its code, the source files it changes (else a new one).
 */
export function filesLine(f: Facts, reqs: readonly Requirement[], tests = false): Inline {
  const existing = [
    ...new Set(
      reqs.flatMap((r) =>
        touchedBy(f, r, 6)
          .map((file) => file.path)
          .filter((path) => TEST_FILE.test(path) === tests),
      ),
    ),
  ];
  if (existing.length > 0) {
    const shown = new Map(existing.slice(0, 3).map((path) => [touchedKey(path), path]));
    return listingOf([...shown.values()].map(asTouched));
  }
  const home = (r: Requirement) => (tests ? newTestHome(f, r) : newHome(f, r));
  const fresh = [...new Set(reqs.map(home).filter((p) => p !== undefined))];
  return fresh.length > 0
    ? t`${listingOf(fresh.map(code))} (new)`
    : t`new files; where: ${NOT_FOUND}`;
}

/** Whether the digest holds client code (screens), which a web or app client would live in. */
export function hasClient(facts: CodebaseFacts): boolean {
  return (
    facts.stack.some((s) =>
      /^(?:React|Vue|Svelte|Angular|Next\.js|Nuxt|React Native|Expo|Flutter|SwiftUI|Jetpack Compose)$/.test(
        s.name,
      ),
    ) ||
    facts.components.some((c) =>
      /(?:^|\/)(?:pages|screens|views|components|frontend|web|client)(?:\/|$)/.test(c.path),
    )
  );
}

/**
 * The code of an existing service's calls: the component whose role names it, else its evidence.
 */
export function serviceCode(facts: CodebaseFacts, name: string): Inline | undefined {
  const lower = name.toLowerCase();
  const component = facts.components.find((c) => c.role.toLowerCase().includes(lower));
  if (component) return listingOf(component.files.slice(0, 3).map(code));
  return facts.externalServices.find((s) => s.name === name)?.evidence;
}

/** What exists today for a requirement, as the requirements document says it. */
export function today(f: Facts, req: Requirement): Inline {
  const files = touchedBy(f, req);
  const name = code(codebaseOf(f).name);
  return files.length > 0
    ? t`${bold('Today:')} ${name} already has code this concerns: ${withReasons(files)}.`
    : t`${bold('Today:')} nothing in the digest of ${name} does this; it is new behaviour.`;
}

/** What a requirement changes in the code, as the requirements document says it. */
export function change(f: Facts, req: Requirement): Inline {
  const files = touchedBy(f, req, 1);
  const home = newHome(f, req);
  return files.length > 0
    ? t`${bold('Change:')} extend it to ${decapitalize(req.text)}, keeping what it does today for everything else.`
    : t`${bold('Change:')} add it${home ? t` in ${code(home)} (new)` : ''}, beside the code that exists, on the same stack.`;
}
