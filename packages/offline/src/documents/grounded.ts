/**
 * The sections a grounded project's documents write differently (docs/brownfield.md): the
 * codebase overview, the architecture's current system and existing stack, requirements as
 * changes to what exists, tasks that name the files they touch, and a README for the
 * repository as it is. Every path comes from the digest; a file that does not exist yet is
 * marked new, and what the digest does not show is never stated.
 */
import {
  CODEBASE_OVERVIEW_SECTIONS,
  type CodebaseFacts,
  EXISTING_STACK_HEADERS,
  existingStack,
  type RankedFile,
  rankFiles,
  renderCodebaseOverview,
  renderCurrentSystem,
} from '../codebase/index.ts';
import { componentsOf, slicesOf, storiesOf } from '../facts/delivery-model.ts';
import type { Facts, Requirement, SectionWriter } from '../facts/facts.ts';
import { blocks, bullets, code, ic, table } from '../text/markdown.ts';
import { decapitalize, kebab, listing, snake } from '../text/words.ts';
import { ARCHITECTURE_SECTIONS } from './architecture.ts';
import { statement } from './product-requirements.ts';

const NOT_FOUND = 'not found in the digest';

const codebaseOf = (f: Facts): CodebaseFacts => f.codebase!;

/** The folder of a path (`''` at the root). */
const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

