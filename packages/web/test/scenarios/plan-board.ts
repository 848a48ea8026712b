import type { ProjectCompleted, Task, Trace } from '@pgs/client';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { auditScreen, axeViolations } from '../helpers/axe.ts';
import { screenshot } from '../helpers/browser.ts';
import { signIn, waitForFocusedHeading, waitForStatus, waitForText } from '../helpers/console.ts';
import type { Suite } from '../helpers/suite.ts';

const AGENT = 'claude-1';

/**
 * The plan of a completed project as a board, against the real server: the columns and a
 * leased card as the API lists them, delivery per requirement in the coverage matrix, a move
 * by a button and one by keys (the focus staying on the card in its new column, the live
 * region saying what moved), a move the status machine refuses naming the moves there are,
 * and a card changed behind the page's back (412) shown as it is now. Starts and ends signed
 * out.
 */
export function planBoard(current: () => Suite): void {
  let suite: Suite;
  let page: Page;
  let projectId: string;
  /** The task an agent claimed through the SDK before the page opened. */
  let claimed: Task;
  /** The task the page moves, the first to do serving a functional requirement, and that requirement. */
  let worked: Task;
  let requirement: string;

  const board = () => page.getByRole('region', { name: 'Plan', exact: true });
  const column = (name: string) =>
    board().getByRole('region', { name: new RegExp(`^${name} \\(`) });
  const card = (id: string) => board().locator(`[data-task="${id}"]`);
  const announcement = () => board().getByRole('status');
  const deliveryOf = (fr: string) =>
    page
      .getByRole('table', { name: 'Functional requirements and what reaches them' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${fr} `) }) })
      .locator('td.delivery');
  /** The Delivery cell's first line as the API's tasks say it should read now. */
  const expectedDelivery = async (fr: string) => {
    const serving = (await suite.server.pgs.projects.tasks.list(projectId)).filter(
      (task) => task.requirements.includes(fr) && task.status !== 'obsolete',
    );
    const done = serving.filter((task) => task.status === 'done').length;
    const noun = serving.length === 1 ? 'task' : 'tasks';
    const text = `${done} of ${serving.length} ${noun} done`;
    return done === serving.length ? `Delivered: ${text}` : text;
  };
  const deliveryReads = async (fr: string, text: string) => {
    await waitFor(
      async () => ((await deliveryOf(fr).innerText()).startsWith(text) ? true : undefined),
      { what: `${fr}'s delivery to read "${text}"` },
    );
  };
  /** Where the focus is: the task of the focused card and the column it is in. */
  const focused = () =>
    page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      const heading = active?.closest('.board-column')?.querySelector('h3')?.textContent ?? '';
      return { task: active?.dataset.task, column: heading.replace(/ \(\d+\)$/, '') };
    });

  beforeAll(() => {
    suite = current();
    page = suite.page;
  });

  it('shows the plan by status, the lease of a claimed task and delivery per requirement', async () => {
    const { pgs } = suite.server;
    ({ projectId } = await pgs.projects.create({
      idea: 'A tool library for a housing co-op where members lend drills and ladders',
      simulate: { outcome: 'completed', durationMs: 500 },
    }));
    const done = (await pgs.projects.waitForCompletion(projectId, {
      pollIntervalMs: 200,
    })) as ProjectCompleted;
    expect(done.status).toBe('completed');
    const next = await pgs.projects.tasks.next(projectId, { agent: AGENT });
    if (next === null) throw new Error('the plan has no task ready');
    claimed = next.task;
    const tasks = await pgs.projects.tasks.list(projectId);
    const serving = tasks.find(
      (task) => task.status === 'todo' && task.requirements.some((id) => id.startsWith('FR-')),
    );
    if (serving === undefined) throw new Error('no task to do serves a functional requirement');
    worked = serving;
    requirement = worked.requirements.find((id) => id.startsWith('FR-'))!;

    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, suite.server.testKey);
    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'Completed');

    const todo = tasks.filter((task) => task.status === 'todo');
    await column('To do')
      .getByRole('heading', { name: `To do (${todo.length})` })
      .waitFor();
    expect(
      await column('To do')
        .locator('[data-task]')
        .evaluateAll((cards) => cards.map((each) => (each as HTMLElement).dataset.task)),
    ).toEqual(todo.map((task) => task.id));
    const leased = column('In progress').locator(`[data-task="${claimed.id}"]`);
    const text = await leased.innerText();
    for (const part of [
      claimed.id,
      claimed.title,
      claimed.phase,
      claimed.requirements.join(', '),
    ]) {
      expect(text).toContain(part);
    }
    expect(await leased.getByTestId('task-lease').innerText()).toMatch(
      new RegExp(`^${AGENT} until `),
    );
    expect(await leased.locator('time').getAttribute('datetime')).toBe(claimed.lease?.expiresAt);
    expect(text).toContain(`Assignee ${AGENT}`);

    // Delivery: the trace's progress when the server sends it, else the task list's count.
    const trace: Trace = await pgs.projects.trace(projectId);
    for (const fr of trace.coverage.requirements) {
      await deliveryReads(fr.id, await expectedDelivery(fr.id));
    }
    await board()
      .getByRole('heading', { level: 2, name: 'Plan' })
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    expect(await auditScreen(page, 'project-board')).toEqual([]);
  });

  it('moves a card by its button and by keys, keeping the focus on it, and says so', async () => {
    const { id } = worked;
    const inColumn = (name: string) => column(name).locator(`[data-task="${id}"]`);
    const focusIn = (name: string) =>
      waitFor(
        async () => {
          const now = await focused();
          return now.task === id && now.column === name ? true : undefined;
        },
        { what: `the focus on ${id} in ${name}` },
      );
    await card(id)
      .getByRole('button', { name: `Move ${id} to In progress` })
      .click();
    await inColumn('In progress').waitFor();
    await waitForText(announcement(), `Moved ${id} from To do to In progress.`);
    await focusIn('In progress');

    await page.keyboard.press('Shift+ArrowRight');
    await inColumn('Blocked').waitFor();
    await waitForText(announcement(), `Moved ${id} from In progress to Blocked.`);
    await focusIn('Blocked');
    await page.keyboard.press('4');
    await inColumn('Done').waitFor();
    await waitForText(announcement(), `Moved ${id} from Blocked to Done.`);
    await focusIn('Done');
    expect((await suite.server.pgs.projects.tasks.get(projectId, id)).task.status).toBe('done');
    await deliveryReads(requirement, await expectedDelivery(requirement));
    await deliveryOf(requirement).evaluate((element) =>
      element.scrollIntoView({ block: 'center' }),
    );
    await screenshot(page, 'project-delivery');
  });

  it('names the moves there are when one is refused, and reloads a card changed elsewhere', async () => {
    const mine: Locator = card(worked.id);
    await page.keyboard.press('Shift+ArrowLeft');
    await waitForText(
      mine.getByRole('alert'),
      `${worked.id} cannot move from Done to Blocked. From Done it can move to To do or Obsolete.`,
    );
    for (const to of ['To do', 'Obsolete']) {
      await mine.getByRole('button', { name: `Move ${worked.id} to ${to}`, exact: true }).waitFor();
    }
    expect(await axeViolations(page)).toEqual([]);
    await board()
      .getByRole('heading', { level: 2, name: 'Plan' })
      .evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'project-board-refused');

    // Someone else changes the task after the page's last write of it: the page's ETag is stale.
    const { pgs } = suite.server;
    const read = await pgs.projects.tasks.get(projectId, worked.id);
    await pgs.projects.tasks.update(
      projectId,
      worked.id,
      { assignee: 'ana', note: 'Mine now.' },
      { ifMatch: read.etag },
    );
    await mine.focus();
    await page.keyboard.press('1');
    await waitForText(
      mine.getByRole('alert'),
      `${worked.id} was changed by someone else since this page read it. The card now shows it as it is: check it, then move it again if you still want to.`,
    );
    expect(await mine.innerText()).toContain('Assignee ana');
    expect((await pgs.projects.tasks.get(projectId, worked.id)).task.status).toBe('done');

    // The card now carries the version it shows: the same move goes through.
    await page.keyboard.press('1');
    await column('To do').locator(`[data-task="${worked.id}"]`).waitFor();
    await waitForText(announcement(), `Moved ${worked.id} from Done to To do.`);
    expect(await mine.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}
