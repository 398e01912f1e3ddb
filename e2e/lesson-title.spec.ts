/**
 * The presenter view's head without a room (what a projector shows first) at 1280×720: the
 * lesson's title whole, as with a room live. Before: "Delivery guarantees in 45 min…" (its one
 * line cut with an ellipsis; only the room's layout let it wrap).
 */
import { expect, test } from '@playwright/test';
import { lessonTestIds as ids } from '../src/ui/lesson/lessonTestIds';

test('the lesson title is whole at 1280×720 with no room running', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.clock.install();
  await page.goto('./?lesson=delivery-guarantees-45');
  await expect(page.getByTestId(ids.presenter)).toHaveAttribute('data-step', '1', {
    timeout: 30_000,
  });
  const title = page.locator('.lesson-title');
  await expect(title).toHaveText('Delivery guarantees in 45 minutes');
  const box = await title.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    const own = el.getBoundingClientRect();
    return {
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      lines: range.getClientRects().length,
      textRight: text.right,
      ownRight: own.right,
      textBottom: text.bottom,
      ownBottom: own.bottom,
      ellipsis: getComputedStyle(el).textOverflow,
    };
  });
  // Nothing clipped: the text's box inside the heading's, no ellipsis, two lines at most.
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  expect(box.textRight).toBeLessThanOrEqual(box.ownRight + 0.5);
  expect(box.textBottom).toBeLessThanOrEqual(box.ownBottom + 0.5);
  expect(box.ellipsis).not.toBe('ellipsis');
  expect(box.lines).toBeLessThanOrEqual(2);
});
