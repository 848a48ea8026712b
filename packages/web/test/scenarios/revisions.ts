import {
  type Pgs,
  type ProjectCompleted,
  type RequirementDelta,
  type RevisionCompleted,
  revisionCredits,
} from '@pgs/client';
import type { Locator, Page, Request } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { auditScreen } from '../helpers/axe.ts';
import {
  banner,
  escapeRegExp,
  isFocused,
  numberAfter,
  openDocumentTab,
  signIn,
  titleOf,
  waitForCredits,
  waitForFocusedHeading,
  waitForStatus,
} from '../helpers/console.ts';
import { ownKey, type Suite } from '../helpers/suite.ts';

const IDEA = 'A booking app for a dental clinic with appointment reminders and medical records';
const CHANGE = 'Add SMS reminders two days before each appointment; drop the medical records';
const RUNNING_IDEA =
  'A rota for the volunteers of a village library who open it on weekday evenings and on Saturdays';

/**
 * A completed project revised from its page, against the real server's offline engine (real
 * documents, real deltas): the price before anything is sent, the run's requirement changes,
 * the history newest first, the diff of what changed (and of nothing carried over), the
 * credits charged, an earlier revision read back, the change request's checks, a revision
 * cancelled, and an unnamed project in the list. Each button that replaces itself or changes
 * the page far from it must leave the focus on what it shows. Starts and ends signed out.
 */
