/**
 * Issue 24, "the outcome in its time" and "pace and jumps", at 1280×720 in Chromium: after "Show
 * the outcome" and on a preset opened again, the verdict element is absent until the run reaches
 * its end; the jump buttons land on the next moment and the status line says which. (Every preset
 * played to its end at its pace in the page, on Playwright's clock: e2e/present.spec.ts.)
 */
import { expect, test } from './fixtures';
import { testIds } from '../src/ui/testIds';
import { shot } from './support/shots';

test.use({ viewport: { width: 1280, height: 720 } });

test('after "Show the answer" the verdict is absent until the end of the run', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry');
  await dash.settled();
  await page
    .locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`)
    .getByRole('button', { name: 'Show the answer' })
    .click();
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`),
  ).toContainText('Shown when the run reaches its end.');
  await shot(page, 'pace-folded');
  await dash.toEnd();
  await expect(dash.byId(testIds.verdict)).toBeVisible();
});

test('an answered preset opened again starts at t = 0 with its verdict folded; "Reveal now" shows it', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry');
  await dash.showOutcome();
  await dash.pickPreset('at-least-once/default');
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  expect((await dash.api('cursor')).t).toBe(0);
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await shot(page, 'pace-revisit');
  await dash.byId(testIds.outcomeRevealNow).first().click();
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('the jump buttons and arrows land on the next fault, commit, retry; the status line says which', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await dash.goto('./?preset=lost-ack-retry');
  await dash.settled();
  // Unanswered, the run waits at its start: a jump is refused and says why (issue 24).
  const status = dash.byId(testIds.runStatus);
  await dash.byId(testIds.jumpForward).click();
  await expect(status).toContainText('Waits for your prediction');
  expect((await dash.api('cursor')).idx).toBe(0);
  await dash.skipQuestion();
  // lost-ack-retry: e1's commit at 122 ms, e2's at 222 ms, the lost ack of e3 at 311 ms
  // (src/views/run/moments.test.ts derives them).
  await dash.byId(testIds.jumpForward).click();
  await expect(status).toContainText('Next commit — event');
  await expect(status).toContainText('at 122 ms: offsets committed: events-0 → 1');
  await page.locator('h1').click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(status).toContainText('Next fault — event');
  await expect(status).toContainText('fault "lost ack" fires');
  await shot(page, 'pace-jump');
  await page.keyboard.press('ArrowLeft');
  await expect(status).toContainText('Previous commit — event');
  await expect(status).toContainText('at 222 ms');
  expect(dash.errors).toEqual([]);
});
