/**
 * The `openspec` layout's own files (docs/api.md has the table): `openspec/project.md`, the
 * current functional requirements as `openspec/specs/<slug>/spec.md`, and one change folder
 * per revision after the first, with its proposal and its delta spec in OpenSpec's form
 * (ADDED, MODIFIED, REMOVED, RENAMED). Every document also ships as it is, under
 * `openspec/docs/`; archive.ts places those.
 */
import { type ProjectCompleted, type ProjectType, projectSlug } from '@pgs/contract';
import {
  cite,
  heading,
  inlineCode,
  list,
  paragraph,
  renderDocument,
  root,
  strong,
} from '@pgs/contract/document';
import type { RootContent } from 'mdast';
import type { RequirementDelta } from '../models/deltas.ts';
import { deltaContent, quote, type RevisionRecord, revisionDate } from './changelog.ts';
import { type ArchiveEntry, projectPlan, safeFilename, titleOf } from './files.ts';
import {
  groupBody,
  openspecRequirement,
  type RequirementGroup,
  requirementGroups,
  requirementName,
} from './requirements.ts';
import { type ArchiveTask, openspecTasks } from './tasks.ts';

/** Where the layout puts every document but the README (which goes to the root). */
export const OPENSPEC_DOCS = 'openspec/docs';

/** Where the layout puts a document. */
const docPath = (doc: { type: string; filename: string }) =>
  doc.type === 'readme' ? 'README.md' : `${OPENSPEC_DOCS}/${safeFilename(doc.filename)}`;

const TYPE_WORDS: Record<ProjectType, string> = {
  web: 'web application',
  mobile: 'mobile app',
  mcp: 'MCP server',
};

/** A questionnaire field that is a list of strings, or nothing. */
function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    : [];
}

/** `openspec/project.md`: what an assistant needs to know of the project before a change. */
function projectMd(data: ProjectCompleted): string {
  const { project } = data;
  const q = project.questionnaire;
  const plan = projectPlan(project);
  const brief = project.documents.find((doc) => doc.type === 'project-brief');
  const overview = project.documents.find((doc) => doc.type === 'codebase-overview');
  const lists: [string, string[]][] = [
    ['Core Features', strings(q.coreFeatures)],
    ['Tech Stack', [...project.questionnaire.techStack]],
    ['Important Constraints', strings(q.constraints)],
  ];
  const platforms = strings(q.platforms);
  const describe = (doc: { type: string; content: string }) =>
    plan.find((kind) => kind.kind === doc.type)?.title ?? titleOf(doc.content) ?? doc.type;
  return renderDocument(
    root([
      heading(1, `Project Context: ${project.name}`),
      heading(2, 'Purpose'),
      paragraph(project.description),
      list([
        [`Type: ${TYPE_WORDS[project.type]} (`, inlineCode(project.type), ')'],
        `Audience: ${q.targetAudience}`,
        ...(platforms.length > 0 ? [`Platforms: ${platforms.join(', ')}`] : []),
        `Monetization: ${q.monetization}`,
      ]),
      ...lists
        .filter(([, items]) => items.length > 0)
        .flatMap(([title, items]) => [heading(2, title), list(items)]),
      heading(2, 'Project Brief'),
      brief
        ? paragraph(
            'The brief is ',
            inlineCode(docPath(brief)),
            ': the problem, the audience, the goals (G-n) and their metrics, the scope, the risks (R-n), the assumptions (A-n) and the open questions (Q-n). Read it before proposing a change.',
          )
        : paragraph('This project has no brief.'),
      // A project grounded in a codebase: where an assistant learns the code before a change.
      ...(overview
        ? [
            heading(2, 'Existing Codebase'),
            paragraph(
              'This project changes an existing codebase. ',
              inlineCode(docPath(overview)),
              ' maps it as it was read (stack, components, routes, data model, tests), each fact with the path that shows it; read it, and check it against the code, before proposing a change.',
            ),
          ]
        : []),
      heading(2, 'Specs and Documents'),
      paragraph(
        'The functional requirements (FR-n) and their acceptance criteria are ',
        inlineCode(`openspec/specs/${projectSlug(project.name)}/spec.md`),
        ", the current truth. Every generated document ships as it is, listed below; the documents cite each other's IDs (FR-n, NFR-n, US-n, T-n), and so should changes, commits and tests. A requirement ID is never renumbered, and a removed one is never used again.",
      ),
      list(project.documents.map((doc) => [inlineCode(docPath(doc)), `: ${describe(doc)}`])),
    ]),
  );
}