export function revisions(current: () => Suite): void {
  let suite: Suite;
  let page: Page;
  let projectId: string;
  /** Revision 1 (the creation) and revision 2 (the change), as the SDK reads them. */
  let first: ProjectCompleted;
  let second: RevisionCompleted;
  let added: Extract<RequirementDelta, { op: 'added' }>;
  let removed: Extract<RequirementDelta, { op: 'removed' }>;

  const reviseCard = () => page.getByRole('region', { name: 'Revise', exact: true });
  const diffCard = (revision: number) =>
    page.getByRole('region', { name: `Changes in revision ${revision}`, exact: true });
  const historyTable = () =>
    page.getByRole('table', { name: 'Revisions of this project, newest first' });
  const requirementsOf = (project: ProjectCompleted['project']) => {
    const document = project.documents.find((d) => d.type === 'product-requirements');
    if (document === undefined) throw new Error('no requirements document');
    return document;
  };

  /**
   * Waits until what loads on its own above the Revise card (the notice, the trace, the diff
   * of revision 2) has arrived, so that the page no longer grows above what is looked at.
   */
  const currentRevisionLoaded = async () => {
    await page
      .getByRole('note', { name: "Drafted by PGS's offline engine, not by an AI model" })
      .waitFor();
    await page
      .getByRole('table', { name: 'Functional requirements and what reaches them' })
      .getByRole('row')
      .filter({ hasText: added.title })
      .waitFor();
    await diffCard(2)
      .getByText(/^Against revision 1:/)
      .waitFor();
  };

  /** Waits until `locator` has the focus and is inside the window, where the reader looks. */
  const focusedInView = (locator: Locator) =>
    waitFor(
      async () =>
        (await locator.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return (
            // Scroll positions are whole pixels and layout is not: a heading scrolled to the
            // top can sit a fraction of a pixel above it, which is still in view.
            element === document.activeElement &&
            box.top > -1 &&
            box.bottom < window.innerHeight + 1
          );
        })) || undefined,
      { what: `focus on ${locator} in view` },
    );

  /**
   * A key of its own, as the suite's first key holds: a revision's page reads the status, the
   * revision, its history and provenance, all on the per-key status limit (100 a minute), and
   * on the suite's key these scenarios would spend the allowance the next ones read with.
   */
  let own: { key: string; pgs: Pgs };

  beforeAll(async () => {
    suite = current();
    page = suite.page;
    own = await ownKey(suite);
  });

  it('revises a completed project: the price first, the deltas, the history, the diff, the credits', async () => {
    const pgs = own.pgs;
    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, own.key);
    // No `simulate`: the offline engine writes real documents, so the change request is read
    // against real requirements and the revision rewrites real text.
    ({ projectId } = await pgs.projects.create({ idea: IDEA, type: 'web' }));
    const created = await pgs.projects.waitForCompletion(projectId, { pollIntervalMs: 200 });
    expect(created.status).toBe('completed');
    first = created as ProjectCompleted;
    expect(requirementsOf(first.project).content).toMatch(/medical records/i);

    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'Completed');
    const before = await pgs.credits.get();
    await waitForCredits(page, before);

    // The price is there before anything is typed or sent, above the change request.
    const card = reviseCard();
    const price = card.getByText(/^Price: up to \d+ credits$/);
    await price.waitFor();
    const expectedPrice = revisionCredits('web');
    expect(await numberAfter(price, 'Price: up to')).toBe(expectedPrice.total);
    const field = card.getByLabel('Change request');
    const top = async (locator: Locator) => (await locator.boundingBox())?.y ?? Number.NaN;
    expect(await top(price)).toBeLessThan(await top(field));
    expect(await card.getByText(/^0 of 4,000 characters$/).count()).toBe(1);

    await field.fill(CHANGE);
    await card.getByText(`${CHANGE.length} of 4,000 characters`, { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Revise', exact: true }).click();
    // The form gives way to the run: focus stays in the card, not dropped on the page.
    await waitFor(
      async () =>
        (await card.evaluate((element) => element.contains(document.activeElement))) || undefined,
      { what: 'focus in the Revise card once the run replaced the form' },
    );

    // The offline engine is quick: the run may be seen live or only at its end, but either
    // way it ends Completed with the requirement changes listed.
    await card
      .getByTestId('revision-status')
      .filter({ hasText: /^\s*Completed\s*$/ })
      .waitFor({ timeout: 30_000 });
    const read = await pgs.projects.revisions.get(projectId, 2);
    expect(read.status, JSON.stringify(read)).toBe('completed');
    second = read as RevisionCompleted;
    expect(second.changeRequest).toBe(CHANGE);
    const addedDelta = second.deltas.find((delta) => delta.op === 'added');
    const removedDelta = second.deltas.find((delta) => delta.op === 'removed');
    if (addedDelta?.op !== 'added' || removedDelta?.op !== 'removed') {
      throw new Error(`expected an added and a removed requirement: ${JSON.stringify(second)}`);
    }
    added = addedDelta;
    removed = removedDelta;
    expect(added.title).toMatch(/SMS reminders/i);
    expect(removed.title).toMatch(/medical records/i);

    const deltaLines = (
      await card.getByRole('list', { name: 'Requirement changes' }).getByRole('listitem').all()
    ).map((item) => item.innerText().then((text) => text.trim()));
    const lines = await Promise.all(deltaLines);
    expect(lines).toHaveLength(second.deltas.length);
    expect(lines).toContainEqual(expect.stringMatching(/^Added FR-\d+ /));
    expect(lines).toContainEqual(expect.stringMatching(/^Removed FR-\d+ /));
    expect(lines).toContain(`Added ${added.id} ${added.title}`);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^Removed ${removed.id} ${escapeRegExp(removed.title)}`)),
    );
    const changedList = card.getByRole('list', { name: 'Documents changed' }).getByRole('listitem');
    expect((await changedList.allInnerTexts()).map((text) => text.trim())).toEqual(
      second.documentsChanged,
    );

    // The history is read again once the revision has ended: newest first, 2 is current.
    const history = await pgs.projects.revisions.list(projectId);
    expect(history.map((summary) => summary.revision)).toEqual([2, 1]);
    const rowHeaders = historyTable().getByRole('rowheader');
    await expect
      .poll(async () => (await rowHeaders.allInnerTexts()).map((text) => text.trim()))
      .toEqual(['2 (current)', '1']);
    const secondRow = historyTable()
      .getByRole('row')
      .filter({ has: page.getByText(CHANGE) });
    await secondRow.getByText('Completed', { exact: true }).waitFor();
    // The change request reads in whole words: none is split across two lines.
    expect(await splitWords(secondRow.getByText(CHANGE))).toEqual([]);
    expect(history[0]!.creditsReserved).toBe(expectedPrice.total);

    // "Show the changes" takes the reader to them: they are above, out of sight.
    await currentRevisionLoaded();
    await card.getByRole('button', { name: 'Show the changes' }).click();
    const diff = diffCard(2);
    await focusedInView(diff.getByRole('heading', { name: 'Changes in revision 2' }));

    // The diff lists what the revision rewrote and changed, and nothing carried over.
    const listed = (await diff.locator('.diff-file .diff-filename').allInnerTexts()).map((name) =>
      name.trim(),
    );
    const served = await pgs.projects.revisions.diff(projectId, 2, { format: 'json' });
    expect(listed).toEqual(served.files.map((file) => file.filename));
    const requirements = requirementsOf(second.project).filename;
    expect(listed).toContain(requirements);
    for (const filename of listed) expect(second.documentsChanged).toContain(filename);
    const carried = second.project.documents
      .map((document) => document.filename)
      .filter((filename) => !second.documentsChanged.includes(filename));
    expect(carried.length, 'the revision carried some document over').toBeGreaterThan(0);
    for (const filename of carried) expect(listed).not.toContain(filename);

    // A file folds and unfolds; unfolded, its added and removed lines are highlighted.
    const file = diff
      .locator('details.diff-file')
      .filter({ has: page.locator('.diff-filename', { hasText: requirements }) });
    const summary = file.locator('summary');
    if ((await file.getAttribute('open')) !== null) {
      await summary.click();
      await expect.poll(() => file.locator('ins, del').count()).toBe(0);
    }
    await summary.click();
    await expect.poll(() => file.getAttribute('open')).not.toBeNull();
    const insertions = file.locator('ins.diff-add');
    const deletions = file.locator('del.diff-del');
    await insertions.first().waitFor();
    await deletions.first().waitFor();
    await file.locator('ins', { hasText: added.title }).first().waitFor();
    await file.locator('del', { hasText: removed.title }).first().waitFor();
    expect(await insertions.first().innerText()).toMatch(/^\+/);
    expect(await deletions.first().innerText()).toMatch(/^−/);
    expect(await insertions.first().textContent()).toContain('Added: ');
    expect(await deletions.first().textContent()).toContain('Removed: ');
    const background = (locator: Locator) =>
      locator.evaluate((element) => getComputedStyle(element).backgroundColor);
    const transparent = ['rgba(0, 0, 0, 0)', 'transparent'];
    const addBackground = await background(insertions.first());
    const delBackground = await background(deletions.first());
    expect(transparent).not.toContain(addBackground);
    expect(transparent).not.toContain(delBackground);
    expect(addBackground).not.toBe(delBackground);

    // The header's balance drops by exactly what the revision consumed; nothing stays held.
    const consumed = second.metadata.creditsConsumed;
    expect(history[0]!.creditsConsumed).toBe(consumed);
    expect(consumed).toBeGreaterThan(0);
    expect(consumed).toBeLessThanOrEqual(expectedPrice.total);
    const after = { balance: before.balance - consumed, reserved: before.reserved };
    await waitForCredits(page, after);
    expect(await numberAfter(banner(page), 'Balance:')).toBe(after.balance);
    expect(await pgs.credits.get()).toMatchObject(after);
  });

  it('has no serious or critical axe violation with the outcome, the history and an open diff file', async () => {
    await reviseCard().getByTestId('revision-status').waitFor();
    await historyTable().waitFor();
    const file = diffCard(2).locator('details.diff-file[open]').first();
    await file.locator('ins').first().waitFor();
    await file.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    expect(await auditScreen(page, 'project-revised')).toEqual([]);
  });

  it('reads revision 1 from the history, then returns to the current revision', async () => {
    const title = titleOf(requirementsOf(first.project).content);
    const show = page.getByRole('button', { name: 'Show revision 1', exact: true });
    await show.click();
    const pinned = page.getByRole('region', { name: 'Revision 1', exact: true });
    await pinned.getByText('You are reading revision 1; the current revision is 2.').waitFor();
    // The button is at the foot of the page, the revision it shows at the top: focus goes there.
    await focusedInView(pinned.getByRole('heading', { name: 'Revision 1', exact: true }));
    expect(await show.getAttribute('aria-pressed')).toBe('true');
    // The row picked is highlighted whole, its number's cell too.
    const picked = historyTable().getByRole('row').filter({ has: show });
    const backgrounds = await picked
      .locator('th, td')
      .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).backgroundColor));
    expect(new Set(backgrounds).size, backgrounds.join()).toBe(1);
    expect(['rgba(0, 0, 0, 0)', 'transparent']).not.toContain(backgrounds[0]);
    // Revision 1 made every document: there is no "changes in" card for it.
    await expect
      .poll(() => page.getByRole('region', { name: /^Changes in revision/ }).count())
      .toBe(0);

    const panel = await openDocumentTab(page, title);
    const oldText = await panel.locator('.markdown').innerText();
    expect(oldText).toContain(removed.id);
    expect(oldText).toMatch(new RegExp(escapeRegExp(removed.title), 'i'));
    expect(oldText).not.toContain(added.title);

    await pinned.getByRole('button', { name: 'Back to the current revision' }).click();
    await pinned.waitFor({ state: 'detached' });
    // The button pressed is gone with its card: focus goes to the page's heading, not the body.
    await waitForFocusedHeading(page, second.project.name);
    await diffCard(2)
      .getByText(/^Against revision 1:/)
      .waitFor();
    expect(await show.getAttribute('aria-pressed')).toBe('false');
    const currentPanel = await openDocumentTab(page, title);
    await currentPanel.locator('.markdown').getByText(added.title).first().waitFor();
  });

  it('checks the change request in the page: an empty one is not sent, nor one over 4,000 characters', async () => {
    const posts: string[] = [];
    const watch = (request: Request) => {
      if (request.method() === 'POST' && /\/revisions(\?|$)/.test(request.url())) {
        posts.push(request.url());
      }
    };
    page.on('request', watch);
    try {
      const card = reviseCard();
      await card.getByRole('button', { name: 'New change request' }).click();
      const field = card.getByLabel('Change request');
      await waitFor(async () => ((await isFocused(field)) ? true : undefined), {
        what: 'focus on the change request of the new form',
      });
      const submit = card.getByRole('button', { name: 'Revise', exact: true });

      await field.fill('   ');
      await submit.click();
      await card.getByRole('alert').filter({ hasText: 'Say what to change first.' }).waitFor();
      await waitFor(async () => ((await isFocused(field)) ? true : undefined), {
        what: 'focus back on the change request',
      });

      await field.fill('x'.repeat(4_001));
      await card.getByText('4,001 of 4,000 characters: 1 too many', { exact: true }).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      await submit.click();
      await card
        .getByRole('alert')
        .filter({ hasText: 'The change request must be 1 to 4,000 characters.' })
        .waitFor();

      await field.fill('x'.repeat(4_000));
      await card.getByText('4,000 of 4,000 characters', { exact: true }).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('false');
      await field.fill('');
    } finally {
      page.off('request', watch);
    }
    expect(posts).toEqual([]);
    expect((await own.pgs.projects.revisions.list(projectId)).length).toBe(2);
  });

  it('follows a revision started elsewhere and cancels it: revision 2 stays current, the credits come back', async () => {
    const pgs = own.pgs;
    const before = await pgs.credits.get();
    // Held in progress by the server for ten minutes: only the cancel ends it.
    const { revision } = await pgs.projects.revisions.create(projectId, {
      changeRequest: 'Add a waiting list for cancelled appointments',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    expect(revision).toBe(3);
    await page.reload();
    await waitForStatus(page, 'Completed');
    const card = reviseCard();
    await card
      .getByTestId('revision-status')
      .filter({ hasText: /^\s*In progress\s*$/ })
      .waitFor();
    await card.getByText('Revision 3', { exact: true }).waitFor();
    await currentRevisionLoaded();
    await waitForCredits(page, await pgs.credits.get());

    await card.getByRole('button', { name: 'Cancel revision' }).click();
    await card
      .getByTestId('revision-status')
      .filter({ hasText: /^\s*Cancelled\s*$/ })
      .waitFor();
    await focusedInView(card.getByRole('heading', { name: 'Revise', exact: true }));
    await waitForCredits(page, before);
    expect(await pgs.credits.get()).toEqual(before);
    await expect
      .poll(async () =>
        (await historyTable().getByRole('rowheader').allInnerTexts()).map((text) => text.trim()),
      )
      .toEqual(['3', '2 (current)', '1']);
    await historyTable()
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: '3', exact: true }) })
      .getByText('Cancelled', { exact: true })
      .waitFor();
    const status = await pgs.projects.get(projectId);
    expect(status.status === 'completed' && status.project).toEqual(second.project);
  });

  it('lists a project still unnamed by the start of its idea, not "Untitled project"', async () => {
    const pgs = own.pgs;
    // The definition (which names the project) takes its share of the simulated duration:
    // about 2 s of a minute, about 20 s of ten, so ten keep the project unnamed while it is
    // looked at, even on a loaded machine. The cancel ends it either way.
    const { projectId: running } = await pgs.projects.create({
      idea: RUNNING_IDEA,
      type: 'web',
      simulate: { outcome: 'completed', durationMs: 600_000 },
    });
    try {
      await page.getByRole('link', { name: 'Projects', exact: true }).click();
      await waitForFocusedHeading(page, 'Projects');
      const href = page.locator(`a[href="#/projects/${running}"]`);
      const row = page
        .getByRole('table', { name: 'Projects' })
        .getByRole('row')
        .filter({ has: href });
      const link = row.getByRole('link');
      await link.waitFor();
      await row.getByText('In progress', { exact: true }).waitFor();
      const listed = (await pgs.projects.list()).data.find((p) => p.projectId === running);
      // Still unnamed after the page was read: the page read it unnamed too.
      expect(listed?.name).toBeNull();
      expect(listed?.status).toBe('in_progress');
      const text = (await link.innerText()).trim();
      expect(text).toBe(listed?.ideaExcerpt);
      expect(RUNNING_IDEA.startsWith(text.replace(/…$/, ''))).toBe(true);
      expect(await row.innerText()).not.toMatch(/untitled/i);
      expect(
        await link
          .locator('.idea-excerpt')
          .evaluate((element) => getComputedStyle(element).fontStyle),
      ).toBe('italic');
    } finally {
      await pgs.projects.cancel(running);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}

/**
 * The words of `locator`'s text that the browser broke across lines (a word laid out in more
 * than one line box); empty when every word is whole.
 */
function splitWords(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const split: string[] = [];
    const text = element.firstChild;
    if (text === null || text.nodeType !== Node.TEXT_NODE) return ['(no text node)'];
    const range = document.createRange();
    for (const match of (text.textContent ?? '').matchAll(/\S+/g)) {
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (lines.size > 1) split.push(match[0]);
    }
    return split;
  });
}
