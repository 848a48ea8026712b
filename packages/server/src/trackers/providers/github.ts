/**
 * The GitHub adapter (docs/trackers.md#github): a repository's issues through Octokit, on
 * github.com or GitHub Enterprise Server (`baseUrl`). The client is in `github/client.ts`,
 * parents and blockers in `github/relations.ts`, Octokit and its failures in
 * `github/octokit.ts`, webhook deliveries in `github/webhook.ts`.
 */
import { GitHubClient } from './github/client.ts';
import { createOctokit } from './github/octokit.ts';
import { verifyGitHubDelivery } from './github/webhook.ts';
import type { TrackerAdapter } from './provider.ts';

// GitHub's rules: an account is 1-39 letters, digits and single hyphens, neither first nor
// last (an Enterprise Managed User adds `_shortcode`); a repository name is up to 100
// letters, digits, `.`, `-` and `_`, and not `.` or `..`.
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:_[A-Za-z0-9]+)?$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * GitHub Issues as a tracker.
 *
 * @example adapterFor('github')?.connect({ baseUrl: null, credentials: { token }, target: { owner: 'acme', repo: 'app' } })
 */
export const githubAdapter: TrackerAdapter = {
  provider: 'github',

  validate(credentials, target) {
    const token = record(credentials)?.token;
    if (typeof token !== 'string' || token.trim() === '') {
      return 'GitHub credentials are { token }: a fine-grained or classic personal access token';
    }
    if (/\s/.test(token) || token.length > 1000) return 'the GitHub token is not a token';
    const where = record(target);
    const owner = where?.owner;
    const repo = where?.repo;
    if (typeof owner !== 'string' || !OWNER.test(owner)) {
      return 'a GitHub target is { owner, repo }: owner is a GitHub account or organisation name';
    }
    if (typeof repo !== 'string' || !REPO.test(repo) || repo === '.' || repo === '..') {
      return 'a GitHub target is { owner, repo }: repo is a repository name (letters, digits, ".", "-", "_")';
    }
    return undefined;
  },

  connect({ baseUrl, credentials, target, timeoutMs, fetch }) {
    if (!('token' in credentials) || !('owner' in target)) {
      throw new TypeError('a GitHub connection needs { token } and { owner, repo }');
    }
    const octokit = createOctokit({
      baseUrl,
      token: credentials.token,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(fetch ? { fetch } : {}),
    });
    return new GitHubClient(octokit, target);
  },

  verifyWebhook: verifyGitHubDelivery,

  webhookHelp:
    'In the repository, open Settings → Webhooks → Add webhook, paste the payload URL, choose ' +
    'content type application/json, paste the secret, and select "Let me select individual ' +
    'events" → Issues.',
};
