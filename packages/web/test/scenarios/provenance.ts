import type {
  PartProvenance,
  ProjectCompleted,
  ProjectListResponse,
  Provenance,
} from '@pgs/client';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { authorship, partsOf } from '../../src/provenance.ts';
import { auditScreen } from '../helpers/axe.ts';
import {
  openDocumentTab,
  signIn,
  titleOf,
  waitForFocusedHeading,
  waitForStatus,
  waitForText,
} from '../helpers/console.ts';
import type { Suite } from '../helpers/suite.ts';

const NOTICE = "Drafted by PGS's offline engine, not by an AI model";
const PROVENANCE_ROUTE = '**/api/v1/projects/*/provenance';
// The listing itself, not a project under it: matched on the path, whatever the query.
const LIST_ROUTE = (url: URL) => url.pathname === '/api/v1/projects';

/** The project's cost line, under its status line. */
const projectCost = (page: Page): Locator => page.getByTestId('project-cost');
/** The cost line of the document shown in the tab panel. */
const documentCost = (panel: Locator): Locator => panel.getByTestId('document-cost');

/** What the models' calls cost: a part's tokens and dollars as the API reports them. */
const usage = (
  inputTokens: number,
  cachedInputTokens: number,
  outputTokens: number,
  costUsd: number | null,
): Pick<
  PartProvenance,
  | 'inputTokens'
  | 'cachedInputTokens'
  | 'cacheWriteTokens'
  | 'outputTokens'
  | 'tokensUsed'
  | 'costUsd'
> => ({
  inputTokens,
  cachedInputTokens,
  cacheWriteTokens: 0,
  outputTokens,
  tokensUsed: inputTokens + outputTokens,
  costUsd,
});

