/**
 * The change request a conformance check suggests (docs/conformance.md): the sentences that
 * would bring the spec to the code, ready to send as a revision's `changeRequest`, whose
 * limit (4,000 characters) it keeps.
 */
import type { ConformanceReport } from '@pgs/contract';

/** createRevision's `changeRequest` limit. */
export const MAX_CHANGE_REQUEST = 4_000;
/** Items named per kind; the rest are counted, so the request stays readable. */
const MAX_NAMED = 12;

type Drift = ConformanceReport['drift'];

/** `a, b and c`, with `and N more` past {@link MAX_NAMED}. */
function listed(items: readonly string[]): string {
  const named = items.slice(0, MAX_NAMED);
  const more = items.length - named.length;
  const all = more > 0 ? [...named, `${more} more`] : named;
  return all.length === 1 ? all[0]! : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}

/** Characters a path or name may take in the request: one odd file name cannot fill it. */
const short = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);

/**
 * A change request describing what the code has and the spec does not, or null when the
 * drift is empty. One sentence per kind, naming each item and the file that shows it.
 *
 * @example
 * suggestedChange({ routes: [{ method: 'GET', path: '/admin/export', file: 'src/admin.ts' }], tables: [], components: [] });
 * // 'Describe what the code already does and the requirements do not cover: add requirements for the routes GET /admin/export (src/admin.ts).'
 */
export function suggestedChange(drift: Drift): string | null {
  const parts: string[] = [];
  if (drift.routes.length > 0) {
    const routes = drift.routes.map((r) => short(`${r.method} ${r.path} (${r.file})`));
    parts.push(`add requirements for the routes ${listed(routes)}`);
  }
  if (drift.tables.length > 0) {
    const tables = drift.tables.map((t) => short(`${t.name} (${t.file})`));
    parts.push(`describe the tables ${listed(tables)} in the data model`);
  }
  if (drift.components.length > 0) {
    const components = drift.components.map((c) => short(`${c.name} (${c.path})`));
    parts.push(`cover the components ${listed(components)} in the architecture`);
  }
  if (parts.length === 0) return null;
  const sentence = `Describe what the code already does and the requirements do not cover: ${parts.join('; ')}.`;
  return sentence.length <= MAX_CHANGE_REQUEST
    ? sentence
    : `${sentence.slice(0, MAX_CHANGE_REQUEST - 1)}…`;
}
