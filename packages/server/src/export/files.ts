/**
 * What every layout of the archive shares: the shape of a file in the zip, safe names,
 * the plan a project was written to, and the markdown helpers that put a document under
 * another file's title.
 */
import type { ProjectType } from '@pgs/contract';
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

export const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * The markdown with every ATX heading one level down (`#` → `##`), outside fenced code
 * blocks; a level-6 heading stays level 6. Used to put a document under a combined file's
 * title.
 *
 * @example
 * demoteHeadings('# Title\n\n## Part'); // '## Title\n\n### Part'
 */
export function demoteHeadings(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (opening) {
        const marker = opening[1]!;
        if (fence === undefined) fence = marker;
        else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return line;
      }
      if (fence !== undefined) return line;
      return line.replace(/^( {0,3})(#{1,5})(?=[ \t]|$)/, '$1#$2');
    })
    .join('\n');
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
