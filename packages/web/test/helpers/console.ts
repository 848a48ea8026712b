import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../../../server/test/helpers/wait.ts';

/**
 * Selectors and steps of the console as docs/console.md's UI contract names them, so a test
 * reads as what a user does. Every wait has a deadline and waits on a condition.
 */

/** The status text of the project screen ("In progress", "Completed", "Failed", "Cancelled"). */
export const projectStatus = (page: Page): Locator => page.getByTestId('project-status');

/** Waits until the project screen's status reads exactly `status`. */
export async function waitForStatus(page: Page, status: string, timeout = 20_000): Promise<void> {
  await projectStatus(page)
    .filter({ hasText: new RegExp(`^\\s*${status}\\s*$`) })
    .waitFor({ timeout });
}

/**
 * Waits until focus is on the page's `<h1>` and its text is `name` (navigation moves focus
 * there); resolves with the heading's text.
 */
export async function waitForFocusedHeading(page: Page, name: string | RegExp): Promise<string> {
  const pattern = typeof name === 'string' ? `^${escapeRegExp(name)}$` : name.source;
  const handle = await page.waitForFunction(
    (source) => {
      const active = document.activeElement;
      if (active?.tagName !== 'H1') return undefined;
      const text = active.textContent?.trim() ?? '';
      return new RegExp(source).test(text) ? text : undefined;
    },
    pattern,
    { timeout: 15_000 },
  );
  return (await handle.jsonValue()) as string;
}

/** Whether `locator`'s element has the keyboard focus. */
export const isFocused = (locator: Locator): Promise<boolean> =>
  locator.evaluate((element) => element === document.activeElement);

/**
 * Presses Tab until `target` has the focus, as a keyboard user does; fails after `max` presses
 * (the control is then not reachable by keyboard, or not where a user would look for it).
 */
export async function tabTo(page: Page, target: Locator, max = 30): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  if (await isFocused(target)) return;
  throw new Error(`${target} not reached after ${max} presses of Tab`);
}

/** Signs in by typing `key` into "API key" and pressing "Sign in"; waits for the projects. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
}

/** The header's banner, which shows the mode, the balance and what is reserved. */
export const banner = (page: Page): Locator => page.getByRole('banner');

/** Waits until the header reads "Balance: <balance> credits" and "Reserved: <reserved> credits". */
export async function waitForCredits(
  page: Page,
  { balance, reserved }: { balance: number; reserved: number },
): Promise<void> {
  const header = banner(page);
  await header.filter({ hasText: `Balance: ${balance} credits` }).waitFor();
  await header.filter({ hasText: `Reserved: ${reserved} credits` }).waitFor();
}

/** The first number in the text of `locator` after `label` (e.g. "Price: 47 credits" → 47). */
export async function numberAfter(locator: Locator, label: string): Promise<number> {
  const text = await locator.innerText();
  const match = new RegExp(`${escapeRegExp(label)}\\s*(\\d[\\d,]*)`).exec(text);
  if (match === null) throw new Error(`no "${label} <n>" in: ${text}`);
  return Number(match[1]!.replace(/,/g, ''));
}

/**
 * Waits until `locator`'s single element reads exactly `text` (spaces at the ends aside); on
 * the deadline the error says what it read instead.
 *
 * @example
 * await waitForText(page.getByTestId('project-cost'), 'Model cost $0.2270 · …');
 */
export async function waitForText(
  locator: Locator,
  text: string,
  timeoutMs = 15_000,
): Promise<void> {
  let last = '(nothing)';
  try {
    await waitFor(
      async () => {
        if ((await locator.count()) !== 1) return undefined;
        last = (await locator.innerText()).trim();
        return last === text ? true : undefined;
      },
      { timeoutMs, what: `"${text}"` },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; read "${last}" at ${locator}`);
  }
}

/** The page's web storage: sessionStorage's entries and localStorage's size. */
export function storage(page: Page): Promise<{ session: Record<string, string>; local: number }> {
  return page.evaluate(() => ({
    session: Object.fromEntries(
      Array.from({ length: sessionStorage.length }, (_, index) => {
        const name = sessionStorage.key(index) ?? '';
        return [name, sessionStorage.getItem(name) ?? ''];
      }),
    ),
    local: localStorage.length,
  }));
}

/**
 * Watches the in-progress Documents list until the status leaves "In progress" and returns
 * the successive numbers of documents marked "done" it saw while the project was running.
 */
export async function watchDocumentsArrive(page: Page, timeoutMs = 45_000): Promise<number[]> {
  const done = page
    .getByRole('list', { name: 'Documents' })
    .getByRole('listitem')
    .filter({ hasText: /\bdone\b/i });
  const seen: number[] = [];
  await waitFor(
    async () => {
      const count = await done.count();
      // Read the status after the count: a count is kept only if it was read while running.
      const status = (await projectStatus(page).innerText()).trim();
      if (status !== 'In progress') return status;
      if (seen.at(-1) !== count) seen.push(count);
      return undefined;
    },
    { timeoutMs, intervalMs: 25, what: 'the project to leave "In progress"' },
  );
  return seen;
}

/** `text` with the characters a RegExp treats specially escaped. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Selects the Documents tab named `title` by clicking it and resolves with the tab panel once
 * it shows that document (a heading in `.markdown` starting with "<title>:", as the offline
 * engine's documents begin), so nothing is read from the panel that was shown before.
 */
export async function openDocumentTab(page: Page, title: string): Promise<Locator> {
  const tab = page
    .getByRole('tablist', { name: 'Documents' })
    .getByRole('tab', { name: title, exact: true });
  await tab.click();
  await waitFor(
    async () => ((await tab.getAttribute('aria-selected')) === 'true' ? true : undefined),
    {
      what: `the tab "${title}" selected`,
    },
  );
  const panel = page.getByRole('tabpanel');
  await panel
    .locator('.markdown')
    .getByRole('heading', { name: new RegExp(`^${escapeRegExp(title)}:`) })
    .first()
    .waitFor();
  return panel;
}

/** A document's title: its first heading up to the project's name ("# Architecture: X"). */
export function titleOf(markdown: string): string {
  const heading = /^# (.+?)(?::|$)/m.exec(markdown);
  if (heading === null) throw new Error('a document without a first heading');
  return heading[1]!.trim();
}
