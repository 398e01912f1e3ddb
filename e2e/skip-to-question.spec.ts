/**
 * Keyboard on the page while a preset's question is open (the tester at 1280×720): the first Tab
 * is "Skip to the question", which lands in the prediction box — it came after ~31 stops, and the
 * only skip link went past it to the pipeline. Once answered the link goes. And the keys the page handles (End, Home, Space, arrows) never scroll it.
 */
import { expect, test } from '@playwright/test';
import { testIds } from '../src/ui/testIds';

test('Skip to the question is the first Tab while a question is open', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?preset=at-most-once/default');
  await expect(page.getByTestId(testIds.predictInput)).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the question' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(testIds.predictInput)).toBeFocused();
  await page.keyboard.type('15');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(testIds.predictYours)).toContainText('15');
  await expect(skip).toHaveCount(0);
  // Answered: End, with the body focused, goes to the run's end and the document stays put.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const before = await page.evaluate(() => scrollY);
  await page.keyboard.press('End');
  await expect(page.getByTestId(testIds.clock)).toHaveText(/event (\d+) \/ \1$/);
  expect(await page.evaluate(() => scrollY)).toBe(before);
});

test('projector mode too: the first Tab is Skip to the question, shown on focus', async ({
  page,
}) => {
  // It was display: none under present=1, so the first Tab landed on the claim's radio.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?preset=at-least-once/default&present=1');
  await expect(page.getByTestId(testIds.predictInput)).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the question' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(testIds.predictInput)).toBeFocused();
});
