import { type ProjectCompleted, projectCredits, type Task, type Trace } from '@pgs/client';
import { strFromU8, unzipSync } from 'fflate';
import type { Download, Locator, Page, Response } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { deliveryByRequirement, deliveryCell } from '../../src/delivery.ts';
import { DETAILS } from '../../src/detail.ts';
import {
  COVERAGE_COLUMNS,
  findingGroups,
  findingsSummary,
  gapsOf,
  priorityLabel,
} from '../../src/trace.ts';
import { auditScreen } from '../helpers/axe.ts';
import { screenshot } from '../helpers/browser.ts';
import {
  banner,
  isFocused,
  numberAfter,
  openDocumentTab,
  storage,
  tabTo,
  titleOf,
  waitForCredits,
  waitForFocusedHeading,
  waitForStatus,
  watchDocumentsArrive,
} from '../helpers/console.ts';
import { contentSecurityPolicy, readDownload } from '../helpers/http.ts';
import type { Suite } from '../helpers/suite.ts';

const IDEA = 'A shared reading list for book clubs that meet online every month';
const NAME = 'Book Circle';

/**
 * A user's whole visit, in one Chromium against the real server: sign in, generate, watch the
 * documents arrive, read them, download them, list the projects, sign out. Each test carries
 * on from the screen the one before left.
 */
