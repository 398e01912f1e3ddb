/**
 * Big runs go to the Web Worker: the page shows progress, stays responsive, can cancel, and the
 * panels keep the previous run meanwhile.
 */
import { expect, test, testIds } from './fixtures';

const big = (count: number) => ({
  version: 1,
  name: `${count} generated events`,
  workload: { generate: { count, intervalMs: 1 } },
  processor: { type: 'consumer', 'auto.offset.reset': 'earliest' },
  sink: { type: 'table' },
});

test('a big run shows progress and can be cancelled; the previous run stays on screen', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.toEnd();
  const before = await dash.shown();
  // Not awaited: the run is in flight while we look at the page.
  void page.evaluate((s) => window.__deliveryLab!.load(s), big(300_000));
  const status = dash.byId(testIds.runStatus);
  await expect(status).toHaveAttribute('data-status', 'running');
  await expect(status.getByRole('progressbar')).toBeVisible();
  // The page answers while the worker simulates: the text-size control still works.
  await dash.byId(testIds.fontLarger).click();
  await expect(dash.byId(testIds.app)).toHaveAttribute('style', /--scale: 1.125/);
  await dash.byId(testIds.runCancel).click();
  await expect(status).toHaveAttribute('data-status', 'cancelled');
  // The previous run's counters are still there (the cursor went back to 0 with the new scenario).
  await dash.toEnd();
  expect((await dash.shown()).rows).toBe(before.rows);
  expect(dash.errors).toEqual([]);
});

test('a 100,000-event run completes in the worker: every event lands once', async ({ dash }) => {
  test.setTimeout(120_000);
  await dash.api('load', big(100_000));
  await expect(dash.byId(testIds.runStatus)).toHaveAttribute('data-status', 'ready');
  // No fault: every one of the 100,000 events lands once.
  await dash.toEnd();
  expect(await dash.shown()).toMatchObject({
    rows: 100_000,
    duplicates: 0,
    missing: 0,
    sent: 100_000,
  });
  expect(dash.errors).toEqual([]);
});
