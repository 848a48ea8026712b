import type { Connection, CreateConnectionRequest, TrackerProvider } from '@pgs/client';

/** What the Connections form holds, as typed. */
export interface ConnectionForm {
  provider: TrackerProvider;
  name: string;
  /** GitHub: `owner/repo`. */
  repo: string;
  /** Linear: the team's key or id. */
  team: string;
  /** Jira: the site and the project key and the account's email. */
  site: string;
  projectKey: string;
  email: string;
  /** GitHub Enterprise Server's API address (optional). */
  apiUrl: string;
  /** The token (Jira: the API token); sent once, never kept by the console. */
  token: string;
}

/** An empty form for a provider. */
export const emptyForm = (provider: TrackerProvider = 'github'): ConnectionForm => ({
  provider,
  name: '',
  repo: '',
  team: '',
  site: '',
  projectKey: '',
  email: '',
  apiUrl: '',
  token: '',
});

/** The providers as people call them. */
export const PROVIDER_LABELS: Readonly<Record<TrackerProvider, string>> = {
  github: 'GitHub',
  linear: 'Linear',
  jira: 'Jira',
};

/**
 * The request a form makes, or what is missing in plain words.
 *
 * @example
 * connectionRequest({ ...emptyForm('linear'), team: 'ENG', token: 'lin_api_…' });
 * // { ok: true, request: { provider: 'linear', credentials: { token }, target: { team: 'ENG' } } }
 */
export function connectionRequest(
  form: ConnectionForm,
): { ok: true; request: CreateConnectionRequest } | { ok: false; problem: string } {
  const token = form.token.trim();
  const name = form.name.trim();
  const named = name === '' ? {} : { name };
  if (token === '') return { ok: false, problem: 'Paste the token PGS should act with.' };
  switch (form.provider) {
    case 'github': {
      const [owner, repo, ...rest] = form.repo.trim().split('/');
      if (!owner || !repo || rest.length > 0) {
        return { ok: false, problem: 'Write the repository as owner/repo, e.g. acme/booking.' };
      }
      const apiUrl = form.apiUrl.trim();
      return {
        ok: true,
        request: {
          provider: 'github',
          ...named,
          ...(apiUrl === '' ? {} : { baseUrl: apiUrl }),
          credentials: { token },
          target: { owner, repo },
        },
      };
    }
    case 'linear': {
      const team = form.team.trim();
      if (team === '') return { ok: false, problem: "Write the team's key, e.g. ENG." };
      return {
        ok: true,
        request: { provider: 'linear', ...named, credentials: { token }, target: { team } },
      };
    }
    case 'jira': {
      const site = form.site.trim();
      const projectKey = form.projectKey.trim();
      const email = form.email.trim();
      if (site === '' || projectKey === '' || email === '') {
        return {
          ok: false,
          problem: 'Jira needs the site, the project key and the email the API token belongs to.',
        };
      }
      return {
        ok: true,
        request: {
          provider: 'jira',
          ...named,
          baseUrl: site,
          credentials: { email, apiToken: token },
          target: { projectKey },
        },
      };
    }
  }
}

/**
 * What a connection points at, as people read it.
 *
 * @example
 * targetText(connection); // 'acme/booking'
 */
export function targetText(connection: Pick<Connection, 'target' | 'baseUrl'>): string {
  const { owner, repo, team, projectKey } = connection.target;
  const what = owner && repo ? `${owner}/${repo}` : (team ?? projectKey ?? '');
  return connection.baseUrl ? `${what} on ${connection.baseUrl}` : what;
}
