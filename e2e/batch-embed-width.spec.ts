/**
 * docs/embed.md: the compact layout (480–760 px) has no sideways scroll. Every batch preset's
 * embed, played to its end (the target table shown), at 480 and 700 px: nothing wider than the
 * frame, and each row of the table still whole ("e3 ×2" on one line). Before: airflow-retry-append's
 * partition line "e1 … e10 e1 ×2 e2 ×2 …" did not wrap — its rows are spans with no space between
 * them, each nowrap — `div.embed.embed-batch` 763 px wide in 480.
 */
import { expect, test } from '@playwright/test';
import batchPresets from '../src/scenarios/parsed/catalog-batch';

for (const width of [480, 700]) {
  test(`batch embeds at ${width} px: no sideways scroll, every row whole`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 800 });
    for (const { id } of batchPresets) {
      await page.goto(`./?embed&autoplay=1&speed=1000&preset=${id}`);
      // The lazy batch player's first load: a generous wait.
      await expect(page.getByTestId('batch-summary'), id).toBeVisible({ timeout: 30_000 });
      const sizes = await page.evaluate(() => {
        const embed = document.querySelector<HTMLElement>('div.embed.embed-batch')!;
        return {
          embed: [embed.scrollWidth, embed.clientWidth],
          page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        };
      });
      expect(sizes.embed[0], `${id}: the embed's scrollWidth`).toBeLessThanOrEqual(sizes.embed[1]!);
      expect(sizes.page[0], `${id}: the page's scrollWidth`).toBeLessThanOrEqual(sizes.page[1]!);
      const broken = await page
        .locator('.batch-row')
        .evaluateAll((els) =>
          els
            .filter((e) => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size > 1)
            .map((e) => e.textContent),
        );
      expect(broken, `${id}: rows on two lines`).toEqual([]);
    }
  });
}
