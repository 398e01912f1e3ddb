/**
 * Issue 24, "the outcome in its time" and "pace and jumps", at 1280×720 in Chromium: after "Show
 * the outcome" and on a preset opened again, the verdict element is absent until the run reaches
 * its end; the jump buttons land on the next moment and the status line says which.
 */
import { expect, test } from './fixtures';
import { testIds } from '../src/ui/testIds';

test.use({ viewport: { width: 1280, height: 720 } });

/**
 * A preset plays to its end in 20–40 s at its pace, in the page: the frame loop
 * (src/platform/frameLoop.ts) runs on requestAnimationFrame, which Playwright's clock fakes
 * (https://playwright.dev/docs/clock), so 40 s of play cost the page's ~2,400 frames, not 40 s of
 * waiting. What this adds to src/views/run/pace.test.ts (every preset, 20–40 s, with the page's
 * frame arithmetic `advance`): the page itself sets the pace on opening a preset, cuts idle time,
 * and feeds the loop the frames' real times. One preset, the card charge (the issue's "gone in
 * 4 s" at the old ×0.01; its pace ×0.00117 plays it in 28.3 s by the unit test's 60 Hz
 * arithmetic): every preset would cost ~2,400 rendered frames each, minutes of CI.
 */
test('the card charge plays to its end in 20–40 s at its pace (virtual clock)', async ({
  dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await page.clock.install();
  // Projector mode: the ledger and the trace fold away, so each frame renders less (CI time).
  await page.goto('./?preset=card-charge-idempotency&present=1');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await dash.settled();
  // Frozen from here, so the real time a loaded machine spends between steps is not play time.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  // Play by the keyboard: a click's actionability checks wait for animation frames, which the
  // paused clock holds back.
  await dash.byId(testIds.play).focus();
  await page.keyboard.press('Enter');
  await page.clock.runFor(19_900);
  const early = await dash.api('cursor');
  expect(early.t).toBeGreaterThan(0);
  expect(early.t).toBeLessThan(early.endTime);
  await page.clock.runFor(40_000 - 19_900);
  const late = await dash.api('cursor');
  expect(late).toMatchObject({ t: late.endTime, idx: late.n });
  await page.clock.resume();
  await expect(dash.byId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  expect(dash.errors).toEqual([]);
});

test('after "Show the answer" the verdict is absent until the end of the run', async ({ dash }) => {
  const { page } = dash;
  await page.goto('./?preset=lost-ack-retry');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await dash.settled();
  await page
    .locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`)
    .getByRole('button', { name: 'Show the answer' })
    .click();
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await expect(
    page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`),
  ).toContainText('Shown when the run reaches its end.');
  await page.screenshot({ path: 'test-results/pace-folded.png' });
  await dash.toEnd();
  await expect(dash.byId(testIds.verdict)).toBeVisible();
});

test('an answered preset opened again starts at t = 0 with its verdict folded; "Reveal now" shows it', async ({
  dash,
}) => {
  const { page } = dash;
  await page.goto('./?preset=lost-ack-retry');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await dash.showOutcome();
  await dash.pickPreset('at-least-once/default');
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  expect((await dash.api('cursor')).t).toBe(0);
  await expect(dash.byId(testIds.verdict)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/pace-revisit.png' });
  await dash.byId(testIds.outcomeRevealNow).first().click();
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  expect(dash.errors).toEqual([]);
});

test('the jump buttons and arrows land on the next fault, commit, retry; the status line says which', async ({
  dash,
}) => {
  const { page } = dash;
  await page.goto('./?preset=lost-ack-retry');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await dash.settled();
  const status = dash.byId(testIds.runStatus);
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
  await page.screenshot({ path: 'test-results/pace-jump.png' });
  await page.keyboard.press('ArrowLeft');
  await expect(status).toContainText('Previous commit — event');
  await expect(status).toContainText('at 222 ms');
  expect(dash.errors).toEqual([]);
});
