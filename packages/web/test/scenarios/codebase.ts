import type { Provenance } from '@pgs/client';
import { EXPRESS_POSTGRES, naiveDigest } from '@pgs/contract/testing/repositories';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { formatBytes } from '../../src/codebase.ts';
import { auditScreen } from '../helpers/axe.ts';
import { LAPTOP, PHONE, screenshot } from '../helpers/browser.ts';
import {
  isFocused,
  signIn,
  waitForFocusedHeading,
  waitForStatus,
  waitForText,
} from '../helpers/console.ts';
import { ownKey, type Suite } from '../helpers/suite.ts';

const PROVENANCE_ROUTE = '**/api/v1/projects/*/provenance';
const FIRST_COMMIT = '4f9c2d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e';
const SECOND_COMMIT = '9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b';
// One segment with no place to break but anywhere: it must wrap, not widen a phone's page.
const UNBROKEN = `src/assets/${'0123456789abcdef'.repeat(12)}.json`;

/** The Codebase card of the project (or revision) shown. */
const codebase = (page: Page): Locator =>
  page.getByRole('region', { name: 'Codebase', exact: true });

/** The text of one of the card's facts, by its label (`Digest`). */
const fact = (card: Locator, label: string): Locator =>
  card
    .locator('dl > div')
    .filter({ has: card.page().locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

/** The card's facts as label → text (`Files` → `3 files, 48 KB`). */
const factsOf = async (card: Locator): Promise<Record<string, string>> =>
  Object.fromEntries(
    await card
      .locator('dl > div')
      .evaluateAll((pairs) =>
        pairs.map((pair) => [
          pair.querySelector('dt')?.textContent?.trim() ?? '',
          pair.querySelector('dd')?.textContent?.trim() ?? '',
        ]),
      ),
  );

/** The file list's rows as [path, size, redactions], opening it first. */
const rowsOf = async (card: Locator): Promise<string[][]> => {
  const details = card.locator('details');
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) {
    await details.locator('summary').click();
  }
  return card
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent?.trim() ?? ''),
      ),
    );
};

/** The rows the page must show for a digest as provenance describes it. */
const expectedRows = (repository: NonNullable<Provenance['context']>['repository']) =>
  repository.files.map((file) => [file.path, formatBytes(file.bytes), String(file.redactions)]);

/**
 * The Codebase section of a grounded project: nothing for a project without a codebase; a
 * digest at its limit (1,000 files, answered in place of the server's provenance) folded,
 * bounded and no wider than a phone; then a project the real server stored with a digest
 * holding secrets in its source and a revision that replaced it: the repository, commit,
 * size and secrets counted as the API says, never a secret itself, and each revision
 * showing the digest it was written from. Starts and ends signed out.
 */
