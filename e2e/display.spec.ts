/**
 * How the page looks and follows the user: system colour scheme, reduced motion, selection
 * highlighted everywhere, fate never by colour alone.
 */
import { expect, test, testIds } from './fixtures';

test('light and dark follow the system colour scheme', async ({ dash }) => {
  const { page } = dash;
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await bg();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await bg();
  expect(light).not.toBe(dark);
  // Dark means dark: every channel of the background is low.
  const channels = dark.match(/\d+/g)!.slice(0, 3).map(Number);
  expect(Math.max(...channels)).toBeLessThan(60);
});

test('reduced motion: a message in flight sits still half-way instead of moving', async ({
  dash,
}) => {
  const { page } = dash;
  // p-2's produce request leaves the producer at 55 ms and reaches broker-1 at 57 ms.
  const position = async (t: number) => {
    await dash.api('runTo', t);
    const token = page
      .locator(`[data-testid="${testIds.token}"][data-type="produce"]`)
      .filter({ visible: true });
    await expect(token).toHaveCount(1);
    return token.evaluate((el) => (el as HTMLElement).style.transform);
  };
  const moving = [await position(55), await position(56.5)];
  expect(moving[0]).not.toBe(moving[1]);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const still = [await position(55), await position(56.5)];
  expect(still[0]).toBe(still[1]);
});

test('selecting an event highlights it in the log, the sink, the ledger and the trace', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('at-least-once');
  await dash.toEnd();
  const log = dash.byId(testIds.partitionLog);
  await log.locator('.log-scroll').evaluate((el) => (el.scrollTop = 0));
  // p-4 was written twice to the log (the producer's retry): offsets 3 and 4.
  await log.locator('[data-event="p-4"]').first().click();
  await expect(log.locator('[data-event="p-4"].selected')).toHaveCount(2);
  const table = dash.byId(testIds.sinkTable);
  await table.evaluate((el) => (el.scrollTop = 0));
  await expect(
    table.locator(`[data-testid="${testIds.sinkRow}"][data-event="p-4"].selected`),
  ).toHaveCount(2);
  await expect(dash.byId(testIds.ledger).locator('[data-event="p-4"].selected')).toHaveCount(1);
  // Fate is said in words, not only in colour.
  await expect(dash.byId(testIds.ledger).locator('[data-event="p-4"]')).toContainText('duplicated');
  const tab = page.getByRole('tab', { name: /Event trace · p-4/ });
  await tab.click();
  const trace = dash.byId(testIds.eventTrace);
  await expect(trace).toContainText('the application sends p-4');
  await expect(trace).toContainText('the producer retries the batch of p-4');
});
