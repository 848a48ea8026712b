/**
 * The codebase overview of a grounded project: what the digest shows of the code it changes,
 * each fact with the path it was read from (codebase/render.ts writes the sections).
 */
import type { CodebaseOverviewSection } from '../codebase/index.ts';
import { p } from '../text/nodes.ts';
import { NOT_FOUND, overview } from './grounded.ts';
import type { KindWriter, SectionWriter } from './kind.ts';

/** A section as the codebase reader rendered it. */
const rendered =
  (section: CodebaseOverviewSection): SectionWriter =>
  (f) =>
    overview(f).get(section) ?? [p`${section}: ${NOT_FOUND}.`];

/**
 * The writers of Codebase Overview (CODEBASE_OVERVIEW.md): one per section of the catalogue's
 * `codebase-overview`, so a section missing or renamed there fails the build.
 */
export const CODEBASE_OVERVIEW = {
  purpose:
    'This overview maps the codebase it changes as the digest shows it, each fact with its path',
  sections: {
    Summary: rendered('Summary'),
    Stack: rendered('Stack'),
    Components: rendered('Components'),
    'Data stores and external services': rendered('Data stores and external services'),
    'Entry points and routes': rendered('Entry points and routes'),
    'Data model': rendered('Data model'),
    'Tests and conventions': rendered('Tests and conventions'),
    'Where a change lands': rendered('Where a change lands'),
  },
} satisfies KindWriter<'codebase-overview'>;
