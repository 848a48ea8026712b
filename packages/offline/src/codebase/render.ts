/**
 * The blocks the offline engine writes from a codebase's facts: CODEBASE_OVERVIEW.md's
 * sections, the architecture's "Current system", and the existing stack for "Technology
 * choices". Every fact carries the path it was read from; what was not found is said to be not
 * found in the digest rather than guessed. What the repository holds (names, roles, its
 * README's sentence, the idea's prose) is text: written escaped, never read as markdown.
 */
import { DOCUMENT_KINDS } from '@pgs/contract';
import { text } from '@pgs/contract/document';
import {
  blocks,
  bullets,
  type FlowContent,
  type Inline,
  ic,
  joined,
  listingOf,
  p,
  t,
  table,
} from '../text/nodes.ts';
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

/** A string read from the repository, as text. */
const raw = (value: string) => text(value);

/** `package.json` (pg ^8.11.3): where a fact comes from, and what in it shows it. */
function source(found: Found): Inline {
  return t`${ic(found.evidence)}${found.detail ? t` (${raw(found.detail)})` : ''}`;
}

/** Paths as inline code, the first few and how many more. */
function pathList(paths: readonly string[], max = 3): Inline {
  const shown = paths.slice(0, max).map(ic);
  return paths.length > max
    ? t`${joined(shown, ', ')} and ${paths.length - max} more`
    : listingOf(shown);
}

/** Rows past the cap are counted, not dropped silently. */
function capped<T>(
  items: readonly T[],
  what: string,
): { rows: readonly T[]; note: FlowContent | false } {
  return items.length > MAX_ROWS
    ? { rows: items.slice(0, MAX_ROWS), note: p`And ${items.length - MAX_ROWS} more ${what}.` }
    : { rows: items, note: false };
}

function foundList(items: readonly Found[], what: string): FlowContent {
  return items.length > 0
    ? bullets(items.map((item) => t`${raw(item.name)}: ${source(item)}`))
    : p`No ${what}: ${NOT_FOUND}.`;
}

/** The facts found, each with its source, one after another. */
const foundRun = (items: readonly Found[]): Inline =>
  joined(
    items.map((s) => t`${raw(s.name)}, from ${source(s)}`),
    '; ',
  );

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
 * table(EXISTING_STACK_HEADERS, existingStack(facts)); // | Language | TypeScript | ^5.4.5 | `package.json` |
 */
export function existingStack(facts: CodebaseFacts): Inline[][] {
  return facts.stack.map((item: StackItem) => [
    raw(item.layer),
    raw(item.name),
    raw(item.version ?? '—'),
    source(item),
  ]);
}

/**
 * The architecture's "Current system" section: components, data stores, services, entry points.
 *
 * @example
 * currentSystem(facts); // [p`What exists in `vetbook-api`…`, table(['Component', 'Path', 'Role'], …), …]
 */
export function currentSystem(facts: CodebaseFacts): FlowContent[] {
  const components = capped(facts.components, 'components');
  const routeFiles = [...new Set(facts.routes.map((r) => r.file))];
  const entities = facts.entities.slice(0, 8).map((e) => raw(e.name));
  return blocks(
    p`What exists in ${ic(facts.name)}${facts.commit ? t` at commit ${ic(facts.commit)}` : ''}, as read from its repository digest; the change is made to this system, not beside it.`,
    facts.components.length > 0
      ? table(
          ['Component', 'Path', 'Role'],
          components.rows.map((c) => [raw(c.name), ic(c.path), raw(c.role)]),
        )
      : p`Components: ${NOT_FOUND}.`,
    components.note,
    bullets([
      t`Data stores: ${facts.dataStores.length > 0 ? foundRun(facts.dataStores) : NOT_FOUND}.`,
      t`External services: ${facts.externalServices.length > 0 ? foundRun(facts.externalServices) : NOT_FOUND}.`,
      t`Entry points: ${facts.entryPoints.length > 0 ? pathList(facts.entryPoints, 5) : NOT_FOUND}.`,
      t`HTTP routes: ${facts.routes.length > 0 ? t`${facts.routes.length}, declared in ${pathList(routeFiles, 4)}` : NOT_FOUND}.`,
      t`Tables and models: ${facts.entities.length > 0 ? t`${listingOf(entities)}${facts.entities.length > 8 ? ` and ${facts.entities.length - 8} more` : ''}` : NOT_FOUND}.`,
    ]),
  );
}

function summary(facts: CodebaseFacts): FlowContent[] {
  const code =
    facts.languages.length > 0
      ? t`written in ${listingOf(facts.languages.map(raw))}`
      : t`its languages ${NOT_FOUND}`;
  return blocks(
    p`${ic(facts.name)}${facts.commit ? t` at commit ${ic(facts.commit)}` : ' (no commit given)'}: ${facts.paths.length} files in the digest, ${code}.`,
    facts.summary
      ? p`Its README says: "${raw(facts.summary)}"`
      : p`A README paragraph that says what it does: ${NOT_FOUND}.`,
    p`Manifests read: ${facts.manifests.length > 0 ? pathList(facts.manifests, 8) : NOT_FOUND}.`,
  );
}

