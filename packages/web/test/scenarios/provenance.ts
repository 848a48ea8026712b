import type { ProjectCompleted, Provenance } from '@pgs/client';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { authorship, partsOf } from '../../src/provenance.ts';
import { auditScreen } from '../helpers/axe.ts';
import {
  openDocumentTab,
  signIn,
  titleOf,
  waitForFocusedHeading,
  waitForStatus,
} from '../helpers/console.ts';
import type { Suite } from '../helpers/suite.ts';

const NOTICE = "Drafted by PGS's offline engine, not by an AI model";
const PROVENANCE_ROUTE = '**/api/v1/projects/*/provenance';

/**
 * Who wrote a completed project, as its page says: the real server's offline engine gets a
 * plain notice near the top with how to configure a model; a provenance of models (answered
 * in place of the server's) names them in the meta line and counts each document's
 * remaining findings in words. Starts and ends signed out.
 */
export function engineProvenance(current: () => Suite): void {
  let suite: Suite;
  let page: Page;
  let completed: ProjectCompleted;
  let provenance: Provenance;

  beforeAll(() => {
    suite = current();
    page = suite.page;
  });

  it('says plainly that the offline engine wrote the documents, and how to configure a model', async () => {
    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, suite.server.testKey);
    const { projectId } = await suite.server.pgs.projects.create({
      idea: 'A sign-up sheet for a neighbourhood choir that rehearses every week',
      simulate: { outcome: 'completed', durationMs: 500 },
    });
    completed = (await suite.server.pgs.projects.waitForCompletion(projectId, {
      pollIntervalMs: 200,
    })) as ProjectCompleted;
    expect(completed.status).toBe('completed');
    provenance = await suite.server.pgs.projects.provenance(projectId);
    // The server of this test has no PGS_MODELS or PGS_TEST_MODELS: the built-in engine.
    expect(authorship(provenance)).toEqual({ kind: 'offline' });

    await page.goto(`${suite.server.baseUrl}/#/projects/${projectId}`);
    await waitForStatus(page, 'Completed');
    const notice = page.getByRole('note', { name: NOTICE });
    await notice.waitFor();
    const text = await notice.innerText();
    for (const words of [
      'rules and templates, with no AI model',
      'PGS_MODELS',
      'PGS_TEST_MODELS',
      'openai:gpt-4.1-mini',
      'OPENAI_API_KEY',
      'anthropic:claude-sonnet-4-5',
      'ANTHROPIC_API_KEY',
      '"Generating with AI models"',
    ]) {
      expect(text).toContain(words);
    }
    // Near the top: under the status line, above the description and the documents.
    const top = async (locator: ReturnType<Page['getByText']>) =>
      (await locator.boundingBox())?.y ?? Number.NaN;
    const status = page.getByTestId('project-status');
    const description = page.getByText(completed.project.description.slice(0, 60)).first();
    const documents = page.getByRole('heading', { level: 2, name: 'Documents' });
    expect(await top(status)).toBeLessThan(await top(notice));
    expect(await top(notice)).toBeLessThan(await top(description));
    expect(await top(notice)).toBeLessThan(await top(documents));
    expect(await page.locator('.meta').first().innerText()).not.toContain('written by');
    await notice.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    expect(await auditScreen(page, 'project-offline-notice')).toEqual([]);
  });

  it('a project models wrote: the engines in the meta line, no notice, each document its findings in words', async () => {
    const [first, second] = completed.project.documents;
    if (first === undefined || second === undefined) throw new Error('fewer than two documents');
    const byModels: Provenance = {
      ...provenance,
      definition: provenance.definition && {
        ...provenance.definition,
        engine: 'anthropic:claude-sonnet-4-5',
      },
      documents: provenance.documents.map((part) => ({
        ...part,
        engine: part.kind === second.type ? 'openai:gpt-4.1-mini' : 'anthropic:claude-sonnet-4-5',
        findings:
          part.kind === first.type
            ? [
                {
                  rule: 'fr-without-task',
                  severity: 'medium' as const,
                  message: 'FR-2 is not implemented by any task.',
                },
                {
                  rule: 'placeholder',
                  severity: 'high' as const,
                  message: 'A "TBD" is left in "Scope".',
                },
              ]
            : [],
      })),
    };
    expect(partsOf(byModels).length).toBe(partsOf(provenance).length);
    await page.route(PROVENANCE_ROUTE, (route) =>
      route.fulfill({ status: 200, json: { success: true, data: byModels } }),
    );
    try {
      await page.reload();
      await waitForStatus(page, 'Completed');
      await page
        .locator('.meta')
        .filter({ hasText: 'written by anthropic:claude-sonnet-4-5 and openai:gpt-4.1-mini' })
        .waitFor();
      expect(await page.getByRole('note', { name: NOTICE }).count()).toBe(0);

      const panel = await openDocumentTab(page, titleOf(first.content));
      const summary = panel.getByText('Quality: 2 findings left by the checks (1 high, 1 medium)');
      await summary.waitFor();
      await summary.click();
      const items = panel.locator('.quality li');
      await items.first().waitFor();
      // The worst first, each severity a word beside its rule and message.
      expect((await items.allInnerTexts()).map((t) => t.trim())).toEqual([
        'High placeholder A "TBD" is left in "Scope".',
        'Medium fr-without-task FR-2 is not implemented by any task.',
      ]);
      await panel.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      expect(await auditScreen(page, 'project-quality')).toEqual([]);

      const clean = await openDocumentTab(page, titleOf(second.content));
      expect(await clean.locator('.quality').count()).toBe(0);
    } finally {
      await page.unroute(PROVENANCE_ROUTE);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}
