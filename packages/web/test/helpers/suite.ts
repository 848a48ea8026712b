import { Pgs } from '@pgs/client';
import type { Browser } from 'playwright-core';
import { clearFailures, launchBrowser, openPage, type WatchedPage } from './browser.ts';
import { buildConsole } from './build.ts';
import { type ConsoleServer, startConsoleServer } from './server.ts';

/** What one browser test file shares: one server, one Chromium, one watched page. */
export interface Suite extends WatchedPage {
  server: ConsoleServer;
  browser: Browser;
  /** Closes the browser and stops the server. */
  stop(): Promise<void>;
}

/**
 * Builds the console if needed, and starts the server and Chromium, all side by side (the
 * server reads the build per request, so none waits for another), then opens a page guarded
 * against the printed key appearing in a URL. If anything fails, what did start is stopped
 * before the error is thrown, so no process outlives the file.
 *
 * @example
 * let suite: Suite;
 * beforeAll(async () => { suite = await startSuite(); }, 180_000);
 * afterAll(() => suite?.stop());
 */
export async function startSuite(): Promise<Suite> {
  await clearFailures();
  const [built, server, browser] = await Promise.allSettled([
    buildConsole(),
    startConsoleServer(),
    launchBrowser(),
  ]);
  const stop = async () => {
    if (browser.status === 'fulfilled') await browser.value.close();
    if (server.status === 'fulfilled') await server.value.stop();
  };
  if (
    built.status === 'rejected' ||
    server.status === 'rejected' ||
    browser.status === 'rejected'
  ) {
    await stop();
    const failed = [built, server, browser].find((result) => result.status === 'rejected');
    throw (failed as PromiseRejectedResult).reason;
  }
  const watched = await openPage(browser.value, server.value.baseUrl);
  watched.guardSecret(server.value.testKey);
  return { ...watched, server: server.value, browser: browser.value, stop };
}

/**
 * A test-mode key of the scenario's own with 1,000 credits, guarded like the printed key, and
 * a client on it that caches no project: what a scenario spends (credits, the per-key rate
 * limits, conventions) reaches no other scenario.
 *
 * @example
 * beforeAll(async () => { own = await ownKey(current()); });
 */
export async function ownKey(suite: Suite): Promise<{ key: string; pgs: Pgs }> {
  const { key } = await suite.server.admin.keys.create({ mode: 'test', credits: 1_000 });
  suite.guardSecret(key);
  return {
    key,
    pgs: new Pgs({ apiKey: key, baseUrl: suite.server.baseUrl, maxCachedProjects: 0 }),
  };
}
