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

// A notice known only once the run is (`t=` past its end; `t=` held back by `predict=1`) was
// pushed after the height was measured: `t=40000` on a 30 s run reserved 782 px for an 857 px
// player, the notice's 75 px scrolling inside the frame.
for (const query of ['t=40000', 'predict=1&t=2000']) {
  test(`${query}: the notice is in the height the frame reserves`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(hostPage({ src: `${APP}?embed&preset=lost-ack-retry/acks-1&${query}` }));
    const frame = await playerFrame(page);
    await expect(frame.locator(SHOWN_PLAYER)).toHaveAttribute('data-status', 'ready');
    await expect(frame.locator(SHOWN_PLAYER)).toContainText('could not use an option as written');
    await expect.poll(() => frameVsReported(page)).toBe(0);
    await page.waitForTimeout(500);
    expect(
      await frame.evaluate(() => {
        const p = document.querySelector<HTMLElement>(`[data-testid="embed-player"]`)!;
        return p.scrollHeight - p.clientHeight;
      }),
    ).toBe(0);
  });
}

// A batch job's player shows its schedule, table and verdict whatever `panels=` says, and has no
// Compare: `panels=pipeline,compare` showed no lanes and said nothing (docs/embed.md's options).
test('a batch job with panels=compare says that its player has no Compare, in a notice inside the height', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 700, height: 900 });
  await page.goto(
    hostPage({
      src: `${APP}?embed&preset=airflow-retry-append/append&panels=pipeline,compare&t=5000&speed=2`,
    }),
  );
  const frame = await playerFrame(page);
  await expect(frame.locator(SHOWN_PLAYER)).toHaveAttribute('data-status', 'ready');
  await expect(frame.locator(SHOWN_PLAYER)).toContainText(
    '“panels=pipeline,compare” — a batch job’s player shows its schedule, its table and its verdict whatever panels says, and has no Compare: only “why” is read',
  );
  await expect(frame.locator(SHOWN_PLAYER)).toContainText(
    '“t=5000” — a batch job’s player opens at the start of its schedule: not used',
  );
  await expect(frame.locator(SHOWN_PLAYER)).toContainText(
    '“speed=2” — a batch job’s player plays its schedule at its own pace: not used',
  );
  await expect.poll(() => frameVsReported(page)).toBe(0);
  expect(
    await frame.evaluate(() => {
      const p = document.querySelector<HTMLElement>(`[data-testid="embed-player"]`)!;
      return p.scrollHeight - p.clientHeight;
    }),
  ).toBe(0);
});
