/**
 * The compact player (issue 31: at 480–760 px every stage stays visible, nothing scrolls
 * sideways) for a job read downstream — a Flink or Spark pipeline with readers, whose full-page
 * columns (pipeline.css, `.pipeline.wide-processor.has-readers`) once overrode the compact grid:
 * the broker was 12 px wide at 700 px, past the frame's right edge.
 */
import { expect, test } from './fixtures';
import { SHOWN_PLAYER } from './embedTesting';

for (const width of [700, 480])
  test(`a Flink job read downstream at ${width} px: every stage whole inside the frame`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('./?embed&preset=flink-checkpoint-replay/2pc-read-committed');
    await expect(page.locator(SHOWN_PLAYER)).toBeVisible({ timeout: 30_000 });
    const stages = await page.locator('.pipeline > .stage').evaluateAll((all) =>
      all.map((s) => {
        const r = s.getBoundingClientRect();
        return {
          stage: s.getAttribute('aria-label'),
          left: r.left,
          right: r.right,
          width: r.width,
        };
      }),
    );
    expect(stages.map((s) => s.stage)).toEqual([
      'Producer',
      'Broker',
      'Processor',
      'Sink',
      'Downstream reader',
    ]);
    for (const s of stages) {
      expect(s.left, `${s.stage}'s left edge`).toBeGreaterThanOrEqual(0);
      expect(s.right, `${s.stage}'s right edge`).toBeLessThanOrEqual(width);
      // A stage beside another takes at least a third of the frame (the compact grid's 4 of 10).
      expect(s.width, `${s.stage}'s width`).toBeGreaterThan(width * 0.35);
    }
  });
