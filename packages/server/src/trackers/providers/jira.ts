/**
 * The Jira Cloud adapter (docs/trackers.md#jira): jira.js's cloud client (REST v3) with basic
 * authentication (an Atlassian account's email and API token), issues in one project. The
 * parts live under `jira/`: the client, ADF conversion, error mapping and the webhook.
 */
import { connectJira } from './jira/client.ts';
import { verifyJiraWebhook } from './jira/webhook.ts';
import { jiraSite } from './jira/wire.ts';
import type { TrackerAdapter } from './provider.ts';

// Jira project keys: an uppercase letter, then uppercase letters, digits or underscores.
const PROJECT_KEY = /^[A-Z][A-Z0-9_]{0,254}$/;

function validate(credentials: unknown, target: unknown, baseUrl?: string | null) {
  const { email, apiToken } = (credentials ?? {}) as { email?: unknown; apiToken?: unknown };
  if (typeof email !== 'string' || !email.includes('@')) {
    return 'Jira credentials need the Atlassian account\'s email: { "email", "apiToken" }';
  }
  if (typeof apiToken !== 'string' || apiToken.trim() === '') {
    return 'Jira credentials need an API token: { "email", "apiToken" }';
  }
  const { projectKey } = (target ?? {}) as { projectKey?: unknown };
  if (typeof projectKey !== 'string' || !PROJECT_KEY.test(projectKey)) {
    return 'A Jira target is { "projectKey" }, a project key such as "PGS"';
  }
  // Called with two arguments, the adapter cannot see the site; connect() then refuses it.
  if (baseUrl !== undefined && !jiraSite(baseUrl)) {
    return "Jira needs baseUrl, the site's address (https://your-site.atlassian.net)";
  }
  return undefined;
}

/**
 * Jira through jira.js: `validate` takes `{ email, apiToken }` and `{ projectKey }` (and, as
 * a third argument, the baseUrl Jira requires); `verify` returns the project's ids and issue
 * types to store with the connection.
 *
 * @example jiraAdapter.connect({ baseUrl: 'https://acme.atlassian.net', credentials, target }).verify()
 */
export const jiraAdapter: TrackerAdapter = {
  provider: 'jira',
  validate,
  connect: (options) => connectJira(options),
  verifyWebhook: verifyJiraWebhook,
  webhookHelp:
    'In Jira, Settings › System › WebHooks › Create a WebHook: paste this URL and secret, and tick Issue › updated.',
};