/** `openspec/specs/<slug>/spec.md`: the requirement groups in OpenSpec's form. */
function specMd(data: ProjectCompleted, groups: readonly RequirementGroup[], source: string) {
  const { name } = data.project;
  const ids = groups.map((g) => cite(g.id));
  const range = ids.length === 1 ? [ids[0]!] : [ids[0]!, ' to ', ids.at(-1)!];
  return renderDocument(
    root([
      heading(1, `${name} Specification`),
      heading(2, 'Purpose'),
      paragraph(data.project.description),
      paragraph(
        `The functional requirements of ${name} (`,
        ...range,
        '), each with its acceptance criteria as scenarios, as ',
        inlineCode(source),
        ' states them; that document also holds the non-functional requirements (NFR-n), the personas and the key entities.',
      ),
      heading(2, 'Requirements'),
      ...groups.flatMap((group) => openspecRequirement(group, name)),
    ]),
  );
}

/**
 * The folder name of a revision's change: its number and the first six words of the change
 * request, in kebab-case.
 *
 * @example
 * changeName(3, 'Add reminders before each meeting, by email and push'); // '3-add-reminders-before-each-meeting-by'
 */
export function changeName(revision: number, changeRequest: string | null): string {
  const words = (changeRequest ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  // Six words, and no path segment longer than a filename should be.
  const slug = words.slice(0, 6).join('-').slice(0, 60).replace(/-+$/, '');
  return `${revision}-${slug || 'change'}`;
}

function proposalMd(record: RevisionRecord, name: string, specSlug: string): string {
  const changes = record.deltas.map((delta) => [
    ...(delta.op === 'removed' ? [strong('BREAKING'), ' '] : []),
    ...deltaContent(delta),
  ]);
  const documents = record.documentsChanged.map((f) =>
    inlineCode(`${OPENSPEC_DOCS}/${safeFilename(f)}`),
  );
  return renderDocument(
    root([
      heading(1, `Change: Revision ${record.revision} of ${name}`),
      heading(2, 'Why'),
      paragraph(`Revision ${record.revision} of ${name}, asked for on ${revisionDate(record)}:`),
      quote(record.changeRequest ?? '(no change request recorded)'),
      heading(2, 'What Changes'),
      list(changes.length > 0 ? changes : ['No requirement changes.']),
      heading(2, 'Impact'),
      list([
        ['Affected specs: ', inlineCode(specSlug)],
        [
          'Documents changed: ',
          ...(documents.length > 0
            ? documents.flatMap((d, i) => (i === 0 ? [d] : [', ', d]))
            : ['none']),
        ],
      ]),
    ]),
  );
}

type TextDelta = Extract<RequirementDelta, { op: 'added' | 'modified' }>;

/**
 * The full text of an ADDED or MODIFIED requirement as of its revision, as blocks: the
 * archived requirements document's group when no later revision touched the ID (so it is
 * still the text that revision wrote), else the delta's own text.
 */
function requirementText(
  delta: TextDelta,
  record: RevisionRecord,
  later: readonly RevisionRecord[],
  archived: ReadonlyMap<string, RequirementGroup>,
  name: string,
): RootContent[] {
  const touchedLater = later.some((r) => r.deltas.some((d) => d.id === delta.id));
  const group = touchedLater ? undefined : archived.get(delta.id);
  if (group) return openspecRequirement(group, name);
  // OpenSpec applies RENAMED first, so a MODIFIED block carries the new name.
  const renamed = record.deltas.find(
    (d): d is Extract<RequirementDelta, { op: 'renamed' }> =>
      d.op === 'renamed' && d.id === delta.id,
  );
  const title = renamed?.to ?? delta.title;
  const body = groupBody(delta.id, delta.text.split(/\r?\n/));
  return openspecRequirement({ id: delta.id, title, ...body }, name);
}

/**
 * A RENAMED entry's header as OpenSpec matches it, in a code span: `### Requirement: FR-3
 * <title>` (an ID or markup in a code span is text, so the title is written as it is).
 */
const header = (id: string, title: string) =>
  inlineCode(`### Requirement: ${title === '' ? id : `${id} ${title}`}`);

/** The delta spec of one revision: only the sections that have entries; undefined for none. */
function deltaSpecMd(
  record: RevisionRecord,
  later: readonly RevisionRecord[],
  archived: ReadonlyMap<string, RequirementGroup>,
  name: string,
): string | undefined {
  const of = <Op extends RequirementDelta['op']>(op: Op) =>
    record.deltas.filter((d): d is Extract<RequirementDelta, { op: Op }> => d.op === op);
  const renamed = of('renamed');
  const sections: [string, RootContent[]][] = [
    [
      'ADDED',
      of('added').flatMap((delta) => requirementText(delta, record, later, archived, name)),
    ],
    [
      'MODIFIED',
      of('modified').flatMap((delta) => requirementText(delta, record, later, archived, name)),
    ],
    [
      'REMOVED',
      of('removed').flatMap((d) => [
        heading(3, 'Requirement: ', ...requirementName(d.id, d.title)),
        paragraph(strong('Reason'), `: ${d.reason}`),
      ]),
    ],
    // One list of FROM/TO pairs, which OpenSpec reads line by line.
    [
      'RENAMED',
      renamed.length === 0
        ? []
        : [
            list(
              renamed.flatMap((d) => [
                ['FROM: ', header(d.id, d.from)],
                ['TO: ', header(d.id, d.to)],
              ]),
            ),
          ],
    ],
  ];
  const present = sections.filter(([, blocks]) => blocks.length > 0);
  if (present.length === 0) return undefined;
  return renderDocument(
    root(present.flatMap(([kind, blocks]) => [heading(2, `${kind} Requirements`), ...blocks])),
  );
}

/**
 * The `openspec` layout's own files, in zip order: `openspec/project.md`, the spec (when
 * the project has a requirements document with FR groups), then a change folder for each
 * revision from 2 on in `history` (oldest first).
 *
 * @example
 * openspecEntries(data, history).map((e) => e.path);
 * // ['openspec/project.md', 'openspec/specs/team-pulse/spec.md', 'openspec/changes/2-add-reminders/proposal.md', …]
 */
export function openspecEntries(
  data: ProjectCompleted,
  history: readonly RevisionRecord[] = [],
  /** The plan's tasks: each change gets a `tasks.md` of the work it added or reopened. */
  tasks: readonly ArchiveTask[] = [],
): ArchiveEntry[] {
  const { project } = data;
  const slug = projectSlug(project.name);
  const entries: ArchiveEntry[] = [{ path: 'openspec/project.md', content: projectMd(data) }];
  const requirements = project.documents.find((doc) => doc.type === 'product-requirements');
  const groups = requirements ? requirementGroups(requirements.content) : [];
  if (requirements && groups.length > 0) {
    entries.push({
      path: `openspec/specs/${slug}/spec.md`,
      content: specMd(data, groups, docPath(requirements)),
    });
  }
  const archived = new Map(groups.map((group) => [group.id, group]));
  const ordered = [...history].sort((a, b) => a.revision - b.revision);
  ordered.forEach((record, index) => {
    if (record.revision < 2) return;
    const folder = `openspec/changes/${changeName(record.revision, record.changeRequest)}`;
    entries.push({
      path: `${folder}/proposal.md`,
      content: proposalMd(record, project.name, slug),
    });
    const spec = deltaSpecMd(record, ordered.slice(index + 1), archived, project.name);
    if (spec !== undefined)
      entries.push({ path: `${folder}/specs/${slug}/spec.md`, content: spec });
    const work = record.tasks && [...record.tasks.added, ...record.tasks.reopened];
    const list = work ? openspecTasks(tasks, work) : undefined;
    if (list !== undefined) entries.push({ path: `${folder}/tasks.md`, content: list });
  });
  return entries;
}
