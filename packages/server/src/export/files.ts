/**
 * What every layout of the archive shares: the shape of a file in the zip, safe names,
 * the plan a project was written to, and the markdown helpers that put a document under
 * another file's title.
 */
import type { ProjectType } from '@pgs/contract';
import { documentTitle, parseDocument, visit } from '@pgs/contract/document';
import { CODEBASE_OVERVIEW_KIND, type DocumentKind, documentPlan } from '../runs/catalogue.ts';

/** One file of an archive: its path inside the zip and its text. */
export interface ArchiveEntry {
  readonly path: string;
  readonly content: string;
}

/** A stored filename as a zip path segment: nothing that could climb out of its folder. */
export function safeFilename(filename: string): string {
  const cleaned = filename.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '');
  return cleaned === '' ? 'document.md' : cleaned;
}

/**
 * A document's title (its first `#` heading), read from its tree.
 *
 * @example
 * titleOf('# Project brief\n\nText'); // 'Project brief'
 */
export const titleOf = (markdown: string): string | undefined =>
  documentTitle(parseDocument(markdown, { defines: [], components: false }));

export const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * The markdown with every ATX heading one level down (`#` → `##`), code blocks untouched; a
 * level-6 heading stays level 6. Used to put a document under a combined file's title. The
 * headings are the document tree's (`@pgs/contract/document`); the text is edited at their
 * positions, so everything else stays as written.
 *
 * @example
 * demoteHeadings('# Title\n\n## Part'); // '## Title\n\n### Part'
 */
export function demoteHeadings(markdown: string): string {
  const marks: number[] = [];
  visit(parseDocument(markdown, { defines: [] }), (node) => {
    const start = node.position?.start.offset;
    // A setext heading (`Title` over `===`) has no marks to add to.
    if (node.type === 'heading' && node.depth < 6 && start !== undefined && markdown[start] === '#')
      marks.push(start);
  });
  let out = markdown;
  for (const at of marks.reverse()) out = `${out.slice(0, at)}#${out.slice(at)}`;
  return out;
}

/**
 * The plan a completed project's documents were written to. A project grounded in a
 * codebase is the one with a codebase overview (its architecture then opens with "Current
 * system"); the status body the archive is made from does not say it otherwise.
 *
 * @example
 * projectPlan(data.project).find((kind) => kind.kind === 'architecture')?.sections[0];
 */
export function projectPlan(project: {
  type: ProjectType;
  documents: readonly { type: string }[];
}): readonly DocumentKind[] {
  const grounded = project.documents.some((doc) => doc.type === CODEBASE_OVERVIEW_KIND);
  return documentPlan(project.type, { grounded });
}
