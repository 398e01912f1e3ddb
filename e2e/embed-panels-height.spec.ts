import { expect, test } from './fixtures';
import { APP, frameVsReported, hostPage, playerFrame, SHOWN_PLAYER } from './embedTesting';

// docs/embed.md: without `height=`, the player reports "the height the whole run needs" and
// keeps it — every panel the author asked for included. With `panels=…,compare` the player was
// measured before Compare's chunk and lanes were in: a 668 px column framed it at 581 px while
// its content was 1,648 px, Compare's lanes behind a scroll inside the frame.
for (const panels of ['pipeline,compare', 'transport,counters,verdict,why']) {
  test(`panels=${panels}: the frame fits the player, nothing scrolls inside it`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 700, height: 900 });
    await page.goto(
      hostPage({ src: `${APP}?embed&preset=at-least-once/default&panels=${panels}` }),
    );
    const frame = await playerFrame(page);
    await expect(frame.locator(SHOWN_PLAYER)).toHaveAttribute('data-status', 'ready');
    if (panels.includes('compare'))
      await expect(frame.locator('[data-testid="compare-lane"]')).toHaveCount(3);
    await expect.poll(() => frameVsReported(page)).toBe(0);
    const inside = () =>
      frame.evaluate(() => {
        const p = document.querySelector<HTMLElement>(`[data-testid="embed-player"]`)!;
        return p.scrollHeight - p.clientHeight;
      });
    // Give a late chunk or lane its time: the frame must not need to grow, nor scroll inside.
    await page.waitForTimeout(1500);
    expect(await inside()).toBe(0);
    expect(await frameVsReported(page)).toBe(0);
  });
}
