import { access, constants, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** Screenshots land here (gitignored): test output, never committed. */
export const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** The two window sizes every screen is checked at: a laptop and a phone. */
export const LAPTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/**
 * Flags for a headless Chromium on a shared CI machine: no sandbox (CI runs as root), no GPU,
 * and none of the background traffic (updates, sync, QUIC probes) that would make the tests
 * depend on the network.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `undefined` when Chromium can run the tests, else the one-line reason to skip them.
 * With CI=true a missing Chromium throws instead: CI must not pass by skipping.
 *
 * @example
 * const skip = await chromiumUnavailable();
 * describe.skipIf(skip !== undefined)('the console', () => {…});
 */
export async function chromiumUnavailable(): Promise<string | undefined> {
  try {
    await access(CHROMIUM, constants.X_OK);
    return undefined;
  } catch {
    const reason = `${CHROMIUM} is missing (install it with: apt-get install -y chromium)`;
    if (process.env.CI === 'true') throw new Error(`${reason}; it is required when CI=true`);
    console.warn(`skipping the browser tests: ${reason}`);
    return reason;
  }
}

/** Launches the one headless Chromium a test file shares. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
}

/** What went wrong in a page that no single assertion looks for. */
export interface PageProblems {
  /** Content-Security-Policy violations, from the DOM event and from Chromium's console. */
  csp: string[];
  /** Uncaught exceptions in the page. */
  errors: string[];
  /** alert/confirm/prompt dialogs that opened (each is dismissed). */
  dialogs: string[];
  /** Requests whose URL carried the API key (it must travel only in `Authorization`). */
  keyInUrl: string[];
  /** Writes to localStorage (the key must never be kept there, nor anything else). */
  localStorage: string[];
}

/** A page with its problems collected from the first navigation on. */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  /** Adds a secret (an API key) that must never appear in a request URL. */
  guardSecret(secret: string): void;
}

/**
 * Opens a fresh context (its own sessionStorage and localStorage) and page at `baseUrl`'s
 * origin, at the laptop size, with downloads accepted, the clipboard granted and every CSP
 * violation, page error and dialog recorded. The CSP is enforced: no `bypassCSP`.
 */
export async function openPage(browser: Browser, baseUrl: string): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: LAPTOP, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const problems: PageProblems = {
    csp: [],
    errors: [],
    dialogs: [],
    keyInUrl: [],
    localStorage: [],
  };
  const secrets: string[] = [];
  // A binding reports from the page to this process through DevTools, not a global the page
  // could read, and survives reloads; the init script is injected by DevTools too, so the CSP
  // neither blocks it nor counts it.
  await context.exposeBinding('__pgsTestReport', (_source, kind: 'csp' | 'local', text: string) => {
    (kind === 'csp' ? problems.csp : problems.localStorage).push(text);
  });
  await context.addInitScript(() => {
    const report = (kind: string, text: string) =>
      (window as unknown as Record<string, (kind: string, text: string) => void>).__pgsTestReport?.(
        kind,
        text,
      );
    document.addEventListener('securitypolicyviolation', (event) => {
      report('csp', `${event.violatedDirective} blocked ${event.blockedURI} ${event.sample}`);
    });
    // The key belongs in sessionStorage only: any write to localStorage is reported.
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (this: Storage, name: string, value: string) {
      if (this === window.localStorage) report('local', `localStorage.setItem(${name})`);
      setItem.call(this, name, value);
    };
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.csp.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(String(error)));
  page.on('dialog', (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (secrets.some((secret) => request.url().includes(secret))) {
      problems.keyInUrl.push(request.url());
    }
  });
  return { context, page, problems, guardSecret: (secret) => secrets.push(secret) };
}

/**
 * Writes `<name>.png` of the window as a user sees it (not the full scroll height, so the
 * README can show it as is) into the test-output directory; returns its path.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  const file = path.join(OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  return file;
}

/**
 * After a failed test: a screenshot `failed-<test>.png` and the page's address and visible
 * text on stderr, so a failure in CI shows what the user would have seen.
 */
export async function recordFailure(page: Page | undefined, test: string): Promise<void> {
  if (page === undefined || page.isClosed()) return;
  const name = `failed-${test
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)}`;
  try {
    await screenshot(page, name);
    const text = await page.locator('body').innerText({ timeout: 2_000 });
    // The top of the page says where the user was; a whole document would drown the log.
    console.error(`${test}: the page at ${page.url()} showed:\n${text.slice(0, 1_500)}`);
  } catch (error) {
    console.error(`${test}: could not record the page (${String(error)})`);
  }
}

/** Removes the failure screenshots of an earlier run, so the directory shows this run's. */
export async function clearFailures(): Promise<void> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  const old = (await readdir(OUTPUT_DIR)).filter((name) => /^failed-.*\.png$/.test(name));
  await Promise.all(old.map((name) => rm(path.join(OUTPUT_DIR, name), { force: true })));
}
