import type { ClarifyingAnswer, Pgs, ProjectCompleted } from '@pgs/client';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitFor } from '../../../server/test/helpers/wait.ts';
import { questionsSummary } from '../../src/questions.ts';
import { auditScreen } from '../helpers/axe.ts';
import { signIn, waitForFocusedHeading, waitForStatus, waitForText } from '../helpers/console.ts';
import { ownKey, type Suite } from '../helpers/suite.ts';

const IDEA = 'A booking tool for dog groomers with SMS reminders the day before';

/**
 * A spec that fits the team, against the real server, on a key of its own (its conventions
 * reach no other scenario): "Ask me first" shows the questions `ideas.clarify` asks, the
 * recommended answers filled in (saying they are sent as the team's answers), and an answer changed by one of its common answers is sent
 * with the others and written as a fact; the project's Questions panel answers an open
 * question as a revision, followed to its end; the Conventions page saves a version and
 * reads it back. Starts and ends signed out.
 */
export function asking(current: () => Suite): void {
  let suite: Suite;
  let page: Page;
  let own: { key: string; pgs: Pgs };
  let projectId: string;

  beforeAll(async () => {
    suite = current();
    page = suite.page;
    own = await ownKey(suite);
  });

  it('asks first, with the recommended answers filled in, and writes the answers given', async () => {
    const { pgs } = own;
    const questions = await pgs.ideas.clarify({ idea: IDEA });
    const changed = questions.find((question) => (question.options ?? []).length > 1);
    if (changed === undefined) throw new Error('no question with common answers to choose from');
    const chosen = changed.options!.find((option) => option !== changed.recommended)!;

    await page.goto(`${suite.server.baseUrl}/`);
    await waitForFocusedHeading(page, 'Sign in to PGS');
    await signIn(page, own.key);
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
    // A recommendation left in its field is sent as the team's answer, and the form says so.
    expect(await page.getByText("what it holds is sent as your team's answer").count()).toBe(1);
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
    projectId = latest!.projectId;
    const project = (await pgs.projects.get(projectId)) as ProjectCompleted;
    expect(project.project.documents.some((document) => document.content.includes(chosen))).toBe(
      true,
    );
  });

  it("answers a project's open question as a revision and follows it", async () => {
    const { pgs } = own;
    const before = await pgs.projects.questions(projectId);
    const open = before.find((question) => question.kind === 'question') ?? before[0];
    if (open === undefined) throw new Error('the project has nothing open to answer');
    const panel = page.getByRole('region', { name: 'Questions', exact: true });
    await waitForText(panel.getByTestId('questions-summary'), questionsSummary(before));
    const field = panel.getByLabel(open.question, { exact: true });
    expect(await field.inputValue()).toBe('');
    await field.fill('Twilio for the text messages');
    const [request] = await Promise.all([
      page.waitForRequest((each) => each.method() === 'POST' && each.url().endsWith('/answers')),
      panel.getByRole('button', { name: 'Answer 1 question and revise' }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      answers: { [open.id]: 'Twilio for the text messages' },
    });
    expect(request.headers()['idempotency-key']).toMatch(/\S/);
    const revise = page.getByRole('region', { name: 'Revise', exact: true });
    await revise
      .getByTestId('revision-status')
      .filter({ hasText: /^\s*Completed\s*$/ })
      .waitFor({ timeout: 45_000 });
    const after = await pgs.projects.questions(projectId);
    expect(after.map((question) => question.id)).not.toContain(open.id);
    await waitFor(
      async () =>
        (await panel.getByLabel(open.question, { exact: true }).count()) === 0 ? true : undefined,
      { what: `${open.id} gone from the panel once answered` },
    );
  });

  it('sets the house conventions and reads them back', async () => {
    await page.getByRole('link', { name: 'Conventions' }).click();
    await waitForFocusedHeading(page, 'Conventions');
    await waitForText(
      page.getByTestId('conventions-version'),
      'No conventions are set: projects follow only their own idea.',
    );
    await page.getByLabel('Required technologies').fill('PostgreSQL, TypeScript');
    await page.getByLabel('Forbidden technologies').fill('MongoDB');
    await page.getByLabel('Compliance').fill('GDPR');
    await page.getByLabel('Language').fill('de');
    await page.getByRole('radio', { name: 'Gherkin' }).check();
    await page.getByLabel('Naming rules').fill('Tables are plural snake_case');
    await page.getByRole('button', { name: 'Add a section' }).click();
    await page.getByLabel('Section 1 title').fill('Support');
    await page.getByLabel('Section 1 content').fill('Who is on call, and how to reach them');
    await page.getByRole('button', { name: 'Save conventions' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved as version 1.' }).waitFor();
    expect(await own.pgs.conventions.get()).toMatchObject({
      version: 1,
      stack: { required: ['PostgreSQL', 'TypeScript'], forbidden: ['MongoDB'] },
      compliance: ['GDPR'],
      language: 'de',
      requirementStyle: 'gherkin',
      naming: ['Tables are plural snake_case'],
      sections: [{ title: 'Support', content: 'Who is on call, and how to reach them' }],
    });
    expect(await auditScreen(page, 'conventions')).toEqual([]);

    await page.reload();
    await waitForFocusedHeading(page, 'Conventions');
    expect(await page.getByLabel('Required technologies').inputValue()).toBe(
      'PostgreSQL\nTypeScript',
    );
    expect(await page.getByRole('radio', { name: 'Gherkin' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to PGS' }).waitFor();
  });
}
