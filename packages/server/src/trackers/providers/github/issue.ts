/** GitHub's issue as the adapter reads it, apart so client.ts and relations.ts both name it. */

/** An issue as Octokit returns it, the fields the client reads. */
export interface GitHubIssue {
  id: number | bigint;
  number: number;
  html_url: string;
  state: string;
  title: string;
  body?: string | null;
  updated_at: string;
  labels: Array<string | { name?: string }>;
  pull_request?: unknown;
  parent_issue_url?: string | null;
}
