import { Pgs, type ProjectCompleted, RateLimitError } from '@pgs/client';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { auditScreen, axeViolations } from '../helpers/axe.ts';
import {
  banner,
  numberAfter,
  openDocumentTab,
  signIn,
  storage,
  titleOf,
  waitForCredits,
  waitForFocusedHeading,
  waitForStatus,
} from '../helpers/console.ts';
import type { Suite } from '../helpers/suite.ts';

/**
 * A project name is carried verbatim into the offline engine's documents ("# Project Brief:
 * <name>" and its paragraphs), so the real server hands the console markdown with raw HTML
 * in it, as a model's output might be. Each payload sets a global only if it runs.
 */
const HTML_NAME = '<script>window.__pgsXss=1</script><img src=x onerror=window.__pgsXss=2>';
const LINK_NAME = '[js link](javascript:window.__pgsXss=3) [site](https://example.com/pgs)';

/**
 * What goes wrong, and what must never: a bad key, too few credits, too many requests,
 * cancelling a long run, markdown that tries to run script, and (last, since it stops the
 * server) a server that went away.
 */
export function errorsAndSafety(current: () => Suite): void {
  let suite: Suite;
  let page: Page;

  beforeAll(() => {
    suite = current();
    page = suite.page;
  });

  it('refuses a bad key in plain words and keeps nothing', async () => {
    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    // Well formed, so the server (not a format check in the page) is what refuses it.
    await page.getByLabel('API key').fill(`pgs_test_${'A1b2C3d4E5'.repeat(4)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
    expect(await storage(page)).toEqual({ session: {}, local: 0 });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows the mode of the key: Live mode for a live key', async () => {
    const live = await suite.server.admin.keys.create({ mode: 'live', credits: 25 });
    suite.guardSecret(live.key);
    await signIn(page, live.key);
    await banner(page).getByText('Live mode', { exact: true }).waitFor();
    expect(await banner(page).getByText('Test mode', { exact: true }).count()).toBe(0);
    await waitForCredits(page, { balance: 25, reserved: 0 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });

  it('says how many credits are missing: the price and the balance', async () => {
    const poor = await suite.server.admin.keys.create({ mode: 'test', credits: 10 });
    suite.guardSecret(poor.key);
    await signIn(page, poor.key);
    await waitForCredits(page, { balance: 10, reserved: 0 });

    await page.getByRole('link', { name: 'New project' }).click();
    await waitForFocusedHeading(page, 'New project');
    await page.getByLabel('Idea').fill('A booking tool for neighbourhood tool libraries');
    await page.getByLabel('Type').selectOption({ label: 'Web' });
    const price = await numberAfter(page.getByText(/Price: \d+ credits/).last(), 'Price:');
    expect(price).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Generate' }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'Not enough credits' });
    await alert.waitFor();
    const numbers = ((await alert.innerText()).match(/\d+/g) ?? []).map(Number);
    expect(numbers).toContain(price);
    expect(numbers).toContain(10);
    expect(await axeViolations(page)).toEqual([]);
    // Nothing was created for that account.
    const poorClient = new Pgs({ apiKey: poor.key, baseUrl: suite.server.baseUrl });
    expect((await poorClient.projects.list()).data).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });

  it('counts down from retry_after when too many projects were asked for; pages the list', async () => {
    const busy = await suite.server.admin.keys.create({ mode: 'test', credits: 5_000 });
    suite.guardSecret(busy.key);
    const client = new Pgs({ apiKey: busy.key, baseUrl: suite.server.baseUrl, maxRetries: 0 });
    // Spend the key's allowance of creations with runs that fail at once (and refund), ten
    // at a time, until the server itself refuses: the test does not hard-code the limit.
    const create = () =>
      client.projects
        .create({
          idea: 'A ride-share board for parents driving children to sports practice',
          simulate: { outcome: 'failed', durationMs: 0 },
        })
        .then(
          () => false,
          (error: unknown) => {
            if (error instanceof RateLimitError) return true;
            throw error;
          },
        );
    await waitFor(
      async () =>
        (await Promise.all(Array.from({ length: 10 }, create))).some(Boolean) || undefined,
      { timeoutMs: 60_000, intervalMs: 0, what: 'the creation limit to be reached' },
    );

    await signIn(page, busy.key);
    await page.getByRole('link', { name: 'New project' }).click();
    await waitForFocusedHeading(page, 'New project');
    await page.getByLabel('Idea').fill('A ride-share board for parents driving children to games');
    await page.getByRole('button', { name: 'Generate' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Too many requests' });
    const secondsLeft = async () => {
      const match = /Try again in (\d+) s/.exec(await alert.innerText());
      return match === null ? undefined : Number(match[1]);
    };
    const first = await waitFor(secondsLeft, { what: '"Try again in <n> s"' });
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(60);
    await waitFor(async () => ((await secondsLeft()) ?? first) < first || undefined, {
      timeoutMs: 5_000,
      what: 'the countdown to go down',
    });

    // The key now has more projects than one page holds: page through them as the API does.
    const firstPage = await client.projects.list({ limit: 20 });
    const secondPage = (await firstPage.nextPage())!;
    expect(secondPage.data.length).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await waitForFocusedHeading(page, 'Projects');
    const rows = page.getByRole('table', { name: 'Projects' }).getByRole('link');
    const shows = (ids: string[], what: string) =>
      waitFor(
        async () => {
          const hrefs = await rows.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
          return hrefs.join() === ids.map((id) => `#/projects/${id}`).join() || undefined;
        },
        { what },
      );
    await shows(
      firstPage.data.map((project) => project.projectId),
      'the first page',
    );
    expect(await page.getByRole('button', { name: 'Previous page' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Next page' }).click();
    await shows(
      secondPage.data.map((project) => project.projectId),
      'the second page',
    );
    await page.getByRole('button', { name: 'Previous page' }).click();
    await shows(
      firstPage.data.map((project) => project.projectId),
      'the first page again',
    );

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });

  it('cancels a long run; the header shows the balance restored', async () => {
    const pgs = suite.server.pgs;
    const before = await pgs.credits.get();
    // Held in progress by the server for 10 minutes: only the cancel can end it in this test.
    const { projectId } = await pgs.projects.create({
      idea: 'A rota planner for a volunteer-run community cafe',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    const running = await pgs.credits.get();
    expect(running.reserved).toBeGreaterThan(0);

    await signIn(page, suite.server.testKey);
    await waitForCredits(page, running);
    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'In progress');
    // Empty (so not visible) until the first document arrives, minutes from now.
    await page.getByRole('list', { name: 'Documents' }).waitFor({ state: 'attached' });
    await page.getByText(/About \d+ (s|min) left/).waitFor();
    expect(await auditScreen(page, 'project-in-progress')).toEqual([]);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await waitForStatus(page, 'Cancelled');
    const after = await pgs.credits.get();
    expect(after).toEqual(before);
    await waitForCredits(page, before);
  });

  it('renders markdown with raw HTML and script links inert', async () => {
    const pgs = suite.server.pgs;
    const made: ProjectCompleted[] = [];
    for (const name of [HTML_NAME, LINK_NAME]) {
      const { projectId } = await pgs.projects.create({
        idea: 'A swap board for families trading outgrown children clothes',
        type: 'web',
        name,
      });
      const result = await pgs.projects.waitForCompletion(projectId, { maxWaitMs: 30_000 });
      expect(result.status).toBe('completed');
      made.push(result as ProjectCompleted);
    }
    const [withHtml, withLinks] = made as [ProjectCompleted, ProjectCompleted];
    // The server makes user text inert before a document is stored (docs/security.md, "User
    // text in documents"): the markdown carries the HTML escaped (a character reference,
    // `&lt;script>` or, from the document renderer, `&#x3C;script>`), which must show as the
    // name's text, and the script link reduced to its words. Raw HTML reaching the renderer
    // is markdown.test.ts's case.
    const brief = withHtml.project.documents[0]!.content;
    expect(brief).toContain('pgsXss=1');
    expect(brief).not.toMatch(/<\/?(?:script|img)\b/i);
    expect(withLinks.project.documents[0]!.content).toContain(
      'js link [site](https://example.com/pgs)',
    );
    expect(withLinks.project.documents[0]!.content).not.toContain('javascript:');

    await page.goto(`${suite.server.baseUrl}/#/projects/${withHtml.projectId}`);
    await waitForStatus(page, 'Completed');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(HTML_NAME);
    for (const document of withHtml.project.documents) {
      const markdown = (await openDocumentTab(page, titleOf(document.content))).locator(
        '.markdown',
      );
      expect(await markdown.innerText()).toContain(HTML_NAME);
      expect(await markdown.locator('script, img, iframe, [onerror]').count()).toBe(0);
    }

    await page.goto(`${suite.server.baseUrl}/#/projects/${withLinks.projectId}`);
    await waitForStatus(page, 'Completed');
    const markdown = page.getByRole('tabpanel').locator('.markdown');
    const site = markdown.locator('a[href="https://example.com/pgs"]').first();
    await site.waitFor();
    expect(await markdown.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect((await site.getAttribute('rel'))?.split(/\s+/)).toEqual(
      expect.arrayContaining(['noopener', 'noreferrer']),
    );
    expect(await site.getAttribute('target')).toBe('_blank');

    // The names are text in the list too.
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await waitForFocusedHeading(page, 'Projects');
    await page
      .getByRole('table', { name: 'Projects' })
      .getByRole('link', { name: HTML_NAME })
      .waitFor();

    expect(
      await page.evaluate(() => ({
        global: (window as unknown as Record<string, unknown>).__pgsXss,
        inlineScripts: document.querySelectorAll('script:not([src])').length,
        handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
      })),
    ).toEqual({ global: undefined, inlineScripts: 0, handlers: 0 });
  });

  it('shows why a project failed, in plain words', async () => {
    const { projectId } = await suite.server.pgs.projects.create({
      idea: 'A lost-and-found board for a university campus',
      simulate: { outcome: 'failed', durationMs: 0 },
    });
    const result = await suite.server.pgs.projects.waitForCompletion(projectId, {
      maxWaitMs: 30_000,
    });
    if (result.status !== 'failed') throw new Error(`expected a failure, got ${result.status}`);
    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'Failed');
    await page.getByRole('alert').filter({ hasText: result.error.message }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('says so when the server cannot be reached', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
    // The page is loaded; now the server really goes away.
    await suite.server.stop();
    await page.getByLabel('API key').fill(suite.server.testKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cannot reach the PGS server' }).waitFor();
  });
}
