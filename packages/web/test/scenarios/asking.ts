import type { ClarifyingAnswer, ProjectCompleted } from '@pgs/client';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { auditScreen } from '../helpers/axe.ts';
import { signIn, waitForFocusedHeading, waitForStatus } from '../helpers/console.ts';
import type { Suite } from '../helpers/suite.ts';

const IDEA = 'A booking tool for dog groomers with SMS reminders the day before';

/**
 * Asking before writing, against the real server: "Ask me first" shows the questions
 * `ideas.clarify` asks, the recommended answers filled in; an answer changed by one of its
 * common answers is sent with the others, and the documents written hold it as a fact.
 * Starts and ends signed out.
 */
export function asking(current: () => Suite): void {
  let suite: Suite;
  let page: Page;

  beforeAll(() => {
    suite = current();
    page = suite.page;
  });

  it('asks first, with the recommended answers filled in, and writes the answers given', async () => {
    const { pgs } = suite.server;
    const questions = await pgs.ideas.clarify({ idea: IDEA });
    const changed = questions.find((question) => (question.options ?? []).length > 1);
    if (changed === undefined) throw new Error('no question with common answers to choose from');
    const chosen = changed.options!.find((option) => option !== changed.recommended)!;

    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, suite.server.testKey);
    await page.getByRole('link', { name: 'New project' }).click();
    await waitForFocusedHeading(page, 'New project');
    await page.getByLabel('Idea').fill(IDEA);
    await page.getByRole('button', { name: 'Ask me first' }).click();
    const heading = page.getByRole('heading', { level: 2, name: 'Before writing' });
    await heading.waitFor();
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    for (const question of questions) {
      const field = page.getByLabel(question.question, { exact: true });
      expect(await field.inputValue()).toBe(question.recommended);
    }
    const options = page.getByRole('group', { name: `Answers to: ${changed.question}` });
    await options.getByRole('button', { name: chosen, exact: true }).click();
    expect(await page.getByLabel(changed.question, { exact: true }).inputValue()).toBe(chosen);
    expect(
      await options.getByRole('button', { name: chosen, exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await auditScreen(page, 'new-project-ask')).toEqual([]);

    const [request] = await Promise.all([
      page.waitForRequest(
        (each) => each.method() === 'POST' && each.url().endsWith('/api/v1/projects'),
      ),
      page.getByRole('button', { name: 'Generate with these answers' }).click(),
    ]);
    const sent = request.postDataJSON() as { answers: ClarifyingAnswer[] };
    expect(sent.answers).toEqual(
      questions.map((question) => ({
        question: question.id,
        answer: question.id === changed.id ? chosen : question.recommended,
      })),
    );
    await waitForStatus(page, 'Completed', 45_000);
    const [latest] = (await pgs.projects.list({ limit: 1 })).data;
    const project = (await pgs.projects.get(latest!.projectId)) as ProjectCompleted;
    expect(project.project.documents.some((document) => document.content.includes(chosen))).toBe(
      true,
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}
