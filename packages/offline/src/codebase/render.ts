/**
 * Markdown the offline engine writes from a codebase's facts: CODEBASE_OVERVIEW.md's sections,
 * the architecture's "Current system", and the existing stack for "Technology choices". Every
 * fact carries the path it was read from; what was not found is said to be not found in the
 * digest rather than guessed.
 */
import { DOCUMENT_KINDS } from '@pgs/contract';
import { blocks, bullets, ic, table } from '../text/markdown.ts';
import { listing } from '../text/words.ts';
import { rankFiles, termWords } from './terms.ts';
import type { CodebaseFacts, Found, StackItem } from './types.ts';

/**
 * The sections of CODEBASE_OVERVIEW.md, in order: the catalogue's, which prompts ask for too.
 *
 * @example
 * CODEBASE_OVERVIEW_SECTIONS[0]; // 'Summary'
 */
export const CODEBASE_OVERVIEW_SECTIONS = DOCUMENT_KINDS['codebase-overview'].sections;

export type CodebaseOverviewSection = (typeof CODEBASE_OVERVIEW_SECTIONS)[number];

const NOT_FOUND = 'not found in the digest';
const MAX_ROWS = 40;

/** `package.json` (pg ^8.11.3): where a fact comes from, and what in it shows it. */
function source(found: Found): string {
  return `${ic(found.evidence)}${found.detail ? ` (${found.detail})` : ''}`;
}

/** Paths as inline code, the first few and how many more. */
function pathList(paths: readonly string[], max = 3): string {
  const shown = paths.slice(0, max).map(ic);
  return paths.length > max ? `${shown.join(', ')} and ${paths.length - max} more` : listing(shown);
}

/** Rows past the cap are counted, not dropped silently. */
function capped<T>(items: readonly T[], what: string): { rows: readonly T[]; note: string } {
  return items.length > MAX_ROWS
    ? { rows: items.slice(0, MAX_ROWS), note: `And ${items.length - MAX_ROWS} more ${what}.` }
    : { rows: items, note: '' };
}

function foundList(items: readonly Found[], what: string): string {
  return items.length > 0
    ? bullets(items.map((item) => `${item.name}: ${source(item)}`))
    : `No ${what}: ${NOT_FOUND}.`;
}

/**
 * The headers of {@link existingStack}'s rows.
 *
 * @example
 * table(EXISTING_STACK_HEADERS, existingStack(facts));
 */
export const EXISTING_STACK_HEADERS = ['Layer', 'Technology', 'Version', 'Evidence'] as const;

/**
 * The stack that exists, as rows for "Technology choices": layer, technology, version, evidence.
 *
 * @example
 * existingStack(facts)[0]; // ['Language', 'TypeScript', '^5.4.5', '`package.json`']
 */
export function existingStack(facts: CodebaseFacts): [string, string, string, string][] {
  return facts.stack.map((item: StackItem) => [
    item.layer,
    item.name,
    item.version ?? '—',
    source(item),
  ]);
}

/**
 * The architecture's "Current system" section: components, data stores, services, entry points.
 *
 * @example
 * renderCurrentSystem(facts); // 'What exists in `vetbook-api`…\n\n| Component | Path | Role |…'
 */
export function renderCurrentSystem(facts: CodebaseFacts): string {
  const components = capped(facts.components, 'components');
  const routeFiles = [...new Set(facts.routes.map((r) => r.file))];
  return blocks(
    `What exists in ${ic(facts.name)}${facts.commit ? ` at commit ${ic(facts.commit)}` : ''}, as read from its repository digest; the change is made to this system, not beside it.`,
    facts.components.length > 0
      ? table(
          ['Component', 'Path', 'Role'],
          components.rows.map((c) => [c.name, ic(c.path), c.role]),
        )
      : `Components: ${NOT_FOUND}.`,
    components.note,
    bullets([
      `Data stores: ${facts.dataStores.length > 0 ? facts.dataStores.map((s) => `${s.name}, from ${source(s)}`).join('; ') : NOT_FOUND}.`,
      `External services: ${facts.externalServices.length > 0 ? facts.externalServices.map((s) => `${s.name}, from ${source(s)}`).join('; ') : NOT_FOUND}.`,
      `Entry points: ${facts.entryPoints.length > 0 ? pathList(facts.entryPoints, 5) : NOT_FOUND}.`,
      `HTTP routes: ${facts.routes.length > 0 ? `${facts.routes.length}, declared in ${pathList(routeFiles, 4)}` : NOT_FOUND}.`,
      `Tables and models: ${facts.entities.length > 0 ? `${listing(facts.entities.slice(0, 8).map((e) => e.name))}${facts.entities.length > 8 ? ` and ${facts.entities.length - 8} more` : ''}` : NOT_FOUND}.`,
    ]),
  );
}

function summary(facts: CodebaseFacts): string {
  const code =
    facts.languages.length > 0
      ? `written in ${listing(facts.languages)}`
      : `its languages ${NOT_FOUND}`;
  return blocks(
    `${ic(facts.name)}${facts.commit ? ` at commit ${ic(facts.commit)}` : ' (no commit given)'}: ${facts.paths.length} files in the digest, ${code}.`,
    facts.summary
      ? `Its README says: "${facts.summary}"`
      : `A README paragraph that says what it does: ${NOT_FOUND}.`,
    `Manifests read: ${facts.manifests.length > 0 ? pathList(facts.manifests, 8) : NOT_FOUND}.`,
  );
}

