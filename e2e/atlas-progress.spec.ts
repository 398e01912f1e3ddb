/**
 * The fault atlas's progress says the time left while it runs ("~12 s left", from the runs done
 * per second of late, a second after the first run: src/views/atlas/timeLeft.ts), and Cancel
 * still stops it and says what it stopped. retry-storm's atlas is 21,172 runs (docs/benchmarks.md:
 * tens of seconds on this machine), so it is still running when the estimate first shows.
 */
import { atlasTestIds as ids } from '../src/ui/atlas/atlasTestIds';
import { expect, test } from './fixtures';

test.use({ viewport: { width: 1280, height: 720 } });

test('the progress says the time left after the first second; Cancel stops and says after how many runs', async ({
  unopenedDash: dash,
}) => {
  // A 1,000-event preset and its atlas's first seconds on a shared machine: generous.
  test.setTimeout(120_000);
  const { page } = dash;
  await page.goto('?preset=retry-storm');
  await dash.settled();
  const before = await page.evaluate(() => JSON.stringify(window.__deliveryLab!.scenario()));
  await dash.byId(ids.explore).click();
  await expect(page.getByText(/ of 21,172 runs on \d+ worker/)).toBeVisible({ timeout: 60_000 });
  await expect(dash.byId(ids.timeLeft)).toHaveText(/^, ~\d+ (s|min) left$/, { timeout: 60_000 });
  await dash.byId(ids.cancel).click();
  await expect(dash.byId(ids.progress)).toHaveCount(0);
  await expect(dash.byId(ids.timeLeft)).toHaveCount(0);
  await expect(dash.byId(ids.cancelled)).toHaveText(
    /^Cancelled after [\d,]+ of 21,172 runs; nothing was changed\.$/,
  );
  expect(await page.evaluate(() => JSON.stringify(window.__deliveryLab!.scenario()))).toBe(before);
});
