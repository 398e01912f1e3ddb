/**
 * The outcome in its time (issue 24) where the tester found it given away: once the answer is
 * told, the final verdict waits for the run's end, or "Reveal now" (docs/page.md) — in the
 * presenter view after R (the room's Reveal is the same deck action), and per lane in Compare
 * after "Show the answer". Before: the presenter showed "✓ Observed at-least-once, claimed
 * at-least-once: held" at t = 55 ms with 0 rows in the sink, and Compare's lanes showed their
 * final verdicts at t = 0.
 */
import { expect, test } from '@playwright/test';
import { compareTestIds as c } from '../src/ui/compare/compareTestIds';
import { lessonTestIds as ids } from '../src/ui/lesson/lessonTestIds';
import { testIds } from '../src/ui/testIds';

test('the presenter’s verdict after R waits for the run’s end, or Reveal now', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  // Playwright's clock, paused: the revealed run does not play on by itself to its end here.
  await page.clock.install();
  await page.goto('./?lesson=delivery-guarantees-45&step=2');
  const view = page.getByTestId(ids.presenter);
  await expect(view).toHaveAttribute('data-step', '2', { timeout: 30_000 });
  await page.keyboard.press('r');
  await expect(view).toHaveAttribute('data-revealed', 'true');
  const folded = page.locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`);
  await expect(folded).toContainText('Shown when the run reaches its end.');
  await expect(page.getByTestId(testIds.verdict)).toHaveCount(0);
  // End: the run's end reached, its verdict shows — in the step's "then flip to" lanes, which
  // open at the end.
  await page.keyboard.press('End');
  await expect(page.getByTestId(c.laneVerdict)).toHaveCount(2);
  await expect(page.getByTestId(c.laneVerdict).first()).toContainText('Observed at-least-once');
  await expect(page.getByTestId(c.laneVerdictFolded)).toHaveCount(0);
  // The step opened again starts again at t = 0, nothing given away after its reveal.
  await page.keyboard.press('PageDown');
  await expect(view).toHaveAttribute('data-step', '3');
  await page.keyboard.press('PageUp');
  await expect(view).toHaveAttribute('data-step', '2');
  await page.keyboard.press('r');
  await expect(folded).toBeVisible();
  await expect(page.getByTestId(testIds.verdict)).toHaveCount(0);
  await page.getByTestId(testIds.outcomeRevealNow).click();
  await expect(page.getByTestId(testIds.verdict)).toContainText('Observed at-least-once');
});

test('after Show the answer, Compare’s lane verdicts wait for the clock to reach their end', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?preset=at-least-once/default');
  await page.locator(`[data-what="verdict"] [data-testid="${testIds.outcomeShow}"]`).click();
  await page.getByTestId(c.toggle).click();
  await expect(page.getByTestId(c.lane)).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId(c.laneVerdictFolded)).toHaveCount(3);
  await expect(page.getByTestId(c.laneVerdict)).toHaveCount(0);
  await expect(page.getByTestId(c.laneVerdictFolded).first()).toContainText('Verdict at its end');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('End');
  await expect(page.getByTestId(c.laneVerdict)).toHaveCount(3);
  await expect(page.getByTestId(c.laneVerdictFolded)).toHaveCount(0);
});
