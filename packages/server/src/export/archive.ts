import { Readable } from 'node:stream';
import {
  type ArchiveLayout,
  type DocumentKindName,
  type ProjectCompleted,
  type ProjectDocument,
  projectSlug,
} from '@pgs/contract';
import {
  heading,
  inertJson,
  neutraliseMarkdown,
  renderDocument,
  root,
} from '@pgs/contract/document';
import { Zip, ZipDeflate } from 'fflate';
import { agentsMd, MCP_DESIGN, MOBILE_DESIGN, WEB_DESIGN } from './agents.ts';
import { changelog, type RevisionRecord } from './changelog.ts';
import { type ArchiveEntry, demoteHeadings, safeFilename, withNewline } from './files.ts';
import { OPENSPEC_DOCS, openspecEntries } from './openspec.ts';
import { type ArchiveWork, kiroTasks, specKitTasks, tasksJson } from './tasks.ts';

export type { RevisionRecord } from './changelog.ts';
export { type ArchiveEntry, demoteHeadings } from './files.ts';
export type { ArchiveTask, ArchiveWork } from './tasks.ts';

/** What a layout puts in one file: one document as it is, or several under a title. */
interface Target {
  readonly path: string;
  /** The catalogue's kinds, so a misnamed one fails the build; one the plan lacks is skipped. */
  readonly kinds: readonly DocumentKindName[];
  /** Set for a file made of several documents: its own `# <title>: <name>` heading. */
  readonly title?: string;
}

/** How a layout arranges a project: its targets, then where the rest and project.json go. */
interface LayoutPlan {
  readonly targets: readonly Target[];
  /** Where a document no target takes goes (a kind added later is never dropped). */
  readonly rest: (filename: string) => string;
  readonly projectJson: string;
}

/** Documents that define an interface others call: spec-kit's `contracts/`. */
const CONTRACT_KINDS: readonly DocumentKindName[] = [
  'api-design',
  'mcp-tools',
  'mcp-resources-and-prompts',
];

function layoutPlan(layout: ArchiveLayout, slug: string): LayoutPlan {
  switch (layout) {
    case 'plain':
      return {
        targets: [],
        rest: (filename) => `${slug}/${filename}`,
        projectJson: `${slug}/project.json`,
      };
    case 'kiro': {
      const spec = `.kiro/specs/${slug}`;
      return {
        targets: [
          { path: '.kiro/steering/product.md', kinds: ['project-brief'] },
          // Kiro's steering file for how the codebase is organised: what the overview maps.
          { path: '.kiro/steering/structure.md', kinds: ['codebase-overview'] },
          {
            path: `${spec}/requirements.md`,
            title: 'Requirements Document',
            kinds: ['product-requirements', 'user-stories'],
          },
          {
            path: `${spec}/design.md`,
            title: 'Design Document',
            kinds: ['architecture', ...WEB_DESIGN, ...MOBILE_DESIGN, ...MCP_DESIGN],
          },
          { path: `${spec}/tasks.md`, kinds: ['implementation-plan'] },
          { path: 'README.md', kinds: ['readme'] },
        ],
        rest: (filename) => `${spec}/${filename}`,
        projectJson: `${spec}/project.json`,
      };
    }
    case 'spec-kit': {
      const spec = `specs/001-${slug}`;
      return {
        targets: [
          {
            path: `${spec}/spec.md`,
            title: 'Feature Specification',
            kinds: ['project-brief', 'product-requirements', 'user-stories'],
          },
          {
            path: `${spec}/plan.md`,
            title: 'Implementation Plan',
            kinds: ['architecture', ...MOBILE_DESIGN, 'mcp-transport-and-clients'],
          },
          { path: `${spec}/data-model.md`, kinds: ['data-model'] },
          ...CONTRACT_KINDS.map((kind) => ({
            path: `${spec}/contracts/${kind}.md`,
            kinds: [kind],
          })),
          { path: `${spec}/tasks.md`, kinds: ['implementation-plan'] },
          { path: 'README.md', kinds: ['readme'] },
        ],
        rest: (filename) => `${spec}/${filename}`,
        projectJson: `${spec}/project.json`,
      };
    }
    case 'agents':
      return {
        targets: [],
        rest: (filename) => `docs/${filename}`,
        projectJson: 'docs/project.json',
      };
    // openspec.ts writes the layout's own files; every document also ships as it is.
    case 'openspec':
      return {
        targets: [{ path: 'README.md', kinds: ['readme'] }],
        rest: (filename) => `${OPENSPEC_DOCS}/${filename}`,
        projectJson: `${OPENSPEC_DOCS}/project.json`,
      };
    default: {
      const never: never = layout;
      throw new Error(`unknown archive layout ${String(never)}`);
    }
  }
}

/**
 * Several documents under one title: the title a heading of the document model (the name in
 * it is text, escaped), then each document as it is written, its headings one level down.
 */
function combine(title: string, name: string, docs: readonly ProjectDocument[]): string {
  return [
    renderDocument(root([heading(1, `${title}: ${name}`)])),
    ...docs.map((doc) => withNewline(demoteHeadings(doc.content))),
  ].join('\n');
}

/** Kiro's and spec-kit's `tasks.md` from the plan's tasks, when the target is the plan and it has some. */
function taskList(
  layout: ArchiveLayout,
  name: string,
  target: Target,
  work: ArchiveWork | undefined,
): string | undefined {
  if (work === undefined || !target.kinds.includes('implementation-plan')) return undefined;
  if (!work.tasks.some((task) => task.status !== 'obsolete')) return undefined;
  if (layout === 'kiro') return kiroTasks(name, work.tasks);
  if (layout === 'spec-kit') return specKitTasks(name, work.tasks);
  return undefined;
}

