/** A screen of the console, read from the URL's hash. */
export type Route =
  | { name: 'projects' }
  | { name: 'new' }
  | { name: 'connections' }
  | { name: 'conventions' }
  | { name: 'project'; projectId: string }
  | { name: 'sync'; projectId: string }
  | { name: 'not-found'; hash: string };

/**
 * Reads a hash (`#/`, `#/new`, `#/projects/<id>`) as a route. Hash routing keeps every
 * screen at `/` for the server, so it needs no fallback and unknown paths keep their 404.
 *
 * @example
 * parseHash('#/projects/0b6f…'); // { name: 'project', projectId: '0b6f…' }
 */
export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  if (path === '' || path === '/') return { name: 'projects' };
  if (path === '/new') return { name: 'new' };
  if (path === '/connections') return { name: 'connections' };
  if (path === '/conventions') return { name: 'conventions' };
  const match = /^\/projects\/([^/]+)(\/sync)?\/?$/.exec(path);
  if (match?.[1]) {
    try {
      const projectId = decodeURIComponent(match[1]);
      return match[2] ? { name: 'sync', projectId } : { name: 'project', projectId };
    } catch {
      return { name: 'not-found', hash };
    }
  }
  return { name: 'not-found', hash };
}

/** The hash of a project's screen. @example projectHref('0b6f…'); // '#/projects/0b6f…' */
export function projectHref(projectId: string): string {
  return `#/projects/${encodeURIComponent(projectId)}`;
}

/** The hash of a project's Sync screen. @example syncHref('0b6f…'); // '#/projects/0b6f…/sync' */
export function syncHref(projectId: string): string {
  return `${projectHref(projectId)}/sync`;
}

/** The hash of the projects list. @example location.hash = PROJECTS_HREF; */
export const PROJECTS_HREF = '#/';
/** The hash of the new-project form. @example <a href={NEW_PROJECT_HREF}>New project</a> */
export const NEW_PROJECT_HREF = '#/new';
/** The hash of the tracker connections. @example <a href={CONNECTIONS_HREF}>Connections</a> */
export const CONNECTIONS_HREF = '#/connections';
/** The hash of the house conventions. @example <a href={CONVENTIONS_HREF}>Conventions</a> */
export const CONVENTIONS_HREF = '#/conventions';
