/**
 * How the page looks and follows the user: system colour scheme, reduced motion, selection
 * highlighted everywhere, fate never by colour alone.
 */
import type { Page } from '@playwright/test';
import { encodeShare } from '../src/views/io/shareLink';
import { expect, test, testIds } from './fixtures';

test('light and dark follow the system colour scheme', async ({ dash }) => {
  const { page } = dash;
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await bg();
  await page.emulateMedia({ colorScheme: 'dark' });
  // The page's script follows the change (data-theme, src/platform/media.ts) on the media
  // query's change event, a moment after the emulation: wait for it rather than race it.
  await expect.poll(bg).not.toBe(light);
  const dark = await bg();
  // Dark means dark: every channel of the background is low.
  const channels = dark.match(/\d+/g)!.slice(0, 3).map(Number);
  expect(Math.max(...channels)).toBeLessThan(60);
});

test('the diagrams follow the colour scheme: dark in dark, light again in light, same text', async ({
  dash,
}) => {
  const { page } = dash;
  /** Relative luminance (0 black … 1 white) of a CSS rgb() colour. */
  const lum = (css: string) => {
    const [r, g, b] = css
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map(Number) as [number, number, number];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  };
  const picture = page.getByTestId(testIds.diagramSvg);
  const status = page.getByTestId(testIds.diagramStatus);
  /** The panel's background and the producer box's fill, as drawn. */
  const colours = () =>
    picture.evaluate((el) => {
      const shape = el
        .querySelector('g.node[id*="producer"]')
        ?.querySelector('rect, path, polygon');
      return {
        panel: getComputedStyle(el).backgroundColor,
        node: shape ? getComputedStyle(shape).fill : '',
        svg: el.querySelector('svg')?.outerHTML ?? '',
      };
    });
  await page.emulateMedia({ colorScheme: 'dark' });
  // The topology: "Predict first" does not hide it.
  await page.getByTestId(testIds.diagramsToggle).click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="flow"]`).click();
  await expect(status).toHaveAttribute('data-state', 'ok', { timeout: 20_000 });
  const text = await page.getByTestId(testIds.diagramText).textContent();
  const dark = await colours();
  expect(lum(dark.panel)).toBeLessThan(0.25);
  expect(lum(dark.node)).toBeLessThan(0.35);

  // The scheme changes with the diagram open: it is drawn again, light.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(async () => (await colours()).svg).not.toBe(dark.svg);
  await expect(status).toHaveAttribute('data-state', 'ok');
  const light = await colours();
  expect(lum(light.panel)).toBeGreaterThan(0.9);
  expect(lum(light.node)).toBeGreaterThan(0.8);
  // The theme is the picture's, never the diagram's text.
  expect(await page.getByTestId(testIds.diagramText).textContent()).toBe(text);
  expect(dash.errors).toEqual([]);
});

test('reduced motion: a message in flight sits still half-way instead of moving', async ({
  dash,
}) => {
  const { page } = dash;
  // The default preset's question holds the run at its start (issue 24): skipped first.
  await dash.skipQuestion();
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
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
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

/** Whether the element's centre is the element itself (or inside it): nothing lies over it. */
async function uncovered(page: Page, testId: string): Promise<boolean> {
  const box = (await page.getByTestId(testId).boundingBox())!;
  return page.evaluate(
    ([id, x, y]) => {
      const el = document.querySelector(`[data-testid="${id}"]`);
      const top = document.elementFromPoint(x as number, y as number);
      return !!el && !!top && el.contains(top);
    },
    [testId, box.x + box.width / 2, box.y + box.height / 2] as const,
  );
}

for (const size of [
  { width: 800, height: 600 },
  // 1280×720 at 150 % zoom.
  { width: 853, height: 480 },
]) {
  test(`at ${size.width}×${size.height} the page fits the window; the verdict and Play are in view without scrolling and uncovered; the pipeline scrolls in its own box`, async ({
    unopenedDash: dash,
  }) => {
    const { page } = dash;
    await page.setViewportSize(size);
    await dash.goto('./?preset=lost-ack-retry/idempotence-off');
    await dash.settled();
    // Nothing pushes the page wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(size.width);
    for (const id of [testIds.play, testIds.seedInput, testIds.counters]) {
      const box = (await dash.byId(id).boundingBox())!;
      expect(box.x, id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, id).toBeLessThanOrEqual(size.width);
    }
    await expect(dash.byId(testIds.play)).toBeInViewport({ ratio: 1 });
    expect(await uncovered(page, testIds.play)).toBe(true);
    // The preset asks its question first and holds the verdict back until it is revealed.
    await dash.byId(testIds.predictReveal).click();
    // Told, the final verdict waits for the end of the run; "Reveal now" shows it at once.
    await dash.byId(testIds.outcomeRevealNow).first().click();
    const verdict = (await dash.byId(testIds.verdict).boundingBox())!;
    expect(verdict.x).toBeGreaterThanOrEqual(0);
    expect(verdict.x + verdict.width).toBeLessThanOrEqual(size.width);
    // At the top of the page, as it opens: the verdict is in view without scrolling.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(dash.byId(testIds.verdict)).toBeInViewport({ ratio: 1 });
    expect(await uncovered(page, testIds.verdict)).toBe(true);
    // The five stages are wider than the window: their box scrolls sideways, the reader is in it.
    const scroller = page.locator('.pipeline-scroll');
    const [scrollWidth, clientWidth] = await scroller.evaluate((el) => [
      el.scrollWidth,
      el.clientWidth,
    ]);
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    // …and says so: a fade and a "scroll →" cue at the right edge, gone once scrolled to the end.
    const frame = page.locator('.pipeline-frame');
    const cue = dash.byId(testIds.pipelineScrollCue);
    await expect(frame).toHaveAttribute('data-more-right', 'true');
    await expect(frame).not.toHaveAttribute('data-more-left', /.*/);
    await expect(cue).toHaveText('scroll →');
    await expect(cue).toHaveCSS('opacity', '1');
    await dash.byId(testIds.readerPanel).scrollIntoViewIfNeeded();
    await expect(dash.byId(testIds.readerPanel)).toBeInViewport();
    await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await expect(frame).not.toHaveAttribute('data-more-right', /.*/);
    await expect(frame).toHaveAttribute('data-more-left', 'true');
    await expect(cue).toHaveCSS('opacity', '0');
    // A fault menu opened there is not clipped by that box: all of it is in the window.
    await dash.component('sink').locator('.component-head').first().click();
    await expect(dash.byId(testIds.faultMenu)).toBeVisible();
    const menu = (await dash.byId(testIds.faultMenu).boundingBox())!;
    expect(menu.y).toBeGreaterThanOrEqual(0);
    expect(menu.y + menu.height).toBeLessThanOrEqual(size.height);
    expect(menu.x).toBeGreaterThanOrEqual(0);
    expect(menu.x + menu.width).toBeLessThanOrEqual(size.width);
  });
}

test.describe('at 150 % zoom (a 1280×720 projector: 853×480 CSS px)', () => {
  test.use({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });

  test('a fault menu stays in the window and off its component, which stays uncovered; Escape and a click outside close it', async ({
    unopenedDash: dash,
  }) => {
    const { page } = dash;
    await dash.goto('./?preset=at-least-once/default');
    const menu = dash.byId(testIds.faultMenu);
    // Nine faults for consumer-0 fit neither above nor below it: beside it (more room on its
    // left); the producer's five go to its right; broker-1's three fit below it.
    for (const [id, side] of [
      ['producer', 'right'],
      ['broker-1', 'below'],
      ['consumer-0', 'left'],
      ['sink', 'left'],
    ] as const) {
      const component = dash.component(id);
      const head = component.locator('.component-head').first();
      await head.scrollIntoViewIfNeeded();
      await head.click();
      await expect(menu, id).toBeVisible();
      const m = (await menu.boundingBox())!;
      const c = (await component.boundingBox())!;
      expect(m.x, id).toBeGreaterThanOrEqual(0);
      expect(m.y, id).toBeGreaterThanOrEqual(0);
      expect(m.x + m.width, id).toBeLessThanOrEqual(853);
      expect(m.y + m.height, id).toBeLessThanOrEqual(480);
      // Not over its component (1 px for rounding): the two boxes do not intersect.
      const apart =
        m.x + m.width <= c.x + 1 ||
        c.x + c.width <= m.x + 1 ||
        m.y + m.height <= c.y + 1 ||
        c.y + c.height <= m.y + 1;
      expect(apart, id).toBe(true);
      // Nothing lies over the component's heading: it can still be clicked (to close the menu).
      const h = (await head.boundingBox())!;
      const top = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('.component-head')?.textContent,
        [h.x + h.width / 2, h.y + h.height / 2],
      );
      expect(top, id).toBe(await head.textContent());
      await expect(menu, id).toHaveAttribute('data-side', side);
      await page.keyboard.press('Escape');
      await expect(menu, id).toHaveCount(0);
    }
    // A press outside closes the menu and reaches what it pressed: consumer-0's menu covers the
    // producer and the broker; the sink's heading, beside it, opens the sink's menu at once.
    await dash.component('consumer-0').locator('.component-head').first().click();
    await expect(menu).toHaveAttribute('aria-label', 'Faults for consumer-0');
    await dash.component('sink').locator('.component-head').first().click();
    await expect(menu).toHaveCount(1);
    await expect(menu).toHaveAttribute('aria-label', 'Faults for sink');
    expect(dash.errors).toEqual([]);
  });
});

test('at 1024 px the pipeline fits: no sideways scrolling, every table column in its box, the picker not cut short', async ({
  dash,
}) => {
  const { page } = dash;
  // 1024 less a classic (non-overlay) scrollbar's 15 px, which headless Chromium leaves out.
  await page.setViewportSize({ width: 1009, height: 768 });
  for (const preset of [
    'lost-ack-retry/idempotence-off',
    'aborted-transaction-dirty-read/read-uncommitted',
    'flink-checkpoint-replay/2pc-read-committed',
    'flink-checkpoint-replay/plain-sink',
    'spark-batch-replay/append',
  ]) {
    await dash.pickPreset(preset);
    // Play and the run's end wait for the preset's question (issue 24): skipped first.
    await dash.skipQuestion();
    await dash.toEnd();
    const scroller = page.locator('.pipeline-scroll');
    expect(
      await scroller.evaluate((el) => el.scrollWidth - el.clientWidth),
      preset,
    ).toBeLessThanOrEqual(0);
    await expect(page.locator('.pipeline-frame'), preset).not.toHaveAttribute(
      'data-more-right',
      /.*/,
    );
    // The sink's and the readers' tables, the checkpoints and micro-batches: none scrolls sideways.
    const wide = await page
      .locator('.pipeline .table-scroll')
      .evaluateAll((els) =>
        els
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.getAttribute('data-testid') ?? el.className),
      );
    expect(wide, preset).toEqual([]);
  }
  // The scenario picker shows its whole title (it is as wide as the chosen name, and takes a
  // line of its own when that does not fit beside the switch).
  const fits = await dash.byId(testIds.scenarioPicker).evaluate((sel: HTMLSelectElement) => {
    const span = document.createElement('span');
    span.style.font = getComputedStyle(sel).font;
    span.style.whiteSpace = 'pre';
    span.textContent = sel.selectedOptions[0]!.text;
    document.body.append(span);
    const text = span.getBoundingClientRect().width;
    span.remove();
    return { box: sel.getBoundingClientRect().width, text };
  });
  expect(fits.box).toBeGreaterThan(fits.text);
});

test('at 1400 px the readers show their name, isolation level and table headers uncut', async ({
  dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1400, height: 900 });
  await dash.pickPreset('consume-transform-produce/read-committed');
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
  await dash.toEnd();
  const reader = dash.byId(testIds.readerPanel);
  const heads = reader.locator('.component-head');
  await expect(heads).toHaveCount(2);
  await expect(heads.nth(0)).toContainText('rc');
  await expect(heads.nth(0)).toContainText('read_committed');
  await expect(heads.nth(1)).toContainText('read_uncommitted');
  // Nothing in the reader column is cut: no text wider than its box (titles, column headers,
  // cells), and the column itself does not overflow.
  const cut = await reader.evaluate((root) =>
    [...root.querySelectorAll('.component-head span, [role="columnheader"], [role="cell"]')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );
  expect(cut).toEqual([]);
  expect(await reader.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await expect(reader.locator('[role="columnheader"]').nth(2)).toHaveText('amount');
});

test('small text is at least 12 px at 100 %; counts take the right plural', async ({ dash }) => {
  const { page } = dash;
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  // Play and the run's end wait for the preset's question (issue 24): skipped first.
  await dash.skipQuestion();
  await dash.toEnd();
  // Every text in the transport, the counters and the pipeline, except the marks inside a log
  // cell (HW, LSO, C: the legend spells them out) and the labels of messages in flight.
  const small = await page.evaluate(() => {
    const out: string[] = [];
    for (const root of document.querySelectorAll('.transport, .counters, .pipeline')) {
      const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) {
        const el = walk.currentNode.parentElement!;
        if (!walk.currentNode.textContent!.trim() || el.closest('.mark, .token, .tokens')) continue;
        if (el.getClientRects().length === 0) continue;
        const px = parseFloat(getComputedStyle(el).fontSize);
        if (px < 11.8) out.push(`${el.className || el.tagName}: ${px}px`);
      }
    }
    return [...new Set(out)];
  });
  expect(small).toEqual([]);
  await expect(page.locator('section[aria-label="Processor"]')).toContainText(
    'processed 11 records (each attempt counts)',
  );
});

test('after A+ the partition log, the sink table and the ledger make room for their taller rows', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.goto('./?preset=lost-ack-retry/idempotence-off');
  // At event 0 each partition log is one row (the next-offset cell): A+ does not change how
  // many rows there are, only how tall they are.
  for (let k = 0; k < 3; k++) await dash.byId(testIds.fontLarger).click();
  // Each scroller's rows: none overlaps the next, and a one-row log shows its whole cell.
  const overlaps = await page.evaluate(() => {
    const bad: string[] = [];
    const log = document.querySelector<HTMLElement>('.log-scroll')!;
    const cell = log.querySelector('.cell')!.getBoundingClientRect();
    if (log.getBoundingClientRect().height + 0.5 < cell.height) bad.push('log clips its cells');
    for (const sel of ['.log-row', '[data-testid="ledger"] [role="row"]']) {
      const rows = [...document.querySelectorAll(sel)].map((r) => r.getBoundingClientRect());
      for (let i = 1; i < rows.length; i++)
        if (rows[i]!.top + 0.5 < rows[i - 1]!.bottom) bad.push(`${sel} row ${i} overlaps`);
    }
    return bad;
  });
  expect(overlaps).toEqual([]);
});

test('the HW and C marks of a partition log never cover each other, on one offset or on neighbours, at any text size', async ({
  dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  /** Each HW mark with the C marks on its own cell and its neighbours: boxes and whether they meet. */
  const pairs = () =>
    page.locator('.log-row .mark.hw').evaluateAll((hws) =>
      hws.flatMap((hw) => {
        const cell = hw.closest('.cell')!;
        const box = (el: Element) => el.getBoundingClientRect();
        const near = [cell.previousElementSibling, cell, cell.nextElementSibling];
        return near.flatMap((c, k) =>
          [...(c?.querySelectorAll('.mark.committed') ?? [])].map((mc) => {
            const a = box(hw);
            const b = box(mc);
            const meet =
              a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            // Each whole inside its own cell (a cell clips what sticks out).
            const inside = (m: DOMRect, c: DOMRect) =>
              m.left >= c.left && m.right <= c.right && m.top >= c.top && m.bottom <= c.bottom;
            return {
              where: k === 1 ? 'same offset' : 'neighbours',
              meet,
              whole: inside(a, box(cell)) && inside(b, box(mc.closest('.cell')!)),
            };
          }),
        );
      }),
    );
  const seen = new Set<string>();
  // At the end of at-least-once the log end carries both (HW = committed = LEO); a moment in
  // consume-transform-produce has C on the last record, HW on the next offset.
  for (const [preset, t] of [
    ['at-least-once', -1],
    ['consume-transform-produce/read-committed', 1028],
  ] as const) {
    await dash.pickPreset(preset);
    // Play and the run's end wait for the preset's question (issue 24): skipped first.
    await dash.skipQuestion();
    if (t < 0) await dash.toEnd();
    else await dash.api('runTo', t);
    for (const larger of [0, 4]) {
      for (let k = 0; k < larger; k++) await dash.byId(testIds.fontLarger).click();
      for (const p of await pairs()) {
        seen.add(p.where);
        expect(p, `${preset} at ${t}, A+ ×${larger}`).toMatchObject({ meet: false, whole: true });
      }
    }
    for (let k = 0; k < 4; k++) await dash.byId(testIds.fontSmaller).click();
  }
  expect([...seen].sort()).toEqual(['neighbours', 'same offset']);
});

test('a fault marker at either end of the timeline stays whole inside the bar', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  await dash.showOutcome();
  await dash.toEnd();
  // Armed after the last event: it never fires, and sits at the bar's right end.
  await dash.fault('producer', 'lose-next-ack');
  const markers = page.locator(`[data-testid="${testIds.faultMarker}"]`);
  await expect(markers).toHaveCount(2);
  const bar = (await page.locator('.timeline-box').boundingBox())!;
  for (const m of await markers.all()) {
    const b = (await m.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(bar.x - 0.5);
    expect(b.x + b.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
  }
  expect(dash.errors).toEqual([]);
});

/**
 * The sink's table beside four other stages and the story, at 1280×720: no sideways scrolling,
 * and no note cut short ("↻ updated ×1" read "↻ upd…" in the upsert sink's 3 em note column).
 */
test('at 1280×720 the sink table fits its box: no sideways scrolling, no cell cut short', async ({
  dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const preset of ['at-least-once', 'flink-checkpoint-replay/upsert']) {
    await dash.pickPreset(preset);
    // The run's end waits for the preset's question (issue 24): skipped first.
    await dash.skipQuestion();
    await dash.toEnd();
    const table = dash.byId(testIds.sinkTable);
    expect(await table.evaluate((e) => e.scrollWidth - e.clientWidth), preset).toBeLessThanOrEqual(
      0,
    );
    const cut = await table
      .locator('.sink-cols > span')
      .evaluateAll((spans) =>
        spans.filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent),
      );
    expect(cut, preset).toEqual([]);
  }
});

// An on-call engineer's own payments, p-1000 … p-1019: the sink's id column was a fixed 3.4 em,
// which holds four monospace characters, so every row read "p-10…" and no payment could be told
// from another. The column now takes the run's longest id (up to 12 em), as the source column
// takes its offsets.
test('at 1280×720 the sink table shows six-character payment ids whole', async ({ dash }) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  const hash = encodeShare({
    version: 1,
    name: 'payments p-1000…p-1019',
    workload: {
      topic: 'payments',
      events: Array.from({ length: 20 }, (_, i) => ({
        id: `p-${1000 + i}`,
        amount: 25,
        at: i * 100,
      })),
    },
    processor: { type: 'consumer', 'enable.auto.commit': false, 'auto.offset.reset': 'earliest' },
    sink: { type: 'table', name: 'charges' },
  });
  await dash.goto(`./#${hash}`);
  await dash.settled();
  await dash.toEnd();
  const table = dash.byId(testIds.sinkTable);
  await expect(table).toHaveAttribute('data-rows', '20');
  const ids = await table
    .locator('.sink-cols:not(.head) > span:nth-child(2)')
    .evaluateAll((spans) =>
      spans.map((s) => ({ text: s.textContent, cut: s.scrollWidth > s.clientWidth })),
    );
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.filter((x) => x.cut)).toEqual([]);
  expect(ids[0]!.text).toBe('p-1000');
  expect(await table.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
});