/** `project.json`: the project as the status response has it, without the documents. */
export function projectJson(data: ProjectCompleted): string {
  const { documents: _documents, ...project } = data.project;
  return `${JSON.stringify({ projectId: data.projectId, ...project, metadata: data.metadata }, null, 2)}\n`;
}

/**
 * The files of a completed project's archive in a layout, in the order they are zipped.
 * Pure: the same project and layout always give the same entries (docs/api.md has the table).
 * With `history` (the completed revisions up to the archived one, oldest first) every layout
 * also carries `CHANGELOG.md` beside `project.json`, and `openspec` a change folder per
 * revision after the first; without it, the entries are those of a project never revised.
 *
 * @example
 * archiveEntries(data, 'kiro').map((e) => e.path);
 * // ['.kiro/steering/product.md', '.kiro/specs/teampulse/requirements.md', …]
 */
export function archiveEntries(
  data: ProjectCompleted,
  layout: ArchiveLayout,
  trace?: string,
  history?: readonly RevisionRecord[],
  /** The plan's tasks: checkbox lists in kiro, spec-kit and openspec, and tasks.json when live. */
  work?: ArchiveWork,
): ArchiveEntry[] {
  const { project } = data;
  const plan = layoutPlan(layout, projectSlug(project.name));
  const entries: ArchiveEntry[] = [];
  if (layout === 'agents') entries.push({ path: 'AGENTS.md', content: agentsMd(data) });
  if (layout === 'openspec') entries.push(...openspecEntries(data, history, work?.tasks));
  const taken = new Set<string>();
  for (const target of plan.targets) {
    // Documents in the project's order (the workflow's), whatever the target lists first.
    const docs = project.documents.filter((doc) =>
      (target.kinds as readonly string[]).includes(doc.type),
    );
    if (docs.length === 0) continue;
    // The plan's tasks as the tool's checkbox list; the plan itself then ships beside it.
    const checklist = taskList(layout, project.name, target, work);
    if (checklist !== undefined) {
      entries.push({ path: target.path, content: checklist });
      continue;
    }
    for (const doc of docs) taken.add(doc.type);
    const content =
      target.title === undefined && docs.length === 1
        ? docs[0]!.content
        : combine(target.title ?? 'Documents', project.name, docs);
    entries.push({ path: target.path, content });
  }
  for (const doc of project.documents) {
    if (!taken.has(doc.type)) {
      entries.push({ path: plan.rest(safeFilename(doc.filename)), content: doc.content });
    }
  }
  entries.push({ path: plan.projectJson, content: projectJson(data) });
  // The trace graph beside project.json (the body of GET …/trace, docs/trace.md).
  if (trace !== undefined) {
    entries.push({
      path: plan.projectJson.replace(/project\.json$/, 'trace.json'),
      content: trace,
    });
  }
  // The work on the plan as it stands (live state: the current revision's archive only).
  if (work?.json !== undefined) {
    entries.push({
      path: plan.projectJson.replace(/project\.json$/, 'tasks.json'),
      content: tasksJson(work.json),
    });
  }
  // Beside project.json rather than at the root: a repository unzipped into keeps its own
  // CHANGELOG.md (of the code) untouched.
  if (history !== undefined) {
    entries.push({
      path: plan.projectJson.replace(/project\.json$/, 'CHANGELOG.md'),
      content: changelog(project.name, history),
    });
  }
  return entries.map(inert);
}

/**
 * An entry with nothing of the user's text active in it (docs/security.md): documents stored
 * before they were neutralised, the name in every heading, the definition in project.json.
 */
function inert(entry: ArchiveEntry): ArchiveEntry {
  if (entry.path.endsWith('.md')) return { ...entry, content: neutraliseMarkdown(entry.content) };
  if (entry.path.endsWith('.json')) return { ...entry, content: inertJson(entry.content) };
  return entry;
}

/** When the archive's files are dated: the last document's generation (a stable date). */
export function archiveDate(data: ProjectCompleted): Date {
  const times = data.project.documents.map((doc) => Date.parse(doc.generated_at));
  // ZIP dates start in 1980; a project with no documents is dated then.
  return new Date(Math.max(Date.UTC(1980, 0, 2), ...times.filter(Number.isFinite)));
}

const CHUNK_BYTES = 64 * 1024;

/** The zip's bytes as they are produced, one file at a time (fflate, deflate level 6). */
function* zipChunks(entries: readonly ArchiveEntry[], mtime: Date): Generator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  };
  const encoder = new TextEncoder();
  for (const entry of entries) {
    const file = new ZipDeflate(entry.path, { level: 6 });
    file.mtime = mtime;
    zip.add(file);
    const bytes = encoder.encode(entry.content);
    if (bytes.length === 0) file.push(bytes, true);
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      file.push(bytes.subarray(at, at + CHUNK_BYTES), at + CHUNK_BYTES >= bytes.length);
      yield* drain();
    }
  }
  zip.end();
  yield* drain();
}

/**
 * A zip of the entries as a byte stream: each part is sent as soon as it is compressed and
 * the stream is pulled (backpressure), so the whole archive is never held in memory.
 *
 * @example
 * reply.type('application/zip').send(zipStream(archiveEntries(data, 'plain'), archiveDate(data)));
 */
export function zipStream(entries: readonly ArchiveEntry[], mtime: Date): Readable {
  return Readable.from(zipChunks(entries, mtime), { objectMode: false });
}