export function firstVisit(current: () => Suite): void {
  let suite: Suite;
  let page: Page;
  /** The price the New project screen showed for "Automatic" and for "Web". */
  const prices = { automatic: 0, web: 0 };
  /** The project watched as it was generated. */
  let watched: ProjectCompleted;

  beforeAll(() => {
    suite = current();
    page = suite.page;
  });

  it('serves the page with a strict Content-Security-Policy, nosniff and no framing', async () => {
    const own: { url: string; nosniff: string | undefined }[] = [];
    const collect = (response: Response) => {
      const type = response.request().resourceType();
      if (['document', 'script', 'stylesheet'].includes(type)) {
        own.push({ url: response.url(), nosniff: response.headers()['x-content-type-options'] });
      }
    };
    page.on('response', collect);
    const response = await page.goto(`${suite.server.baseUrl}/`).finally(() => {
      page.off('response', collect);
    });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('PGS console');
    const headers = response!.headers();
    const csp = contentSecurityPolicy(headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const scripts = csp.get('script-src') ?? csp.get('default-src');
    expect(scripts, 'script-src or default-src').toBeDefined();
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts).not.toContain('*');
    expect(headers['x-content-type-options']).toBe('nosniff');
    await waitForFocusedHeading(page, 'Sign in to PGS');
    // The page's own script and style files carry nosniff too: a script served as text would
    // otherwise be guessed at.
    expect(own.filter((file) => file.url.startsWith(suite.server.baseUrl)).length).toBeGreaterThan(
      1,
    );
    expect(own.filter((file) => file.nosniff !== 'nosniff')).toEqual([]);
  });

  it('signs in by keyboard alone; focus moves to each page heading', async () => {
    expect(await auditScreen(page, 'key')).toEqual([]);
    const field = page.getByLabel('API key');
    expect(await field.getAttribute('type')).toBe('password');
    expect(await field.getAttribute('autocomplete')).toBe('off');

    await tabTo(page, field);
    await page.keyboard.type(suite.server.testKey);
    await page.keyboard.press('Enter');
    await waitForFocusedHeading(page, 'Projects');

    await banner(page).getByText('Test mode', { exact: true }).waitFor();
    await waitForCredits(page, await suite.server.pgs.credits.get());
    await page.getByText('No projects yet').waitFor();
    const stored = await storage(page);
    expect(stored.session['pgs.apiKey']).toBe(suite.server.testKey);
    expect(stored.local).toBe(0);
    expect(page.url()).not.toContain(suite.server.testKey);
  });

  it('generates a project by keyboard; the price shown is the price charged', async () => {
    await tabTo(page, page.getByRole('link', { name: 'New project' }));
    await page.keyboard.press('Enter');
    await waitForFocusedHeading(page, 'New project');
    await page.getByText('optional').waitFor();
    expect(await auditScreen(page, 'new-project')).toEqual([]);

    await tabTo(page, page.getByLabel('Idea'));
    await page.keyboard.type(IDEA);
    const type = page.getByLabel('Type');
    expect(await type.locator('option').allInnerTexts()).toEqual([
      'Automatic',
      'Web',
      'Mobile',
      'MCP',
    ]);
    const price = page.getByText(/Price: \d+ credits/).last();
    await tabTo(page, type);
    prices.automatic = await numberAfter(price, 'Price:');
    await page.keyboard.press('ArrowDown');
    await waitFor(async () => ((await type.evaluate(selectedLabel)) === 'Web' ? true : undefined), {
      what: '"Web" chosen with the arrow key',
    });
    prices.web = await numberAfter(price, 'Price:');
    await tabTo(page, page.getByLabel('Name'));
    await page.keyboard.type(NAME);
    await tabTo(page, page.getByRole('button', { name: 'Generate' }));
    await page.keyboard.press('Enter');

    await waitForFocusedHeading(page, NAME);
    await waitForStatus(page, 'Completed');
    const [summary, ...others] = (await suite.server.pgs.projects.list()).data;
    expect(others).toEqual([]);
    const result = await suite.server.pgs.projects.get(summary!.projectId);
    expect(result.status).toBe('completed');
    const completed = result as ProjectCompleted;
    expect(completed.project).toMatchObject({ name: NAME, type: 'web' });
    expect(completed.metadata.creditsConsumed).toBe(prices.web);
    await waitForCredits(page, await suite.server.pgs.credits.get());
  });

  it('creates one project for a double click on Generate', async () => {
    const before = (await suite.server.pgs.projects.list()).data.length;
    await page.getByRole('link', { name: 'New project' }).click();
    await waitForFocusedHeading(page, 'New project');
    await page.getByLabel('Idea').fill(`${IDEA}, with reminders`);
    await page.getByRole('button', { name: 'Generate' }).dblclick();
    await waitForStatus(page, 'Completed');
    expect((await suite.server.pgs.projects.list()).data.length).toBe(before + 1);
  });

  it('prices each detail level; a Brief project reserves and charges the Brief price shown', async () => {
    await page.getByRole('link', { name: 'New project' }).click();
    await waitForFocusedHeading(page, 'New project');
    await page.getByLabel('Idea').fill(`${IDEA}, kept short`);
    await page.getByLabel('Type').selectOption({ label: 'Web' });
    const price = page.getByText(/Price: \d+ credits/).last();
    const shown = () => numberAfter(price, 'Price:');
    const showing = (credits: number, what: string) =>
      waitFor(async () => ((await shown()) === credits ? true : undefined), { what });
    await showing(prices.web, 'the Web price at the default level');

    const group = page.getByRole('group', { name: 'Detail' });
    const levels = group.getByRole('radio');
    expect(
      await levels.evaluateAll((radios) =>
        radios.map((radio) => (radio as HTMLInputElement).value),
      ),
    ).toEqual(['brief', 'standard', 'deep']);
    const standard = group.getByRole('radio', { name: 'Standard' });
    expect(await standard.isChecked()).toBe(true);
    // Each choice says what it asks for, read out with it.
    for (const level of DETAILS) {
      const description = await group
        .getByRole('radio', { name: level.label })
        .evaluate((radio) => {
          const ids = radio.getAttribute('aria-describedby')?.split(' ') ?? [];
          return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
        });
      expect(description.trim()).toBe(level.hint);
    }
    expect(await auditScreen(page, 'new-project-detail')).toEqual([]);

    // A radio group by keyboard: the checked choice is the tab stop, arrows move the choice.
    await tabTo(page, standard);
    await page.keyboard.press('ArrowDown');
    await showing(projectCredits('web', 'deep'), 'the Deep price');
    const deep = await shown();
    expect(deep).toBeGreaterThan(prices.web);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    const brief = group.getByRole('radio', { name: 'Brief' });
    await waitFor(async () => ((await brief.isChecked()) ? true : undefined), {
      what: '"Brief" chosen with the arrow keys',
    });
    await showing(projectCredits('web', 'brief'), 'the Brief price');
    const shownPrice = await shown();
    expect(shownPrice).toBeLessThan(prices.web);
    // "Automatic" holds the dearest type's price, at the level chosen.
    await page.getByLabel('Type').selectOption({ label: 'Automatic' });
    await showing(projectCredits(undefined, 'brief'), 'the Automatic price at Brief');
    expect(await shown()).toBeLessThan(prices.automatic);
    await page.getByLabel('Type').selectOption({ label: 'Web' });
    await showing(shownPrice, 'the Web price at Brief again');

    const before = await suite.server.pgs.credits.get();
    const [request] = await Promise.all([
      page.waitForRequest(
        (sent) => sent.method() === 'POST' && new URL(sent.url()).pathname === '/api/v1/projects',
      ),
      page.getByRole('button', { name: 'Generate' }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ type: 'web', detail: 'brief' });
    await waitForStatus(page, 'Completed');
    const [newest] = (await suite.server.pgs.projects.list({ limit: 1 })).data;
    // What the server reserved when it created the project is the price the form showed.
    const [creation] = await suite.server.pgs.projects.revisions.list(newest!.projectId);
    expect(creation).toMatchObject({ revision: 1, creditsReserved: shownPrice });
    const result = (await suite.server.pgs.projects.get(newest!.projectId)) as ProjectCompleted;
    expect(result.status).toBe('completed');
    expect(result.metadata.creditsConsumed).toBe(shownPrice);
    const after = await suite.server.pgs.credits.get();
    expect(before.balance - after.balance).toBe(shownPrice);
    await waitForCredits(page, after);
  });

  it('shows the documents arriving one by one, then the completed project', async () => {
    const before = await suite.server.pgs.credits.get();
    // A simulated run spread over 8 s keeps the project in progress long enough to watch.
    const { projectId } = await suite.server.pgs.projects.create({
      idea: 'A tool for volunteers to plan community garden work days',
      simulate: { outcome: 'completed', durationMs: 8_000 },
    });
    const reserved = before.balance - (await suite.server.pgs.credits.get()).balance;
    expect(reserved).toBe(prices.automatic);
    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'In progress');
    await page.getByText(/About \d+ (s|min) left/).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();

    const seen = await watchDocumentsArrive(page);
    await waitForStatus(page, 'Completed');
    watched = (await suite.server.pgs.projects.get(projectId)) as ProjectCompleted;
    expect(watched.status).toBe('completed');
    const total = watched.project.documents.length;
    // The counts of "done" documents only grow, and the list showed some but not all of them
    // done at some point: the documents arrived one by one, not all at the end.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(
      seen.some((count) => count > 0 && count < total),
      `seen ${seen}`,
    ).toBe(true);
    expect(Math.max(...seen)).toBeLessThanOrEqual(total);
    await page
      .getByRole('heading', { level: 1, name: watched.project.name, exact: true })
      .waitFor();
    // The header follows the project's end: what was reserved and not charged is back.
    await waitForCredits(page, await suite.server.pgs.credits.get());

    const tabs = page.getByRole('tablist', { name: 'Documents' }).getByRole('tab');
    await tabs.first().waitFor();
    expect(await tabs.count()).toBe(total);
    await page.getByText(watched.project.description.slice(0, 60)).first().waitFor();
    await page.getByRole('heading', { level: 2, name: 'Questionnaire' }).waitFor();
    const questionnaire = page
      .locator('dl')
      .filter({ hasText: watched.project.questionnaire.targetAudience });
    await questionnaire.filter({ hasText: watched.project.questionnaire.monetization }).waitFor();
    for (const item of watched.project.questionnaire.techStack) {
      await questionnaire.getByText(item, { exact: true }).first().waitFor();
    }
  });

  it('the completed project has no serious or critical axe violation, on a laptop or a phone', async () => {
    await page
      .getByRole('heading', { level: 1, name: watched.project.name, exact: true })
      .waitFor();
    expect(await auditScreen(page, 'project-view')).toEqual([]);
  });

  it('shows the trace as the API serves it: a row per requirement, the totals, the findings by severity', async () => {
    const trace = await suite.server.pgs.projects.trace(watched.projectId);
    const { requirements, totals } = trace.coverage;
    const section = page.getByRole('region', { name: 'Trace' });
    const heading = section.getByRole('heading', { level: 2, name: 'Trace' });
    await heading.waitFor();
    if (requirements.length === 0) {
      await section.getByText('The documents define no functional requirement').waitFor();
    } else {
      const matrix = section.getByRole('table', {
        name: 'Functional requirements and what reaches them',
      });
      await matrix.waitFor();
      expect(await matrix.locator('thead th').allInnerTexts()).toEqual([
        'Requirement',
        'Priority',
        ...COVERAGE_COLUMNS.map((column) => column.label),
        'Delivery',
      ]);
      // Delivery, as the page computes it from the trace's progress or the plan's tasks.
      await deliveryLoaded(matrix);
      const delivery = deliveryByRequirement(
        trace,
        await suite.server.pgs.projects.tasks.list(watched.projectId),
      );
      const rows = matrix.locator('tbody tr');
      expect(await rows.count()).toBe(requirements.length);
      let gaps = 0;
      for (const [index, fr] of requirements.entries()) {
        const row = rows.nth(index);
        expect((await row.getByRole('rowheader').innerText()).trim()).toBe(`${fr.id} ${fr.title}`);
        const cells = row.getByRole('cell');
        expect((await cells.allInnerTexts()).map((text) => text.trim())).toEqual([
          priorityLabel(fr.priority),
          ...COVERAGE_COLUMNS.map((column) =>
            fr[column.key].length === 0 ? 'Gap' : fr[column.key].join('\n'),
          ),
          deliveryText(deliveryCell(delivery?.get(fr.id))),
        ]);
        gaps += gapsOf(fr).length;
      }
      expect(await matrix.locator('tbody td.gap').count()).toBe(gaps);
      expect((await matrix.locator('tfoot td').allInnerTexts()).map((t) => t.trim())).toEqual([
        '',
        ...COVERAGE_COLUMNS.map((column) => `${totals[column.total]} of ${totals.frs}`),
        `${requirements.filter((fr) => delivery?.get(fr.id)?.delivered).length} of ${totals.frs} delivered`,
      ]);
      await section
        .getByText(`Must requirements with a story: ${totals.mustsWithStory} of ${totals.musts}.`)
        .waitFor();
    }

    await section.getByText(findingsSummary(trace.findings)).waitFor();
    for (const group of findingGroups(trace.findings)) {
      const list = section.getByRole('region', {
        name: `${group.label} (${group.findings.length})`,
      });
      expect(await list.getByRole('listitem').count()).toBe(group.findings.length);
    }
    expect(await section.getByRole('heading', { level: 4 }).count()).toBe(
      findingGroups(trace.findings).length,
    );

    // The matrix scrolls sideways on a phone; it takes the focus so a keyboard can scroll it.
    expect(await section.getByRole('region', { name: 'Coverage matrix' }).count()).toBe(
      requirements.length === 0 ? 0 : 1,
    );
    await heading.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    expect(await auditScreen(page, 'project-trace')).toEqual([]);
    // The trace for docs/console.md: its heading at the top of a laptop window.
    await heading.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'project-trace');
  });

  it('marks each gap in words on a highlighted cell, whatever the engine wrote', async () => {
    // The engine's documents may reach every requirement (or none): a trace with known gaps,
    // answered in place of the server's, shows how the matrix marks them.
    await page.route('**/api/v1/projects/*/trace', (route) =>
      route.fulfill({ status: 200, json: { success: true, data: TRACE_WITH_GAPS } }),
    );
    // Its plan: T-1 done, so the Delivery column reads known figures too.
    await page.route(TASK_LIST, (route) =>
      route.fulfill({ status: 200, json: { success: true, data: TASKS_FOR_GAPS } }),
    );
    try {
      await page.reload();
      const matrix = page.getByRole('table', {
        name: 'Functional requirements and what reaches them',
      });
      await matrix.getByRole('rowheader', { name: 'FR-3 Export the reading list' }).waitFor();
      await deliveryLoaded(matrix);
      const texts = async (row: number) =>
        (await matrix.locator('tbody tr').nth(row).getByRole('cell').allInnerTexts()).map((t) =>
          t.trim(),
        );
      expect(await texts(0)).toEqual([
        'Must',
        'FR-1.1\nFR-1.2',
        'US-1',
        'Reading list service',
        'T-1',
        '✓ Delivered: 1 of 1 task done\n2 of 2 criteria delivered',
      ]);
      expect(await texts(1)).toEqual([
        'Should',
        'FR-2.1',
        'Gap',
        'Reading list service',
        'Gap',
        'No tasks',
      ]);
      expect(await texts(2)).toEqual(['—', 'Gap', 'Gap', 'Gap', 'Gap', 'No tasks']);
      // A gap is the word "Gap" on a cell that looks unlike a covered one: never colour
      // alone, never text alone.
      const gapCells = matrix.locator('tbody td.gap');
      expect(await gapCells.count()).toBe(6);
      expect(await gapCells.allInnerTexts()).toEqual(Array(6).fill('Gap'));
      const look = (cell: Locator) =>
        cell.evaluate((element) => {
          const style = getComputedStyle(element);
          return `${style.backgroundColor} ${style.boxShadow}`;
        });
      const covered = matrix.locator('tbody tr').first().getByRole('cell').nth(1);
      expect(await look(gapCells.first())).not.toBe(await look(covered));
      expect((await matrix.locator('tfoot td').allInnerTexts()).map((t) => t.trim())).toEqual([
        '',
        '2 of 3',
        '1 of 3',
        '2 of 3',
        '1 of 3',
        '1 of 3 delivered',
      ]);
      const trace = page.getByRole('region', { name: 'Trace' });
      await trace.getByText('3 requirements, 2 with a gap.').waitFor();
      await trace.getByText('2 findings: 1 critical, 1 high.').waitFor();
      await trace.getByRole('heading', { level: 4, name: 'Critical (1)' }).waitFor();
      await trace
        .getByRole('heading', { level: 2, name: 'Trace' })
        .evaluate((element) => element.scrollIntoView({ block: 'start' }));
      expect(await auditScreen(page, 'project-trace-gaps')).toEqual([]);
    } finally {
      await page.unroute('**/api/v1/projects/*/trace');
      await page.unroute(TASK_LIST);
    }
    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: watched.project.name, exact: true })
      .waitFor();
  });

  it('reads the documents: arrow keys move between tabs, tables and code are rendered', async () => {
    const tabs = page.getByRole('tablist', { name: 'Documents' }).getByRole('tab');
    const first = tabs.first();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    await tabTo(page, first);
    // Works whether the tabs select on focus (automatic) or on Enter (manual activation).
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const second = tabs.nth(1);
    await waitFor(
      async () =>
        (await isFocused(second)) && (await second.getAttribute('aria-selected')) === 'true'
          ? true
          : undefined,
      { what: 'the second tab focused and selected' },
    );
    expect(await first.getAttribute('aria-selected')).toBe('false');

    const withTable = documentMatching(watched, /^\|.*\|\s*$\n^\|(\s*-+\s*\|)+\s*$/m);
    const panel = await openDocumentTab(page, titleOf(withTable.content));
    const header = /^\|(.*)\|\s*$/m
      .exec(withTable.content)![1]!
      .split('|')
      .map((cell) => cell.trim());
    expect(await panel.locator('.markdown table').first().locator('th').allInnerTexts()).toEqual(
      header,
    );
    // A rendered document for the README: its tabs at the top of a laptop window.
    await page
      .getByRole('tablist', { name: 'Documents' })
      .evaluate((tablist) => tablist.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'project-document');

    const withCode = documentMatching(watched, /^```/m);
    const codePanel = await openDocumentTab(page, titleOf(withCode.content));
    await codePanel.locator('.markdown pre code').first().waitFor();
  });

  it('copies and downloads one document as it is stored', async () => {
    const document = watched.project.documents[0]!;
    const panel = await openDocumentTab(page, titleOf(document.content));
    await panel.getByRole('button', { name: 'Copy' }).click();
    await waitFor(
      async () =>
        (await page.evaluate(() => navigator.clipboard.readText())) === document.content
          ? true
          : undefined,
      { what: 'the document on the clipboard' },
    );

    const download = await downloadOf(page, panel.getByRole('button', { name: 'Download' }));
    expect(download.suggestedFilename()).toBe(document.filename);
    expect(strFromU8(await readDownload(download))).toBe(document.content);
  });

  it('downloads the archive in the layout chosen', async () => {
    const all = page.getByRole('button', { name: 'Download all' });
    const plain = await downloadOf(page, all);
    expect(plain.suggestedFilename()).toMatch(/^[a-z0-9-]+\.zip$/);
    const files = Object.keys(unzipSync(await readDownload(plain))).sort();
    const folder = plain.suggestedFilename().replace(/\.zip$/, '');
    expect(files).toEqual(
      [
        ...watched.project.documents.map((doc) => doc.filename),
        'project.json',
        'trace.json',
        // The plan's tasks with their live status (issue 30).
        'tasks.json',
        'CHANGELOG.md',
      ]
        .map((name) => `${folder}/${name}`)
        .sort(),
    );

    await page.getByLabel('Layout').selectOption({ label: 'kiro' });
    const kiro = await downloadOf(page, all);
    // The same project and layout always zip to the same bytes, so the console must hand
    // over exactly what the API serves for "kiro".
    const expected = await suite.server.pgs.projects.archive(watched.projectId, { layout: 'kiro' });
    expect(Buffer.from(await readDownload(kiro)).equals(Buffer.from(expected))).toBe(true);
  });

  it('lists the projects newest first, each name a link to its project', async () => {
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await waitForFocusedHeading(page, 'Projects');
    const table = page.getByRole('table', { name: 'Projects' });
    const listed = (await suite.server.pgs.projects.list()).data;
    const links = table.getByRole('link');
    await waitFor(async () => ((await links.count()) === listed.length ? true : undefined), {
      what: `${listed.length} projects listed`,
    });
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual([
      'Name',
      'Type',
      'Status',
      'Created',
      'Model cost',
    ]);
    expect((await links.allInnerTexts()).map((text) => text.trim())).toEqual(
      listed.map((project) => project.name),
    );
    // Every project here is the offline engine's: no model fees, a known $0.
    expect(listed.map((project) => project.costUsd)).toEqual(listed.map(() => 0));
    const costs = table.locator('tbody tr').locator('td:last-child');
    expect((await costs.allInnerTexts()).map((text) => text.trim())).toEqual(
      listed.map(() => '$0'),
    );
    expect(await page.getByRole('button', { name: 'Next page' }).count()).toBe(0);
    expect(await auditScreen(page, 'projects')).toEqual([]);

    await links.filter({ hasText: NAME }).click();
    await waitForFocusedHeading(page, NAME);
  });

  it('signs out: the key is forgotten', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    const field = page.getByLabel('API key');
    await waitFor(async () => ((await isFocused(field)) ? true : undefined), {
      what: 'focus on "API key" after signing out',
    });
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
    expect(await field.inputValue()).toBe('');
    expect(await storage(page)).toEqual({ session: {}, local: 0 });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}

/** The label of a `<select>`'s chosen option (run in the page). */
function selectedLabel(select: HTMLElement | SVGElement): string | undefined {
  return (select as HTMLSelectElement).selectedOptions[0]?.label;
}

/** The first document of `result` whose markdown matches `pattern`. */
function documentMatching(result: ProjectCompleted, pattern: RegExp) {
  const document = result.project.documents.find((doc) => pattern.test(doc.content));
  if (document === undefined) throw new Error(`no document matches ${pattern}`);
  return document;
}

/** Clicks `target` and resolves with the download it starts. */
async function downloadOf(page: Page, target: ReturnType<Page['getByRole']>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), target.click()]);
  return download;
}

/** The list of a project's tasks, not a task under it: matched on the path, whatever the query. */
const TASK_LIST = (url: URL) => /^\/api\/v1\/projects\/[^/]+\/tasks$/.test(url.pathname);

/** Waits until the matrix's Delivery column has what it is computed from. */
const deliveryLoaded = (matrix: Locator) =>
  waitFor(
    async () =>
      (await matrix.locator('tfoot td').last().innerText()).includes('delivered')
        ? true
        : undefined,
    { what: 'the Delivery column' },
  );

/** A Delivery cell's text as the page writes it (the tick of a delivered requirement included). */
const deliveryText = (cell: ReturnType<typeof deliveryCell>) =>
  [`${cell.delivered ? '✓ ' : ''}${cell.text}`, cell.criteria].filter(Boolean).join('\n');

/** The plan of TRACE_WITH_GAPS: its one task, done. */
const TASKS_FOR_GAPS: Task[] = [
  {
    id: 'T-1',
    title: 'Build the shared reading list',
    phase: 'M1 Walking skeleton',
    requirements: ['FR-1'],
    criteria: ['FR-1.1', 'FR-1.2'],
    dependsOn: [],
    files: [],
    estimate: '1 d',
    status: 'done',
    assignee: 'claude-1',
    lease: null,
    updatedAt: '2026-11-28T09:00:00.000Z',
    links: [],
  },
];

/** A trace with known gaps: FR-1 reached everywhere, FR-2 missing a story and a task, FR-3 nothing. */
const TRACE_WITH_GAPS: Trace = {
  nodes: [],
  edges: [],
  coverage: {
    requirements: [
      {
        id: 'FR-1',
        title: 'Keep a shared reading list',
        priority: 'must',
        criteria: ['FR-1.1', 'FR-1.2'],
        stories: ['US-1'],
        components: ['Reading list service'],
        tasks: ['T-1'],
      },
      {
        id: 'FR-2',
        title: 'Vote on the next book',
        priority: 'should',
        criteria: ['FR-2.1'],
        stories: [],
        components: ['Reading list service'],
        tasks: [],
      },
      {
        id: 'FR-3',
        title: 'Export the reading list',
        criteria: [],
        stories: [],
        components: [],
        tasks: [],
      },
    ],
    totals: {
      frs: 3,
      withCriterion: 2,
      withStory: 1,
      withComponent: 2,
      withTask: 1,
      musts: 1,
      mustsWithStory: 1,
    },
  },
  findings: [
    {
      rule: 'task-dependency',
      severity: 'critical',
      message: 'T-1 depends on T-2, which depends on T-1: a cycle.',
      document: 'IMPLEMENTATION_PLAN.md',
      section: 'Tasks',
      ids: ['T-1', 'T-2'],
    },
    {
      rule: 'fr-without-task',
      severity: 'high',
      message: 'FR-2 is not implemented by any task.',
      document: 'PRODUCT_REQUIREMENTS.md',
      ids: ['FR-2'],
    },
  ],
};