/**
 * Who wrote a completed project and what it cost, as its page says: the real server's
 * offline engine gets a plain notice near the top with how to configure a model, costs
 * nothing in model fees, and writes English where French was asked, which the page says
 * beside the requirement style and the conventions' version; a provenance of models
 * (answered in place of the server's) names them in the meta line, says what the project
 * and each document cost (or "unknown" for a model without a price) and counts each
 * document's remaining findings in words. The projects list shows each project's cost.
 * Starts and ends signed out.
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
      // Asked in French: the offline engine writes English, and the page says so.
      language: 'fr',
      requirementStyle: 'gherkin',
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
    // The offline engine's price is 0, a known price: the API says $0, the page no model fees.
    expect(provenance.totals.costUsd).toBe(0);
    await waitForText(
      projectCost(page),
      "Model cost $0 · no model fees: PGS's offline engine wrote it",
    );
    expect(await top(status)).toBeLessThan(await top(projectCost(page)));
    expect(provenance.conventionsVersion).toBeNull();
    await waitForText(
      page.getByTestId('project-writing'),
      'Written in English by the offline engine (asked: French (fr)) · Requirement style: Gherkin · No house conventions',
    );
    const [first] = completed.project.documents;
    if (first === undefined) throw new Error('a project without documents');
    const panel = await openDocumentTab(page, titleOf(first.content));
    await waitForText(documentCost(panel), 'This document: $0, no model fees (the offline engine)');
    await notice.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    expect(await auditScreen(page, 'project-offline-notice')).toEqual([]);
  });

  it('a project models wrote: the engines in the meta line, no notice, its cost and each document its cost and findings in words', async () => {
    const [first, second] = completed.project.documents;
    if (first === undefined || second === undefined) throw new Error('fewer than two documents');
    const byModels: Provenance = {
      ...provenance,
      // Models write the language asked, under the conventions' version 3.
      language: 'de',
      writtenInEnglish: [],
      requirementStyle: 'ears',
      conventionsVersion: 3,
      // As the API adds the parts up; the page shows them as given.
      totals: {
        inputTokens: 53_412,
        cachedInputTokens: 32_047,
        cacheWriteTokens: 0,
        outputTokens: 9_726,
        costUsd: 0.227,
      },
      definition: provenance.definition && {
        ...provenance.definition,
        ...usage(4_102, 0, 1_288, 0.0325),
        engine: 'anthropic:claude-sonnet-4-5',
      },
      documents: provenance.documents.map((part) => ({
        ...part,
        ...(part.kind === first.type
          ? usage(7_210, 5_120, 1_340, 0.0312)
          : usage(3_900, 2_600, 610, 0.0121)),
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
    // The same, but the second document's model had no price: its cost and the total are null.
    const unpriced: Provenance = {
      ...byModels,
      totals: { ...byModels.totals, costUsd: null },
      documents: byModels.documents.map((part) =>
        part.kind === second.type ? { ...part, costUsd: null } : part,
      ),
    };
    expect(partsOf(byModels).length).toBe(partsOf(provenance).length);
    let answer = byModels;
    await page.route(PROVENANCE_ROUTE, (route) =>
      route.fulfill({ status: 200, json: { success: true, data: answer } }),
    );
    try {
      await page.reload();
      await waitForStatus(page, 'Completed');
      await page
        .locator('.meta')
        .filter({ hasText: 'written by anthropic:claude-sonnet-4-5 and openai:gpt-4.1-mini' })
        .waitFor();
      expect(await page.getByRole('note', { name: NOTICE }).count()).toBe(0);
      await waitForText(
        page.getByTestId('project-writing'),
        'Written in German (de) · Requirement style: EARS · Conventions v3',
      );
      await waitForText(
        projectCost(page),
        'Model cost $0.2270 · 53,412 input tokens (60\u00a0% from the prompt cache) · 9,726 output tokens',
      );
      expect(await page.getByText('PGS_MODEL_PRICES').count()).toBe(0);

      const panel = await openDocumentTab(page, titleOf(first.content));
      await waitForText(
        documentCost(panel),
        'This document: $0.0312 · 7,210 input tokens, 5,120 from the cache · 1,340 output',
      );
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
      await waitForText(
        documentCost(clean),
        'This document: $0.0121 · 3,900 input tokens, 2,600 from the cache · 610 output',
      );

      // A model without a price: "unknown", never a guess, and who can set prices.
      answer = unpriced;
      await page.reload();
      await waitForStatus(page, 'Completed');
      await waitForText(
        projectCost(page),
        'Model cost unknown · 53,412 input tokens (60\u00a0% from the prompt cache) · 9,726 output tokens',
      );
      const reason = page.getByText('The cost is unknown because a model it called has no price');
      await reason.waitFor();
      expect(await reason.innerText()).toContain('PGS_MODEL_PRICES');
      const unknown = await openDocumentTab(page, titleOf(second.content));
      await waitForText(
        documentCost(unknown),
        'This document: cost unknown · 3,900 input tokens, 2,600 from the cache · 610 output',
      );
      const priced = await openDocumentTab(page, titleOf(first.content));
      await waitForText(
        documentCost(priced),
        'This document: $0.0312 · 7,210 input tokens, 5,120 from the cache · 1,340 output',
      );
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await auditScreen(page, 'project-cost')).toEqual([]);
    } finally {
      await page.unroute(PROVENANCE_ROUTE);
    }
  });

  it('lists what each project cost so far: $0 for the offline engine, cents from a dollar, unknown for null', async () => {
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await waitForFocusedHeading(page, 'Projects');
    const table = page.getByRole('table', { name: 'Projects' });
    await table.getByRole('columnheader', { name: 'Model cost' }).waitFor();
    const headers = (await table.getByRole('columnheader').allInnerTexts()).map((t) => t.trim());
    const column = headers.indexOf('Model cost');
    expect(column).toBeGreaterThan(0);
    const row = (projectId: string) =>
      table.locator('tbody tr').filter({
        has: page.locator(`a[href="#/projects/${projectId}"]`),
      });
    const costOf = (projectId: string) => row(projectId).getByRole('cell').nth(column);
    // The real server's answer: the offline engine's project cost $0.
    await waitForText(costOf(completed.projectId), '$0');

    // The listing's costs answered in place of the server's: priced, a dollar and more, unknown.
    const [priced, dollars, unknown] = (await suite.server.pgs.projects.list({ limit: 3 })).data;
    if (priced === undefined || dollars === undefined || unknown === undefined) {
      throw new Error('fewer than three projects');
    }
    const costs = new Map<string, number | null>([
      [priced.projectId, 0.227],
      [dollars.projectId, 12.5],
      [unknown.projectId, null],
    ]);
    await page.route(LIST_ROUTE, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as ProjectListResponse;
      body.data = body.data.map((project) => ({
        ...project,
        costUsd: costs.has(project.projectId)
          ? (costs.get(project.projectId) ?? null)
          : project.costUsd,
      }));
      await route.fulfill({ response, json: body });
    });
    try {
      await page.reload();
      await waitForFocusedHeading(page, 'Projects');
      await waitForText(costOf(priced.projectId), '$0.2270');
      await waitForText(costOf(dollars.projectId), '$12.50');
      await waitForText(costOf(unknown.projectId), 'unknown');
      expect(await auditScreen(page, 'projects-cost')).toEqual([]);
    } finally {
      await page.unroute(LIST_ROUTE);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}
