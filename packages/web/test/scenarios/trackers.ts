import type { ProjectCompleted, ProjectSync, Task } from '@pgs/client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../../server/test/fakes/github.ts';
import { auditScreen } from '../helpers/axe.ts';
import { signIn, waitForFocusedHeading, waitForStatus, waitForText } from '../helpers/console.ts';
import type { Suite } from '../helpers/suite.ts';

const CONNECTION = 'Booking repo';

/**
 * A project pushed to GitHub from the console, against the real server and a fake GitHub on
 * loopback that Octokit talks to as to GitHub (the server runs with
 * `PGS_CONNECTIONS_ALLOW_PRIVATE=true`): connecting on the Connections page (the webhook shown
 * once, the token field emptied), a Preview that lists what would be created and creates
 * nothing, a Sync whose items link to the issues made, and each task's issue on its card.
 * Starts and ends signed out.
 */
export function trackers(current: () => Suite): void {
  let suite: Suite;
  let page: Page;
  let github: FakeGitHub;
  let projectId: string;
  let name: string;
  let tasks: Task[];

  const summary = () => page.getByTestId('sync-summary');
  const rows = (label: string) =>
    page.getByRole('table', { name: label }).locator('tbody').getByRole('row');
  /** The result table as the page shows it: item, action and the issue's link (or text). */
  const shown = (label: string) =>
    rows(label).evaluateAll((each) =>
      each.map((row) => {
        const [item, action, issue] = Array.from(row.children) as HTMLElement[];
        const link = issue?.querySelector('a');
        return {
          id: item?.innerText.trim(),
          action: action?.innerText.trim(),
          issue: link ? { text: link.innerText.trim(), href: link.href } : issue?.innerText.trim(),
        };
      }),
    );
  const latestSync = async (): Promise<ProjectSync> => {
    const [latest] = await suite.server.pgs.projects.syncs.list(projectId);
    if (latest === undefined) throw new Error('the project has no sync');
    return latest;
  };

  beforeAll(async () => {
    suite = current();
    page = suite.page;
    github = await startFakeGitHub();
  });
  afterAll(async () => {
    await github?.close();
  });

  it('connects a GitHub repository, showing its webhook once and keeping no token', async () => {
    const { pgs } = suite.server;
    ({ projectId } = await pgs.projects.create({
      idea: 'A seed swap for allotment holders who trade seeds and seedlings each spring',
      simulate: { outcome: 'completed', durationMs: 500 },
    }));
    const done = (await pgs.projects.waitForCompletion(projectId, {
      pollIntervalMs: 200,
    })) as ProjectCompleted;
    name = done.project.name;
    tasks = await pgs.projects.tasks.list(projectId);

    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, suite.server.testKey);
    await page.getByRole('link', { name: 'Connections' }).click();
    await waitForFocusedHeading(page, 'Connections');
    const { owner, repo } = github.target as { owner: string; repo: string };
    await page.getByLabel('Repository (owner/repo)').fill(`${owner}/${repo}`);
    await page.getByLabel('GitHub Enterprise Server API (optional)').fill(github.baseUrl);
    await page.getByLabel('Name (optional)').fill(CONNECTION);
    const token = page.getByLabel('Token', { exact: true });
    await token.fill((github.credentials as { token: string }).token);
    await page.getByRole('button', { name: 'Connect' }).click();

    const webhook = page.getByRole('region', {
      name: `Connected ${CONNECTION}: set up the webhook`,
    });
    await webhook.waitFor();
    expect(await webhook.getByRole('heading').evaluate((h) => h === document.activeElement)).toBe(
      true,
    );
    expect(await webhook.innerText()).toMatch(/Secret\s+\S{16,}/);
    expect(await token.inputValue()).toBe('');
    const row = page.getByRole('table', { name: 'Connections' }).getByRole('row', {
      name: new RegExp(CONNECTION),
    });
    expect(await row.innerText()).toContain(`${owner}/${repo} on ${github.baseUrl}`);
  });

  it('previews a sync, creating nothing, then syncs and links each item to its issue', async () => {
    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'Completed');
    await page.getByRole('link', { name: 'Sync to a tracker' }).click();
    await waitForFocusedHeading(page, `Sync ${name}`);
    expect(
      await page.getByLabel('Connection', { exact: true }).locator('option:checked').innerText(),
    ).toContain(CONNECTION);
    expect(await page.getByRole('radio', { name: 'Tasks', exact: true }).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Preview' }).click();
    await waitForText(summary(), `Would create ${tasks.length}.`);
    const preview = await latestSync();
    expect(preview).toMatchObject({ dryRun: true, status: 'succeeded', scope: 'tasks' });
    expect(await shown('What a sync would do')).toEqual(
      preview.items.map((item) => ({ id: item.id, action: 'Would create', issue: '—' })),
    );
    expect(preview.items.map((item) => item.id)).toEqual(tasks.map((task) => task.id));
    expect(github.issues()).toEqual([]);
    expect(await auditScreen(page, 'project-sync-preview')).toEqual([]);

    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await waitForText(summary(), `Created ${tasks.length}.`);
    const sync = await latestSync();
    expect(sync).toMatchObject({ dryRun: false, status: 'succeeded' });
    const issues = github.issues();
    expect(issues).toHaveLength(tasks.length);
    expect(await shown('What the sync did')).toEqual(
      sync.items.map((item) => ({
        id: item.id,
        action: 'Created',
        issue: { text: item.externalId, href: item.url },
      })),
    );
    expect(sync.items.map((item) => item.url).sort()).toEqual(issues.map((i) => i.url).sort());
  });

  it("shows each task's issue on its card", async () => {
    const { pgs } = suite.server;
    const listed = await pgs.projects.tasks.list(projectId);
    const sync = await latestSync();
    // The task JSON carries `links` once the server sends them; until then the listing is
    // answered with the links this sync made, so the card's rendering is what is checked.
    const served = listed.some((task) => 'links' in task);
    if (!served) {
      await page.route(`**/api/v1/projects/${projectId}/tasks*`, async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { data: Task[] };
        for (const task of body.data) {
          const item = sync.items.find((each) => each.id === task.id);
          Object.assign(task, {
            links: item
              ? [
                  {
                    provider: 'github',
                    connectionId: sync.connectionId,
                    externalId: item.externalId,
                    url: item.url,
                    state: 'open',
                  },
                ]
              : [],
          });
        }
        await route.fulfill({ response, json: body });
      });
    }
    try {
      await page.getByRole('link', { name: 'Back to the project' }).click();
      await waitForStatus(page, 'Completed');
      const first = sync.items[0]!;
      const link = page
        .locator(`[data-task="${first.id}"]`)
        .getByRole('link', { name: new RegExp(`^${first.id} on GitHub #${first.externalId}`) });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(first.url);
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    } finally {
      if (!served) await page.unroute(`**/api/v1/projects/${projectId}/tasks*`);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}
