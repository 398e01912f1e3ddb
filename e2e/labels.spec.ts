/**
 * What the page says, checked where a newcomer read it wrong: one numbering of engine events and
 * rows in every view, faults named by their id, tick labels that never overlap, a speed that
 * says the truth to a screen reader, help that is not only in a hover tooltip, and words that
 * match the run.
 */
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';

/** The boxes of the timeline's tick labels, left to right, in CSS px. */
async function tickBoxes(page: Page) {
  return page
    .getByTestId(testIds.timelineScale)
    .locator('.tick')
    .evaluateAll((els) =>
      els
        .map((e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent ?? '', left: r.left, right: r.right };
        })
        .sort((a, b) => a.left - b.left),
    );
}

test.describe('timeline tick labels never overlap', () => {
  for (const [what, viewport, scale] of [
    // 1280×720 at 150 % zoom: 853 CSS px wide, each drawn at 1.5 device pixels.
    ['1280×720 at 150 % zoom', { width: 853, height: 480 }, 1.5],
    ['400 px wide', { width: 400, height: 720 }, 1],
    ['1280×720', { width: 1280, height: 720 }, 1],
  ] as const) {
    test.describe(what, () => {
      test.use({ viewport, deviceScaleFactor: scale });
      test('on the zombie preset, with A+ too', async ({ dash }) => {
        await dash.pickPreset('zombie-consumer/plain-insert');
        for (let larger = 0; larger < 3; larger++) {
          // Re-laid out once the new text size is measured: checked until it holds.
          await expect(async () => {
            const boxes = await tickBoxes(dash.page);
            // The start and the end are always labelled.
            expect(boxes[0]!.text).toBe('0 ms');
            expect(boxes.at(-1)!.text).toBe('1 min 01.039 s');
            for (let i = 1; i < boxes.length; i++)
              expect(
                boxes[i]!.left - boxes[i - 1]!.right,
                `${boxes[i - 1]!.text} / ${boxes[i]!.text}`,
              ).toBeGreaterThanOrEqual(4);
          }).toPass({ timeout: 5000 });
          await dash.byId(testIds.fontLarger).click();
        }
      });
    });
  }
});

test("the speed slider's value says how long a second of the run plays", async ({ dash }) => {
  const speed = dash.byId(testIds.speed);
  // The default, ×0.01: 1,000 / 0.01 ms = 100 s.
  await expect(speed).toHaveAttribute(
    'aria-valuetext',
    '×0.01: one second of the run plays in 1.7 min',
  );
  // The slider is logarithmic, 0.001…1000 over 0…1000: 550 is 10^(−3 + 3.3) ≈ ×2 (1.995: a
  // second in 501 ms), 667 is 10^1.002 ≈ ×10 (99.5 ms).
  await speed.fill('550');
  await expect(speed).toHaveAttribute(
    'aria-valuetext',
    '×2: one second of the run plays in 500 ms',
  );
  await speed.fill('667');
  await expect(speed).toHaveAttribute(
    'aria-valuetext',
    '×10: one second of the run plays in 100 ms',
  );
});

test("a component's fault menu: Home and End go to its first and last item", async ({ dash }) => {
  const { page } = dash;
  await dash.component('consumer-0').locator('.component-head').first().focus();
  await page.keyboard.press('Enter');
  const items = dash.byId(testIds.faultMenu).getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.first()).toBeFocused();
  // Not the page's End (to the end of the run): the clock still says event 0.
  await expect(dash.byId(testIds.clock)).toContainText('event 0 /');
});