function stack(facts: CodebaseFacts): string {
  if (facts.stack.length === 0)
    return `No manifest or source file names a technology: the stack is ${NOT_FOUND}.`;
  return blocks(
    'The technologies the repository already uses, each with the file that shows it:',
    table(EXISTING_STACK_HEADERS, existingStack(facts)),
  );
}

function components(facts: CodebaseFacts): string {
  if (facts.components.length === 0)
    return `No folder or file with a recognisable role: components are ${NOT_FOUND}.`;
  const { rows, note } = capped(facts.components, 'components');
  return blocks(
    'The parts of the code, by role (tests are listed apart):',
    table(
      ['Component', 'Path', 'Role', 'Files'],
      rows.map((c) => [c.name, ic(c.path), c.role, pathList(c.files)]),
    ),
    note,
  );
}

function storesAndServices(facts: CodebaseFacts): string {
  return blocks(
    'Data stores:',
    foundList(facts.dataStores, 'data store'),
    'External services:',
    foundList(facts.externalServices, 'external service'),
  );
}

function entryPointsAndRoutes(facts: CodebaseFacts): string {
  const { rows, note } = capped(facts.routes, 'routes');
  return blocks(
    facts.entryPoints.length > 0
      ? `Entry points: ${pathList(facts.entryPoints, 8)}.`
      : `Entry points: ${NOT_FOUND}.`,
    facts.routes.length > 0
      ? table(
          ['Method', 'Path', 'Declared in'],
          rows.map((r) => [r.method, ic(r.path), ic(r.file)]),
        )
      : `HTTP routes: ${NOT_FOUND}.`,
    note,
  );
}

function dataModel(facts: CodebaseFacts): string {
  if (facts.entities.length === 0)
    return `No schema, migration or ORM model: the data model is ${NOT_FOUND}.`;
  const { rows, note } = capped(facts.entities, 'tables and models');
  return blocks(
    'Tables and models, from the schemas, migrations and models that declare them:',
    table(
      ['Table or model', 'Columns', 'Declared in'],
      rows.map((e) => [
        e.name,
        e.columns.length > 0
          ? e.columns.slice(0, 12).join(', ') + (e.columns.length > 12 ? ', …' : '')
          : '—',
        pathList([e.file, ...(e.alsoIn ?? [])]),
      ]),
    ),
    note,
  );
}

function testsAndConventions(facts: CodebaseFacts): string {
  const { files, command, commandEvidence } = facts.tests;
  return blocks(
    files.length > 0
      ? `Tests: ${files.length === 1 ? '1 file' : `${files.length} files`}, ${pathList(files, 4)}.`
      : `Tests: ${NOT_FOUND}.`,
    command
      ? `They run with ${ic(command)}${commandEvidence ? ` (from ${ic(commandEvidence)})` : ''}.`
      : `The command that runs them: ${NOT_FOUND}.`,
    (facts.conventions ?? []).length > 0
      ? `Conventions the repository sets:\n\n${bullets((facts.conventions ?? []).map((c) => `${c.name}: ${source(c)}`))}`
      : `Linters, formatters and CI configuration: ${NOT_FOUND}.`,
  );
}

function whereChangeLands(facts: CodebaseFacts, idea: string, terms: readonly string[]): string {
  const all = rankFiles(facts, terms, { limit: Number.POSITIVE_INFINITY });
  const ranked = all.slice(0, 8);
  const unmatched = termWords(terms).filter((w) => !all.some((f) => f.terms.includes(w)));
  const missing =
    unmatched.length > 0 && ranked.length > 0
      ? `No file, route or table names ${listing(
          unmatched.map((w) => `"${w}"`),
          'or',
        )}: ${NOT_FOUND}.`
      : '';
  const intro = `Where "${idea}" touches the existing code, by the files whose names, routes, tables and components match ${listing(terms.map((t) => `"${t}"`))}:`;
  if (ranked.length === 0)
    return blocks(
      intro,
      `No file, route or table in the digest matches those words: the files the change touches are ${NOT_FOUND}, so the plan names the files it adds and the components above it extends.`,
    );
  return blocks(
    intro,
    table(
      ['File', 'Why'],
      ranked.map((f) => [ic(f.path), f.reasons.join('; ')]),
    ),
    missing,
  );
}

/**
 * CODEBASE_OVERVIEW.md's sections, each fact with the path it comes from.
 *
 * @example
 * renderCodebaseOverview(facts, { idea: 'Add SMS reminders', terms: ['sms reminders'] }).get('Stack');
 * // 'The technologies the repository already uses…\n\n| Layer | Technology | Version | Evidence |…'
 */
export function renderCodebaseOverview(
  facts: CodebaseFacts,
  context: { idea: string; terms: readonly string[] },
): Map<CodebaseOverviewSection, string> {
  const bodies: Record<CodebaseOverviewSection, () => string> = {
    Summary: () => summary(facts),
    Stack: () => stack(facts),
    Components: () => components(facts),
    'Data stores and external services': () => storesAndServices(facts),
    'Entry points and routes': () => entryPointsAndRoutes(facts),
    'Data model': () => dataModel(facts),
    'Tests and conventions': () => testsAndConventions(facts),
    'Where a change lands': () => whereChangeLands(facts, context.idea, context.terms),
  };
  return new Map(CODEBASE_OVERVIEW_SECTIONS.map((title) => [title, bodies[title]()]));
}
