/** Small readings of Jira's wire formats, shared by the client and the webhook. */

/**
 * Jira's `2026-11-28T14:53:16.123+0000` as ISO 8601 in UTC, or undefined when it is not a time.
 *
 * @example jiraTime('2026-11-28T14:53:16.123+0100') // '2026-11-28T13:53:16.123Z'
 */
export function jiraTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Jira's offset has no colon; Date.parse reads it in V8, but ISO 8601 wants one.
  const time = Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** The site's address without a trailing slash, or undefined when it is missing. */
export function jiraSite(baseUrl: string | null | undefined): string | undefined {
  const site = baseUrl?.trim().replace(/\/+$/, '');
  return site ? site : undefined;
}
