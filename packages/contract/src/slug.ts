/** The longest slug `downloadProjectArchive` names an archive with. */
export const MAX_SLUG_LENGTH = 50;

/**
 * The slug the contract names a project's archive with (`downloadProjectArchive`:
 * `Content-Disposition: attachment; filename="<slug>.zip"`): the project's name in
 * kebab-case, lower-case ASCII letters and digits (accents dropped, anything else a
 * separator), at most 50 characters, `project` when nothing is left. The server names the
 * archive with it, and clients name what they save after the same rule.
 *
 * @example
 * projectSlug('Café Compost Circle!'); // 'cafe-compost-circle'
 */
export function projectSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
  return slug === '' ? 'project' : slug;
}
