/**
 * Issue 31, "Stable height": once painted, the embedded player's content does not move while it
 * loads. Chromium's layout-shift entries (https://wicg.github.io/layout-instability/), observed
 * from the page's first frame, summed until the player has its reserved height and a second
 * after: a Kafka consumer, a Flink job, a Spark query (both wait for on-demand chunks) and a batch
 * job, at 700 and 480 px. Before the fix the Flink and Spark embeds shifted 0.61 (the "no run
 * yet" pipeline pushed down 162 px and grown 312 px) and the consumer's 0.17.
 */
import { expect, test, testIds } from './fixtures';

const PRESETS = [
  'at-least-once/default',
  'flink-checkpoint-replay/plain-sink',
  'spark-batch-replay/append',
  'airflow-retry-append',
];
/** web.dev's "good" cumulative layout shift is 0.1; the embed's own budget is tighter. */
const BUDGET = 0.02;

type Shift = { at: number; value: number; sources: string };

for (const width of [700, 480]) {
  for (const preset of PRESETS) {
    test(`${preset} at ${width} px: cumulative layout shift ≤ ${BUDGET} while it loads`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 720 });
      await page.addInitScript(() => {
        const shifts: Shift[] = [];
        (window as unknown as { shifts: Shift[] }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & {
            value: number;
            sources?: { node?: Node | null }[];
          })[])
            shifts.push({
              at: Math.round(e.startTime),
              value: e.value,
              sources: (e.sources ?? [])
                .map((s) => (s.node as Element | null)?.className || s.node?.nodeName || '')
                .join(', '),
            });
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`?embed&preset=${preset}`);
      const player = page.getByTestId(testIds.embedPlayer);
      // The run's layout is final once its height is reserved (an inline height: ReserveHeight.tsx).
      await expect
        .poll(() => player.evaluate((el: HTMLElement) => el.style.height), { timeout: 30_000 })
        .not.toBe('');
      await expect(player).toHaveAttribute('data-status', 'ready');
      // Entries are delivered after the frame that shifted; later shifts count too.
      await page.waitForTimeout(1000);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
      const total = shifts.reduce((sum, s) => sum + s.value, 0);
      expect(total, JSON.stringify(shifts)).toBeLessThanOrEqual(BUDGET);
    });
  }
}