const overviews = new WeakMap<Facts, ReadonlyMap<string, string>>();
function overview(f: Facts): ReadonlyMap<string, string> {
  let sections = overviews.get(f);
  if (!sections) {
    sections = renderCodebaseOverview(codebaseOf(f), {
      idea: f.idea,
      terms: f.requirements.map((r) => r.text),
    }) as ReadonlyMap<string, string>;
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
function withReasons(files: readonly RankedFile[]): string {
  return listing(
    files.map((file) => `${ic(file.path)}${file.reasons[0] ? ` (${file.reasons[0]})` : ''}`),
  );
}

const TEST_FILE =
  /(?:^|\/)(?:tests?|__tests__|spec)\/|[._-](?:test|spec)\.[a-z]+$|_test\.go$|(?:^|\/)test_[^/]*\.py$/;
const MIGRATION = /(?:^|\/)(?:migrations?|alembic\/versions|db\/migrate)\//;

/**
 * A file a change touches, as a plan names it: a migration that has run is never edited,
 * so the change is a new migration beside it.
 */
function asTouched(path: string): string {
  return MIGRATION.test(path) ? `a new migration in ${ic(folderOf(path))}` : ic(path);
}

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
function filesLine(f: Facts, reqs: readonly Requirement[], tests = false): string {
  const existing = [
    ...new Set(
      reqs.flatMap((r) =>
        touchedBy(f, r, 6)
          .map((file) => file.path)
          .filter((path) => TEST_FILE.test(path) === tests),
      ),
    ),
  ];
  if (existing.length > 0) return listing([...new Set(existing.slice(0, 3).map(asTouched))]);
  const home = (r: Requirement) => (tests ? newTestHome(f, r) : newHome(f, r));
  const fresh = [...new Set(reqs.map(home).filter((p) => p !== undefined))];
  return fresh.length > 0 ? `${listing(fresh.map(ic))} (new)` : `new files; where: ${NOT_FOUND}`;
}

/** Whether the digest holds client code (screens), which a web or app client would live in. */
function hasClient(facts: CodebaseFacts): boolean {
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

/** The code of an existing service's calls: the component whose role names it, else its evidence. */
function serviceCode(facts: CodebaseFacts, name: string): string | undefined {
  const lower = name.toLowerCase();
  const component = facts.components.find((c) => c.role.toLowerCase().includes(lower));
  if (component) return listing(component.files.slice(0, 3).map(ic));
  return facts.externalServices.find((s) => s.name === name)?.evidence;
}

/** What exists today for a requirement, as the requirements document says it. */
function today(f: Facts, req: Requirement): string {
  const files = touchedBy(f, req);
  return files.length > 0
    ? `**Today:** ${ic(codebaseOf(f).name)} already has code this concerns: ${withReasons(files)}.`
    : `**Today:** nothing in the digest of ${ic(codebaseOf(f).name)} does this; it is new behaviour.`;
}

function change(f: Facts, req: Requirement): string {
  const files = touchedBy(f, req, 1);
  const home = newHome(f, req);
  return files.length > 0
    ? `**Change:** extend it to ${decapitalize(req.text)}, keeping what it does today for everything else.`
    : `**Change:** add it${home ? ` in ${ic(home)} (new)` : ''}, beside the code that exists, on the same stack.`;
}

const overviewWriters: Record<string, SectionWriter> = Object.fromEntries(
  CODEBASE_OVERVIEW_SECTIONS.map((section) => [
    `codebase-overview/${section}`,
    (f: Facts) => overview(f).get(section) ?? `${section}: ${NOT_FOUND}.`,
  ]),
);

/**
 * Writers that replace the standard ones for a grounded project (a project whose facts
 * carry `codebase`); the others are written as for any project.
 */
export const GROUNDED_SECTIONS: Record<string, SectionWriter> = {
  ...overviewWriters,

  'architecture/Current system': (f) => renderCurrentSystem(codebaseOf(f)),

  'architecture/Context': (f) =>
    blocks(
      ARCHITECTURE_SECTIONS['architecture/Context']!(f),
      `${f.name} is a change to ${ic(codebaseOf(f).name)}${codebaseOf(f).commit ? ` at commit ${ic(codebaseOf(f).commit!)}` : ''}: the components below are built into the current system above, on its stack, and CODEBASE_OVERVIEW.md maps the rest of it.`,
    ),

  'architecture/Components': (f) =>
    blocks(
      `Each component of ${f.name} has one responsibility, names the requirements it implements and the code of ${ic(codebaseOf(f).name)} it lives in.`,
      ...componentsOf(f).map((c) => {
        const reqs = f.requirements.filter((r) =>
          c.implements.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
        );
        const facts = codebaseOf(f);
        // An adapter for a service the code already calls is that code.
        const calls = facts.externalServices.find((s) => c.name === `${s.name} adapter`);
        const client = /^(?:Web client|App screens)$/.test(c.name);
        return blocks(
          `### ${c.name}`,
          c.responsibility,
          c.implements.length > 0
            ? `Implements: ${c.implements.join(', ')}`
            : 'It carries the others and implements no requirement on its own.',
          calls
            ? `Code: ${serviceCode(facts, calls.name)} (exists)`
            : client && !hasClient(facts)
              ? `Code: the digest of ${ic(facts.name)} holds no client code; the screens are new, or live in another repository.`
              : reqs.length > 0
                ? `Code: ${filesLine(f, reqs)}`
                : '',
        );
      }),
    ),

  'architecture/Technology choices': (f) => {
    const facts = codebaseOf(f);
    return facts.stack.length === 0
      ? `The stack of ${ic(facts.name)} is ${NOT_FOUND}: no manifest names a technology, so none is chosen here; the team settles it before the first task.`
      : blocks(
          `${f.name} keeps the stack ${ic(facts.name)} already runs on; nothing is replaced, and a technology is added only where a requirement needs one the stack lacks.`,
          table(EXISTING_STACK_HEADERS, existingStack(facts)),
        );
  },

  'product-requirements/Functional requirements': (f) =>
    blocks(
      `One group per core feature of ${f.name}, each written as a change to ${ic(codebaseOf(f).name)}: what exists today, then what changes. Every criterion is testable as written.`,
      ...f.requirements.map((req) =>
        blocks(
          `### ${req.id} ${req.text} (${req.priority})`,
          statement(f, req),
          today(f, req),
          change(f, req),
          req.dependsOn.length > 0 ? `Depends on: ${req.dependsOn.join(', ')}` : '',
          ...req.criteria.map((c) => `**${c.id}** ${c.text}`),
        ),
      ),
    ),

  'implementation-plan/Tasks': (f) =>
    blocks(
      `Every requirement of ${f.name} has a task that writes its tests and, after it, a task that builds it, in the files of ${ic(codebaseOf(f).name)} it touches (a file marked new does not exist yet).`,
      ...slicesOf(f, storiesOf(f)).map((s) =>
        blocks(
          `### ${s.name}`,
          table(
            ['ID', 'Task', 'Implements', 'Files', 'Depends on', 'Estimate'],
            s.tasks.map((t) => {
              const reqs = f.requirements.filter((r) =>
                t.implements.some((id) => id === r.id || id.startsWith(`${r.id}.`)),
              );
              return [
                t.id,
                // The repository exists: the first task sets up the work in it, not a new one.
                t.id === 'T-1' && /^Set up\b/.test(t.task)
                  ? `Set up the work on ${f.name} in ${ic(codebaseOf(f).name)}: a branch, its CI run and a staging environment`
                  : t.task,
                t.implements.join(', ') || 'none',
                reqs.length > 0 ? filesLine(f, reqs, /^Write the tests\b/.test(t.task)) : '—',
                t.dependsOn.join(', ') || 'none',
                t.estimate,
              ];
            }),
          ),
        ),
      ),
    ),

  'readme/Tech stack': (f) => {
    const facts = codebaseOf(f);
    return facts.stack.length === 0
      ? `The stack of ${ic(facts.name)} is ${NOT_FOUND}.`
      : blocks(
          `${f.name} is built into ${ic(facts.name)} and uses its stack:`,
          table(EXISTING_STACK_HEADERS, existingStack(facts)),
        );
  },

  'readme/Getting started': (f) => {
    const facts = codebaseOf(f);
    const command = facts.tests.command;
    return blocks(
      `${f.name} runs as ${ic(facts.name)} runs today${facts.summary ? '; its README says how' : ''}: nothing new is needed to start it.`,
      command
        ? blocks(
            `Its tests, as ${ic(facts.tests.commandEvidence ?? facts.manifests[0] ?? 'the repository')} runs them; each requirement's tests join them:`,
            code('bash', command),
          )
        : `The command that runs its tests is ${NOT_FOUND}.`,
    );
  },

  'readme/Project structure': (f) => {
    const facts = codebaseOf(f);
    const fresh = [
      ...new Set(
        f.requirements
          .filter((r) => touchedBy(f, r, 1).length === 0)
          .map((r) => newHome(f, r))
          .filter((p) => p !== undefined),
      ),
    ];
    return blocks(
      `${f.name} lives in the structure ${ic(facts.name)} already has:`,
      facts.components.length > 0
        ? table(
            ['Path', 'Holds'],
            facts.components.slice(0, 20).map((c) => [ic(c.path), c.role]),
          )
        : `Its components are ${NOT_FOUND}.`,
      fresh.length > 0 ? `New files the plan adds: ${listing(fresh.map(ic))}.` : '',
      bullets(f.requirements.map((r) => `${r.id} (${decapitalize(r.text)}): ${filesLine(f, [r])}`)),
    );
  },
};
