/**
 * Accessibility and hygiene over a whole session: axe finds no violation on the page as it opens
 * and no serious or critical one in the dashboard's other main states (a fault menu open, the
 * knobs tab, the end of a run with duplicates), and nothing logs an error to the console.
 */
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';
import { SameOriginAxeBuilder } from './support/axe';

async function violations(page: Page, impacts?: string[]): Promise<string[]> {
  const results = await new SameOriginAxeBuilder(page).analyze();
  return results.violations
    .filter((v) => !impacts || impacts.includes(v.impact ?? ''))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

const seriousViolations = (page: Page) => violations(page, ['serious', 'critical']);

test('axe: no serious or critical violation in the main states', async ({ dash }) => {
  // Four full-page axe passes over a large DOM: slow on a 2-core machine, not a hang.
  test.setTimeout(120_000);
  const { page } = dash;
  // The page as it opens: no violation of any impact (the other states: none serious).
  expect(await violations(page)).toEqual([]);
  await dash.component('consumer-0').locator('.component-head').first().click();
  await expect(dash.byId(testIds.faultMenu)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Knobs' }).click();
  await dash.byId(testIds.knobs).getByRole('button', { name: 'About acks' }).click();
  expect(await seriousViolations(page)).toEqual([]);
  // The landing preset asks its question first: answer it, so the end shows the outcome.
  await dash.byId(testIds.predictInput).fill('Some events twice');
  await dash.byId(testIds.predictLock).click();
  await dash.toEnd();
  await page.getByRole('tab', { name: 'Event trace' }).click();
  await dash.byId(testIds.explanation).first().click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('no console errors across a session: load, play, fault, drop, undo, redo, scrub', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-most-once');
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
  await dash.byId(testIds.play).click();
  await page.waitForTimeout(400);
  await dash.byId(testIds.play).click();
  await dash.fault('producer', 'lose-next-request');
  await dash.setGuarantee('At-least-once');
  await dash.api('runTo', 62);
  const token = page
    .locator(`[data-testid="${testIds.token}"][data-lost="false"]`)
    .filter({ visible: true })
    .first();
  if ((await token.count()) > 0) await token.click();
  await dash.settled();
  await page.locator('h1').click();
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+Shift+z');
  await dash.settled();
  await dash.toEnd();
  await dash.byId(testIds.fontLarger).click();
  await dash.byId(testIds.fontLarger).click();
  await dash.toStart();
  expect(dash.errors).toEqual([]);
});

test('projector mode, the answer shown: the setup, cut to its own scrolling box, is a tab stop the arrows scroll', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry/idempotence-off&present=1');
  await dash.byId(testIds.predictReveal).click();
  // Revealed, the answer comes first and the setup scrolls in a box of a few lines
  // (present.css): no link in it, so without a tab stop no key could scroll it.
  const setup = dash.byId(testIds.storySetup);
  await expect(setup).toHaveAttribute('tabindex', '0');
  await expect(page.getByRole('region', { name: 'Setup' })).toHaveCount(1);
  await setup.focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => setup.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  expect(await seriousViolations(page)).toEqual([]);
});
