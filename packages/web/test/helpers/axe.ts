import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { LAPTOP, PHONE, screenshot } from './browser.ts';

let source: Promise<string> | undefined;
const axeSource = () => {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
};

/** The result of one axe run, reduced to what a failure message needs. */
interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * The serious and critical axe-core violations on the page as it is now, one line each.
 * axe is evaluated through DevTools (page.evaluate), which the page's CSP does not govern,
 * so the CSP stays enforced; a `<script>` tag would be refused by it.
 *
 * @example
 * expect(await axeViolations(page)).toEqual([]);
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: {
              id: string;
              impact?: string | null;
              help: string;
              nodes: { target: unknown[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (violation): Violation => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
      }),
    );
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.targets.join(', ')}`,
    );
}

/**
 * Checks a screen as a laptop and as a phone user see it: axe-core at 1280×800 and 390×844,
 * with a screenshot of each (`<name>.png`, `<name>-phone.png`); the window is back at the
 * laptop size afterwards. Returns the serious and critical violations, prefixed by the size.
 */
export async function auditScreen(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const [size, viewport, file] of [
    ['laptop', LAPTOP, name],
    ['phone', PHONE, `${name}-phone`],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const violation of await axeViolations(page)) found.push(`${name} ${size}: ${violation}`);
    await screenshot(page, file);
  }
  await page.setViewportSize(LAPTOP);
  return found;
}
