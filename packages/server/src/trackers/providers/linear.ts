/**
 * The Linear tracker (docs/trackers.md#linear): a team's issues through `@linear/sdk`.
 *
 * @example
 * const client = linearAdapter.connect({ baseUrl: null, credentials: { token }, target: { team: 'ENG' } });
 * await client.verify(); // { team: 'ENG', teamId, teamKey: 'ENG', teamName }
 */
import { LinearTracker } from './linear/client.ts';
import { verifyLinearWebhook } from './linear/webhook.ts';
import type { TrackerAdapter } from './provider.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The Linear adapter: API key or OAuth token, a team by key (`ENG`) or id. */
export const linearAdapter: TrackerAdapter = {
  provider: 'linear',
  validate(credentials, target) {
    if (
      !isObject(credentials) ||
      typeof credentials.token !== 'string' ||
      !credentials.token.trim()
    ) {
      return 'Linear needs credentials { token }: a personal API key (lin_api_…) or an OAuth token';
    }
    if (!isObject(target) || typeof target.team !== 'string' || !target.team.trim()) {
      return 'Linear needs a target { team }: the team key (like ENG) or its id';
    }
    return undefined;
  },
  connect(options) {
    const team = 'team' in options.target ? options.target.team.trim() : '';
    return new LinearTracker(options, team);
  },
  verifyWebhook: verifyLinearWebhook,
  // Linear's settings page (Settings → API → Webhooks) makes its own signing secret and
  // cannot take ours, so the webhook is made with the API's webhookCreate, which can.
  webhookHelp:
    "Linear's webhook page makes its own secret, so create the webhook with Linear's API (the webhookCreate mutation, as in docs/trackers.md#linear) with this URL, this secret, the team's id and the Issue resource type; it then shows under Settings → API → Webhooks.",
};
