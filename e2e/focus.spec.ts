/**
 * Keyboard focus after a control replaces itself: it goes where the next step is, never back to
 * <body> (where the next Tab would start again from the top of the page).
 */
import { compareTestIds } from '../src/ui/compare/compareTestIds';
import { expect, test, testIds } from './fixtures';

test('the prediction box: Lock in, change, Show the answer, Ask again each leave the focus on the next step', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  await dash.byId(testIds.predictInput).fill('  11 rows, sum 580 ');
  await dash.byId(testIds.predictLock).focus();
  await page.keyboard.press('Enter');
  // The locked prediction, trimmed, has the focus (not a button: Space there plays).
  await expect(dash.byId(testIds.predictYours).locator('q')).toHaveText('11 rows, sum 580');
  await page.waitForFunction((s) => document.activeElement?.matches(s) ?? false, '.predict-yours');
  await dash.byId(testIds.predictYours).getByRole('button', { name: 'change' }).click();
  await page.waitForFunction((s) => document.activeElement?.matches(s) ?? false, 'textarea');
  await dash.byId(testIds.predictLock).click();
  await dash.byId(testIds.predictReveal).click();
  await page.waitForFunction((s) => document.activeElement?.matches(s) ?? false, '.predict-answer');
  await page.getByRole('button', { name: 'Ask again' }).click();
  await page.waitForFunction((s) => document.activeElement?.matches(s) ?? false, 'textarea');
});

test('Show the answer, Hide the story, and a fault’s details closed by Escape keep the focus nearby', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  await dash.page.locator(`[data-what="verdict"] [data-testid="${testIds.outcomeShow}"]`).click();
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
  // Told, the final outcome waits for the end of the run; "Reveal now" shows it at once.
  await dash.byId(testIds.outcomeRevealNow).first().click();
  await expect(dash.byId(testIds.outcomeHidden)).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);

  await dash.byId(testIds.storyToggle).click();
  await page.waitForFunction((s) => document.activeElement?.matches(s) ?? false, '.story-unfold');

  const marker = dash.byId(testIds.faultMarker).first();
  await marker.focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.faultDetails)).toBeVisible();
  await dash.byId(testIds.faultDetails).getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Escape');
  await expect(dash.byId(testIds.faultDetails)).toHaveCount(0);
  await page.waitForFunction(
    (s) => document.activeElement?.matches(s) ?? false,
    '[data-testid="fault-marker"]',
  );
});

test('the ledger is one tab stop: ↑/↓ select events, Home/End the first and the last', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  const table = dash.byId(testIds.ledger).getByRole('table');
  const selected = dash.byId(testIds.ledger).locator('[aria-pressed="true"]');
  await table.focus();
  await page.keyboard.press('ArrowDown');
  await expect(selected).toHaveText('e1');
  await page.keyboard.press('ArrowDown');
  await expect(selected).toHaveText('e2');
  await page.keyboard.press('ArrowUp');
  await expect(selected).toHaveText('e1');
  await page.keyboard.press('End');
  await expect(selected).toHaveText('e10');
  // The event buttons are not tab stops: Tab leaves the ledger.
  await page.keyboard.press('Tab');
  expect(
    await page.evaluate(() => document.activeElement?.closest('[role="table"]') === null),
  ).toBe(true);
});

test('the first Tabs offer a skip to the question, then to the pipeline; Enter takes the focus there, the URL unchanged', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  const url = page.url();
  // The preset's question waits: its skip comes first (e2e/skip-to-question.spec.ts).
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the question' })).toBeFocused();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the pipeline' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.pipeline)).toBeFocused();
  expect(page.url()).toBe(url);
  // The next Tab is inside the pipeline.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('#pipeline') !== null)).toBe(
    true,
  );
});

test('Compare: a lane’s “Reveal now” leaves the focus on that lane’s verdict; the skip link goes to the lanes', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  // Told, not yet played: each lane's verdict waits for its end, with its own "Reveal now".
  await dash.page.locator(`[data-what="verdict"] [data-testid="${testIds.outcomeShow}"]`).click();
  await dash.byId(compareTestIds.toggle).click();
  const lane2 = page.locator(`[data-testid="${compareTestIds.lane}"][data-lane="2"]`);
  const reveal = lane2.getByRole('button', { name: 'Reveal now' });
  await reveal.focus();
  await page.keyboard.press('Enter');
  // The button went: the focus is on the verdict it revealed, not on <body>.
  await expect(lane2.getByTestId(compareTestIds.laneVerdict)).toBeFocused();
  // Compare has no pipeline: its skip link names the lanes and goes to them (it went nowhere).
  await expect(page.getByRole('main')).toHaveCount(1);
  const skip = page.getByRole('link', { name: 'Skip to Compare' });
  await skip.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'Compare' })).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('#compare-view') !== null)).toBe(
    true,
  );
});

test('a batch job: the skip link goes to the job (it has no pipeline), its one main landmark', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=clear-rerun-window');
  await expect(page.getByRole('main')).toHaveCount(1);
  await page.getByRole('link', { name: 'Skip to the batch job' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'Batch job' })).toBeFocused();
});

test('a batch job’s Compare while its question waits: the question stays above the lanes, its skip link reaches the answer field', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=clear-rerun-window');
  await dash.byId(compareTestIds.toggle).click();
  await expect(page.getByTestId('batch-compare')).toBeVisible();
  // As a stream's Compare keeps it: the lanes' outcome waits for the answer, asked above them.
  await expect(dash.byId(testIds.predictInput)).toBeVisible();
  await page.getByRole('link', { name: 'Skip to the question' }).focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(testIds.predictInput)).toBeFocused();
});