export function codebaseProvenance(current: () => Suite): void {
  let suite: Suite;
  let page: Page;

  beforeAll(() => {
    suite = current();
    page = suite.page;
  });

  it('shows nothing for a project without a codebase, and a digest of 1,000 files folded, bounded and phone-wide', async () => {
    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, suite.server.testKey);
    const { projectId } = await suite.server.pgs.projects.create({
      idea: 'A lending shelf for the tools of a community garden, booked by the hour',
      simulate: { outcome: 'completed', durationMs: 500 },
    });
    const done = await suite.server.pgs.projects.waitForCompletion(projectId, {
      pollIntervalMs: 200,
    });
    expect(done.status).toBe('completed');
    const provenance = await suite.server.pgs.projects.provenance(projectId);
    expect(provenance.context).toBeNull();

    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'Completed');
    // The cost line comes from the same provenance read: once it shows, so would the card.
    await page.getByTestId('project-cost').waitFor();
    expect(await codebase(page).count()).toBe(0);

    const files = Array.from({ length: 1000 }, (_, i) => ({
      path:
        i === 501
          ? UNBROKEN
          : `packages/module-${String(i).padStart(4, '0')}/src/generated/${'nested-folder/'.repeat(12)}index.ts`,
      bytes: 1_048,
      redactions: i % 250 === 0 ? 1 : 0,
    }));
    const grounded: Provenance = {
      ...provenance,
      context: {
        repository: {
          name: 'garden-tools',
          commit: FIRST_COMMIT,
          revision: 1,
          totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
          redactions: 4,
          files,
        },
      },
    };
    // The first read fails: the page says so and reads again on "Try again".
    let fail = true;
    await page.route(PROVENANCE_ROUTE, (route) =>
      fail
        ? route.fulfill({
            status: 500,
            json: {
              success: false,
              error: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' },
            },
          })
        : route.fulfill({ status: 200, json: { success: true, data: grounded } }),
    );
    try {
      await page.reload();
      await waitForStatus(page, 'Completed');
      await page
        .getByText('Which engine wrote these documents, and from which codebase, could not be read')
        .waitFor();
      expect(await codebase(page).count()).toBe(0);
      fail = false;
      await page.getByRole('button', { name: 'Try again', exact: true }).click();
      const card = codebase(page);
      await card.waitFor();
      expect(await page.getByRole('button', { name: 'Try again', exact: true }).count()).toBe(0);
      expect(await factsOf(card)).toEqual({
        Repository: 'garden-tools',
        Commit: FIRST_COMMIT.slice(0, 12),
        Digest: 'sent with the project',
        Files: '1,000 files, 1,023 KB',
        Secrets: '4 redacted before storage',
      });
      const details = card.locator('details');
      // Folded until asked for: a thousand rows must not push the documents away.
      expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      // Yet its rows are there, for the browser's find in page to reach a path.
      expect(await card.locator('tbody tr').count()).toBe(1000);
      const summary = card.getByText('The 1,000 files: path, size and secrets redacted in each');
      const rows = await rowsOf(card);
      expect(rows).toHaveLength(1000);
      expect(rows[501]).toEqual([UNBROKEN, '1 KB', '0']);
      expect(rows[250]).toEqual([files[250]!.path, '1 KB', '1']);

      await page.setViewportSize(PHONE);
      const region = card.getByRole('region', { name: 'Files of garden-tools' });
      const sizes = await region.evaluate((element) => ({
        pageWidth: document.documentElement.scrollWidth,
        windowWidth: window.innerWidth,
        tableWidth: element.querySelector('table')?.scrollWidth ?? Number.NaN,
        regionWidth: element.clientWidth,
        regionHeight: element.clientHeight,
        listHeight: element.scrollHeight,
      }));
      // Paths wrap: neither the page nor the list scrolls sideways on a phone.
      expect(sizes.pageWidth, JSON.stringify(sizes)).toBeLessThanOrEqual(sizes.windowWidth);
      expect(sizes.tableWidth, JSON.stringify(sizes)).toBeLessThanOrEqual(sizes.regionWidth);
      // Bounded: the list scrolls inside a region shorter than the window.
      expect(sizes.regionHeight, JSON.stringify(sizes)).toBeLessThan(PHONE.height);
      expect(sizes.listHeight, JSON.stringify(sizes)).toBeGreaterThan(sizes.regionHeight);

      // By keyboard: Tab from the summary reaches the list, End scrolls it to its last row.
      await summary.focus();
      await page.keyboard.press('Tab');
      expect(await isFocused(region)).toBe(true);
      await page.keyboard.press('End');
      await waitFor(
        async () =>
          (await region.evaluate((element) => {
            const last = element.querySelector('tbody tr:last-child')?.getBoundingClientRect();
            const box = element.getBoundingClientRect();
            return last !== undefined && last.bottom <= box.bottom + 1 && element.scrollTop > 0;
          })) || undefined,
        { what: 'the last file scrolled into the list' },
      );
      // A picture, not an axe run: axe over a thousand rows takes seconds per window size,
      // and the same markup is audited open with the real digest below.
      await card.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      await screenshot(page, 'project-codebase-long-phone');
    } finally {
      await page.setViewportSize(LAPTOP);
      await page.unroute(PROVENANCE_ROUTE);
    }
  });

  it('shows the codebase the server stored, its secrets counted and never shown, per revision', async () => {
    const first = { ...naiveDigest(EXPRESS_POSTGRES), commit: FIRST_COMMIT };
    const second = {
      ...first,
      commit: SECOND_COMMIT,
      files: [
        ...first.files,
        {
          path: 'src/routes/reminders.ts',
          content: "import { Router } from 'express';\n\nexport const reminders = Router();\n",
        },
      ],
    };
    try {
      // A key of its own: the waits below read statuses, and on the suite's key they would
      // spend the per-key allowance the next scenarios' pages read with.
      const own = await ownKey(suite);
      const { pgs } = own;
      const { projectId } = await pgs.projects.create({
        idea: 'Add SMS reminders for appointments to the clinic booking API',
        type: 'web',
        simulate: { outcome: 'completed', durationMs: 500 },
        context: { repository: first },
      });
      expect(
        (await pgs.projects.waitForCompletion(projectId, { pollIntervalMs: 200 })).status,
      ).toBe('completed');
      await pgs.projects.revisions.create(projectId, {
        changeRequest: 'Add SMS reminders two days before each appointment',
        simulate: { outcome: 'completed', durationMs: 0 },
        context: { repository: second },
      });
      const revised = await pgs.projects.revisions.waitForCompletion(projectId, 2, {
        pollIntervalMs: 200,
      });
      expect(revised.status, JSON.stringify(revised)).toBe('completed');
      const atFirst = (await pgs.projects.provenance(projectId, { revision: 1 })).context;
      const atSecond = (await pgs.projects.provenance(projectId)).context;
      if (atFirst === null || atSecond === null) {
        throw new Error('provenance has no context: the server did not store the digest');
      }
      expect(atSecond.repository.revision).toBe(2);
      expect(atSecond.repository.files.map((file) => file.path).sort()).toEqual(
        second.files.map((file) => file.path).sort(),
      );
      // The Stripe key and the JWT secret in the source are redacted, at least.
      expect(atSecond.repository.redactions).toBeGreaterThanOrEqual(2);

      const signOut = page.getByRole('button', { name: 'Sign out' });
      if ((await signOut.count()) === 1) {
        await signOut.click();
        await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
      }
      await signIn(page, own.key);
      await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
      await waitForStatus(page, 'Completed');
      const card = codebase(page);
      await waitForText(fact(card, 'Repository'), 'vetbook-api');
      const { repository } = atSecond;
      expect(await factsOf(card)).toEqual({
        Repository: 'vetbook-api',
        Commit: SECOND_COMMIT.slice(0, 12),
        Digest: 'replaced by revision 2',
        Files: `${second.files.length} files, ${formatBytes(repository.totalBytes)}`,
        Secrets: `${repository.redactions} redacted before storage`,
      });
      expect(await card.locator('code.commit').getAttribute('title')).toBe(SECOND_COMMIT);
      await waitForText(
        card.getByTestId('codebase-secrets-note'),
        `The ${repository.redactions} secrets found were replaced in the files before anything was stored or sent to a model, and are never shown.`,
      );
      expect(await rowsOf(card)).toEqual(expectedRows(repository));
      for (const secret of EXPRESS_POSTGRES.secrets) {
        expect(await page.content()).not.toContain(secret);
      }
      await card.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      expect(await auditScreen(page, 'project-codebase')).toEqual([]);

      // Revision 1 was written from the first digest: pinned to it, the card says so.
      await page.getByRole('button', { name: 'Show revision 1', exact: true }).click();
      const pinned = page.getByRole('region', { name: 'Revision 1', exact: true });
      await pinned.waitFor();
      await waitForText(fact(card, 'Digest'), 'sent with the project');
      expect(await factsOf(card)).toEqual({
        Repository: 'vetbook-api',
        Commit: FIRST_COMMIT.slice(0, 12),
        Digest: 'sent with the project',
        Files: `${first.files.length} files, ${formatBytes(atFirst.repository.totalBytes)}`,
        Secrets: `${atFirst.repository.redactions} redacted before storage`,
      });
      expect(await rowsOf(card)).toEqual(expectedRows(atFirst.repository));
      await pinned.getByRole('button', { name: 'Back to the current revision' }).click();
      await waitForText(fact(card, 'Digest'), 'replaced by revision 2');
    } finally {
      // The next scenario starts signed out, whatever happened here; a failure above keeps
      // its own message (a click on a missing button would replace it).
      const signOut = page.getByRole('button', { name: 'Sign out' });
      if ((await signOut.count()) === 1) {
        await signOut.click();
        await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
      }
    }
  });
}
