import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnavailable, recordFailure } from './helpers/browser.ts';
import { type Suite, startSuite } from './helpers/suite.ts';
import { asking } from './scenarios/asking.ts';
import { codebaseProvenance } from './scenarios/codebase.ts';
import { errorsAndSafety } from './scenarios/errors-and-safety.ts';
import { firstVisit } from './scenarios/first-visit.ts';
import { planBoard } from './scenarios/plan-board.ts';
import { engineProvenance } from './scenarios/provenance.ts';
import { revisions } from './scenarios/revisions.ts';
import { trackers } from './scenarios/trackers.ts';

const skip = await chromiumUnavailable();

/**
 * The console in a real browser (Debian's Chromium through playwright-core) against the real
 * server started as a user starts it. One server and one browser serve the whole file: its
 * scenarios run in order, each carrying on from the screen the one before left.
 */
// Each test waits on conditions with deadlines of its own; the margin is for a loaded machine.
describe.skipIf(skip !== undefined)('the console in Chromium', { timeout: 60_000 }, () => {
  let suite: Suite | undefined;
  let page: Page | undefined;
  const current = () => {
    if (suite === undefined) throw new Error('the browser suite did not start');
    return suite;
  };

  beforeAll(async () => {
    suite = await startSuite();
    page = suite.page;
  }, 240_000);
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') await recordFailure(page, task.name);
  });
  afterAll(async () => {
    await suite?.stop();
  });

  describe('a first visit', () => firstVisit(current));
  describe('who wrote a project', () => engineProvenance(current));
  describe('the codebase a project is grounded in', () => codebaseProvenance(current));
  describe('revising a project', () => revisions(current));
  describe('working the plan', () => planBoard(current));
  describe('pushing a project to a tracker', () => trackers(current));
  describe('asking before writing', () => asking(current));
  describe('errors and safety', () => errorsAndSafety(current));

  it('saw no CSP violation, page error or dialog, no key in a URL, no localStorage write', () => {
    expect(current().problems).toEqual({
      csp: [],
      errors: [],
      dialogs: [],
      keyInUrl: [],
      localStorage: [],
    });
  });
});