function stack(facts: CodebaseFacts): FlowContent[] {
  if (facts.stack.length === 0)
    return [p`No manifest or source file names a technology: the stack is ${NOT_FOUND}.`];
  return blocks(
    p`The technologies the repository already uses, each with the file that shows it:`,
    table(EXISTING_STACK_HEADERS, existingStack(facts)),
  );
}

function components(facts: CodebaseFacts): FlowContent[] {
  if (facts.components.length === 0)
    return [p`No folder or file with a recognisable role: components are ${NOT_FOUND}.`];
  const { rows, note } = capped(facts.components, 'components');
  return blocks(
    p`The parts of the code, by role (tests are listed apart):`,
    table(
      ['Component', 'Path', 'Role', 'Files'],
      rows.map((c) => [raw(c.name), ic(c.path), raw(c.role), pathList(c.files)]),
    ),
    note,
  );
}

function storesAndServices(facts: CodebaseFacts): FlowContent[] {
  return blocks(
    p`Data stores:`,
    foundList(facts.dataStores, 'data store'),
    p`External services:`,
    foundList(facts.externalServices, 'external service'),
  );
}

function entryPointsAndRoutes(facts: CodebaseFacts): FlowContent[] {
  const { rows, note } = capped(facts.routes, 'routes');
  return blocks(
    facts.entryPoints.length > 0
      ? p`Entry points: ${pathList(facts.entryPoints, 8)}.`
      : p`Entry points: ${NOT_FOUND}.`,
    facts.routes.length > 0
      ? table(
          ['Method', 'Path', 'Declared in'],
          rows.map((r) => [raw(r.method), ic(r.path), ic(r.file)]),
        )
      : p`HTTP routes: ${NOT_FOUND}.`,
    note,
  );
}

function dataModel(facts: CodebaseFacts): FlowContent[] {
  if (facts.entities.length === 0)
    return [p`No schema, migration or ORM model: the data model is ${NOT_FOUND}.`];
  const { rows, note } = capped(facts.entities, 'tables and models');
  return blocks(
    p`Tables and models, from the schemas, migrations and models that declare them:`,
    table(
      ['Table or model', 'Columns', 'Declared in'],
      rows.map((e) => [
        raw(e.name),
        raw(
          e.columns.length > 0
            ? e.columns.slice(0, 12).join(', ') + (e.columns.length > 12 ? ', …' : '')
            : '—',
        ),
        pathList([e.file, ...(e.alsoIn ?? [])]),
      ]),
    ),
    note,
  );
}

function testsAndConventions(facts: CodebaseFacts): FlowContent[] {
  const { files, command, commandEvidence } = facts.tests;
  const conventions = facts.conventions ?? [];
  return blocks(
    files.length > 0
      ? p`Tests: ${files.length === 1 ? '1 file' : `${files.length} files`}, ${pathList(files, 4)}.`
      : p`Tests: ${NOT_FOUND}.`,
    command
      ? p`They run with ${ic(command)}${commandEvidence ? t` (from ${ic(commandEvidence)})` : ''}.`
      : p`The command that runs them: ${NOT_FOUND}.`,
    conventions.length > 0
      ? [
          p`Conventions the repository sets:`,
          bullets(conventions.map((c) => t`${raw(c.name)}: ${source(c)}`)),
        ]
      : p`Linters, formatters and CI configuration: ${NOT_FOUND}.`,
  );
}

/** Words in quotes, as a sentence lists them: `"a", "b" or "c"`. */
const quoted = (words: readonly Inline[], conjunction = 'and') =>
  listingOf(
    words.map((w) => t`"${w}"`),
    conjunction,
  );

function whereChangeLands(
  facts: CodebaseFacts,
  idea: string,
  terms: readonly string[],
): FlowContent[] {
  const all = rankFiles(facts, terms, { limit: Number.POSITIVE_INFINITY });
  const ranked = all.slice(0, 8);
  const unmatched = termWords(terms).filter((w) => !all.some((f) => f.terms.includes(w)));
  const intro = p`Where "${raw(idea)}" touches the existing code, by the files whose names, routes, tables and components match ${quoted(terms)}:`;
  if (ranked.length === 0)
    return [
      intro,
      p`No file, route or table in the digest matches those words: the files the change touches are ${NOT_FOUND}, so the plan names the files it adds and the components above it extends.`,
    ];
  return blocks(
    intro,
    table(
      ['File', 'Why'],
      ranked.map((f) => [ic(f.path), raw(f.reasons.join('; '))]),
    ),
    unmatched.length > 0 &&
      p`No file, route or table names ${quoted(unmatched.map(raw), 'or')}: ${NOT_FOUND}.`,
  );
}

/**
 * CODEBASE_OVERVIEW.md's sections as blocks, each fact with the path it comes from.
 *
 * @example
 * codebaseOverview(facts, { idea: 'Add SMS reminders', terms: ['sms reminders'] }).get('Stack');
 * // [p`The technologies the repository already uses…`, table(['Layer', 'Technology', 'Version', 'Evidence'], …)]
 */
export function codebaseOverview(
  facts: CodebaseFacts,
  context: { idea: string; terms: readonly string[] },
): Map<CodebaseOverviewSection, FlowContent[]> {
  const bodies: Record<CodebaseOverviewSection, () => FlowContent[]> = {
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
