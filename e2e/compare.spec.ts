/**
 * Compare in Chromium: the landing preset (at-least-once/default: a lost ack and a consumer crash
 * mid-batch) beside its at-most-once and exactly-once lanes — three lanes on one clock, the faults
 * a lane cannot fire named, lost events as struck-through gaps, the per-event diff (the events
 * derived by hand in src/views/compare/compare.test.ts) — by mouse and by keyboard alone, undo,
 * the share link replaying the same lanes (same trace hashes), and axe.
 */
import type { Page } from '@playwright/test';
import { findPreset } from '../src/scenarios';
import { compareTestIds as c } from '../src/ui/compare/compareTestIds';
import { withCompareParam } from '../src/views/compare/compareLink';
import { encodeShare } from '../src/views/io/shareLink';
import { Dashboard, expect, test, testIds } from './fixtures';
import { seriousViolations } from './support/axe';

const SHOTS = process.env.COMPARE_SHOTS;

/** Open Compare on the landing preset, the outcome shown, and wait for the three lanes. */
async function openCompare(dash: Dashboard): Promise<void> {
  await dash.showOutcome();
  await dash.byId(c.toggle).click();
  await expect(dash.byId(c.panel)).toBeVisible();
  await expect(dash.byId(c.lane)).toHaveCount(3);
  await expect(dash.byId(c.diff)).toBeVisible();
}

/** To the end of the shared clock with the timeline's keyboard (End). */
async function toEnd(dash: Dashboard): Promise<void> {
  await dash.timeline().focus();
  await dash.page.keyboard.press('End');
  await expect
    .poll(async () => {
      const k = await dash.api('cursor');
      return k.idx === k.n;
    })
    .toBe(true);
}

async function laneHashes(page: Page): Promise<string[]> {
  return page
    .getByTestId(c.lane)
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-trace-hash') ?? ''));
}

test('Compare on a preset with a crash: three lanes, the faults a lane cannot fire, the diff', async ({
  dash,
}) => {
  test.setTimeout(90_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await openCompare(dash);
  await expect(dash.byId(c.laneTitle)).toHaveText([
    '1 as on screen (claims at-least-once)',
    '2 at-most-once',
    '3 exactly-once',
  ]);
  await toEnd(dash);
  // The whole runs' verdicts (hand-derived in src/views/compare/compare.test.ts).
  await expect(dash.byId(c.laneVerdict).first()).toHaveAttribute('data-observed', 'at-least-once');
  await expect(dash.byId(c.laneVerdict).nth(1)).toHaveAttribute('data-observed', 'at-most-once');
  await expect(dash.byId(c.laneVerdict).nth(2)).toHaveAttribute('data-observed', 'exactly-once');
  // Under acks=0 the lost ack has nothing to strike, and lane 2 says so.
  const unfired = dash.byId(c.lane).nth(1).getByTestId(c.laneUnfired);
  await expect(unfired).toHaveText(
    '⚠ fault "lost ack", a lost acknowledgement, never fired: with acks=0 the broker sends no acknowledgement to lose',
  );
  // At the end, lane 2 shows p-9 and p-10 as struck-through gaps where their rows should be.
  const gaps = dash.byId(c.lane).nth(1).locator(`[data-testid="${c.laneRow}"][data-lost="true"]`);
  await expect(gaps).toHaveCount(2);
  await expect(gaps.first()).toHaveAttribute('data-event', 'p-9');
  await expect(gaps.first().locator('s').first()).toHaveText('p-9');
  // Read across: each lane's counters, verdict and table start at one height, though only lane 2
  // carries a warning and lane 1 has no configuration to edit (its counters sat 100 px higher).
  for (const part of [c.laneCounters, c.laneVerdict, c.laneTable]) {
    const tops = await dash
      .byId(part)
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(tops).toHaveLength(3);
    expect(new Set(tops).size, `${part} tops ${tops.join(', ')}`).toBe(1);
  }
  // The diff: the six events whose fate differs come first.
  const differing = dash.byId(c.diffRow).and(page.locator('[data-differs="true"]'));
  await expect(differing).toHaveCount(6);
  await expect(differing.first()).toContainText('p-4');
  await expect(differing.first()).toContainText('2 rows');
  await expect(differing.first()).toContainText('the acknowledgement of p-4 was lost');
  await expect(differing.nth(4)).toContainText('0 rows (lost)');
  // What differs, under real names; and where lane 2 departs, clickable: the cursor moves there.
  await expect(dash.byId(c.knobs)).toContainText('enable.idempotence');
  await expect(dash.byId(c.knobs)).toContainText('acks');
  // Their scroll boxes are tab stops: each a region named for its table (focused, they read as a
  // run of cells, "KnobLane 1Lane 2…": a keyboard user's report).
  await expect(
    page.getByRole('region', { name: 'The knobs that differ' }).getByRole('table'),
  ).toHaveAccessibleName('The knobs that differ, by lane');
  await expect(
    page.getByRole('region', { name: 'The events whose fate differs, by lane' }),
  ).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/compare-end.png` });
  const departs = dash.byId(c.divergence).first();
  const t = Number(await departs.getAttribute('data-time'));
  await departs.getByRole('button').click();
  await expect.poll(async () => (await dash.api('cursor')).t).toBe(t);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/compare-departs.png`, fullPage: true });
});

test('Compare by keyboard alone: open, change a lane, set a knob, undo, close', async ({
  dash,
}) => {
  test.setTimeout(90_000);
  const { page } = dash;
  await dash.showOutcome();
  await dash.byId(c.toggle).focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(c.lane)).toHaveCount(3);
  // Lane 2: from at-most-once to "as on screen" with the arrow keys…
  await dash.byId(c.laneGuarantee).first().focus();
  await page.keyboard.press('ArrowUp');
  await expect(dash.byId(c.laneTitle).nth(1)).toHaveText('2 as on screen');
  // …then a knob: Tab to the knob list, choose acks (the first knob), Tab to its value.
  await page.keyboard.press('Tab');
  await expect(dash.byId(c.laneKnob).first()).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await expect(dash.byId(c.laneTitle).nth(1)).toHaveText('2 as on screen · acks = 1');
  await expect(dash.byId(c.lane)).toHaveCount(3);
  // A bad value is refused, naming the knob and quoting what it got.
  await dash.byId(c.laneKnobValue).first().focus();
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('alert').filter({ hasText: 'acks: expected 0, 1 or all, got "7"' }),
  ).toBeVisible();
  // Remove lane 3 by keyboard: the focus goes to Add a lane, which comes back, not to the page's start.
  await dash.byId(c.laneRemove).nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(c.lane)).toHaveCount(2);
  await expect(dash.byId(c.addLane)).toBeFocused();
  await page.locator('h1').first().click();
  await page.keyboard.press('Control+z');
  await expect(dash.byId(c.lane)).toHaveCount(3);
  // Undo (each change was one step) brings the lane back as it was.
  await page.locator('h1').first().click();
  await page.keyboard.press('Control+z');
  await expect(dash.byId(c.laneTitle).nth(1)).toHaveText('2 as on screen');
  await page.keyboard.press('Control+z');
  await expect(dash.byId(c.laneTitle).nth(1)).toHaveText('2 at-most-once');
  await dash.byId(c.close).focus();
  await page.keyboard.press('Enter');
  await expect(dash.byId(c.panel)).toHaveCount(0);
  // The focus goes back to Compare, not to the page's start with the panel that held it.
  await expect(dash.byId(c.toggle)).toBeFocused();
  await expect(dash.byId(testIds.counters)).toBeVisible();
  // And undo opens it again.
  await page.locator('h1').first().click();
  await page.keyboard.press('Control+z');
  await expect(dash.byId(c.panel)).toBeVisible();
});

test('a compare share link replays the same lanes: same trace hashes', async ({
  dash,
  browser,
}) => {
  test.setTimeout(90_000);
  await openCompare(dash);
  await expect
    .poll(async () => (await laneHashes(dash.page)).every((h) => h.length === 64))
    .toBe(true);
  const hashes = await laneHashes(dash.page);
  expect(new Set(hashes).size).toBe(3);
  await dash.byId(testIds.shareButton).click();
  const link = await dash.byId(testIds.shareUrl).inputValue();
  expect(link).toMatch(/#s=2\.[A-Za-z0-9_-]+&c=1\.[A-Za-z0-9_-]+$/);
  const context = await browser.newContext();
  const other = await context.newPage();
  await new Dashboard(other).goto(link);
  await expect(other.getByTestId(c.lane)).toHaveCount(3);
  await expect.poll(async () => (await laneHashes(other)).every((h) => h.length === 64)).toBe(true);
  expect(await laneHashes(other)).toEqual(hashes);
  await context.close();
});

test('axe: Compare open, at the end, has no serious or critical violation', async ({ dash }) => {
  test.setTimeout(120_000);
  const { page } = dash;
  await openCompare(dash);
  await toEnd(dash);
  await page.locator('.compare-diff details summary').click();
  expect(await seriousViolations(page)).toEqual([]);
  expect(dash.errors).toEqual([]);
});

test('an embed with panels=compare shows the lanes its link carries, locked', async ({ page }) => {
  test.setTimeout(90_000);
  const scenario = findPreset('lost-ack-retry/idempotence-off')!.variant.scenario;
  const hash = withCompareParam(encodeShare({ ...scenario, name: 'edited' }), {
    lanes: [{ knobs: [{ path: 'producer.enable.idempotence', value: true }] }],
  });
  await page.goto(`./?embed&lock=1&panels=transport,compare#${hash}`);
  await expect(page.getByTestId(c.lane)).toHaveCount(2);
  await expect(page.getByTestId(c.laneTitle)).toHaveText([
    '1 as on screen (claims exactly-once)',
    '2 as on screen · enable.idempotence = true',
  ]);
  // Locked: shown, not edited; and no Close (the embed's panels decide).
  await expect(page.getByTestId(c.laneGuarantee)).toHaveCount(0);
  await expect(page.getByTestId(c.close)).toHaveCount(0);
  // Only e3 differs (src/views/compare/compare.test.ts).
  await expect(page.locator(`[data-testid="${c.diffRow}"][data-differs="true"]`)).toHaveCount(1);
  await expect(page.getByTestId(c.diffRow).first()).toHaveAttribute('data-event', 'e3');
});

test('Compare opened before the question is answered keeps the question on screen; locking one in lets the lanes play (issue 24)', async ({
  page,
}) => {
  // Before: the status line asked for a prediction ("…lock one in (or Show the answer)") but no
  // prediction box was anywhere (the document 720 px tall): only "Show the answer" could be reached.
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?preset=at-least-once');
  await page.getByTestId(c.toggle).click();
  await expect(page.getByTestId(c.panel)).toBeVisible();
  await page.getByTestId(testIds.play).click({ force: true });
  await expect(page.getByTestId(testIds.app)).toContainText(
    'Waits for your prediction (or Show the answer)',
  );
  await expect(page.getByTestId(testIds.predictQuestion)).toBeInViewport();
  await expect(page.getByTestId(testIds.predictInput)).toBeInViewport();
  await page.getByTestId(testIds.predictInput).fill('Some events twice');
  await page.getByTestId(testIds.predictLock).click();
  // Answered: the lanes play on their one clock, Compare still open.
  await page.getByTestId(testIds.play).click();
  await expect(page.getByTestId(testIds.clock)).not.toContainText('event 0 /');
  await expect(page.getByTestId(c.panel)).toBeVisible();
  await expect(page.getByTestId(c.lane)).toHaveCount(3);
});

test('at 390 px wide the tables of what differs scroll in their own box: the page does not', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 390, height: 844 });
  // A Flink story: its knob names are long (setStartingOffsets(OffsetsInitializer)), and the
  // "What differs" table pushed the page to 708 px, the lanes and the text beside it off screen.
  await dash.goto('./?preset=flink-checkpoint-replay/upsert');
  await dash.settled();
  await dash.byId(c.toggle).click();
  await expect(dash.byId(c.lane)).toHaveCount(3);
  await expect(dash.byId(c.knobs)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  for (const table of [dash.byId(c.knobs), page.locator('.compare-diff-table')]) {
    const [scrollWidth, clientWidth] = await table.evaluate((el) => {
      const box = el.parentElement!;
      return [box.scrollWidth, box.clientWidth];
    });
    // Wider than the window, the table scrolls sideways in its box.
    expect(scrollWidth).toBeGreaterThan(clientWidth);
  }
  expect(dash.errors).toEqual([]);
});

/**
 * A long diff (plain-sink's 50 replayed events of 250, each with its lanes' "why") scrolls in a
 * box of its own, its header at the top: listed whole, a diff of a 250-event job made the page
 * about 22,700 px tall.
 */
test('a long diff scrolls in its own box, its header kept in sight', async ({
  unopenedDash: dash,
}) => {
  test.setTimeout(90_000);
  const { page } = dash;
  await dash.goto('./?preset=flink-checkpoint-replay/plain-sink');
  await dash.settled();
  await dash.skipQuestion();
  await dash.byId(c.toggle).click();
  await expect(dash.byId(c.lane)).toHaveCount(3);
  await dash.byId(testIds.toEnd).click();
  await expect(dash.byId(c.diff)).toContainText('50 of 250 events differ');
  const box = page.locator('.compare-diff-scroll').first();
  await expect(box.getByTestId(c.diffRow)).toHaveCount(50);
  const [scrollHeight, clientHeight] = await box.evaluate((b) => [b.scrollHeight, b.clientHeight]);
  expect(clientHeight).toBeLessThan(720);
  expect(scrollHeight).toBeGreaterThan(clientHeight * 3);
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3000);
  // Scrolled to its last row, the column heads are still at the box's top.
  await box.evaluate((b) => b.scrollTo(0, b.scrollHeight));
  const head = await box.locator('thead th').first().boundingBox();
  const top = await box.boundingBox();
  expect(Math.abs(head!.y - top!.y)).toBeLessThan(2);
  expect(dash.errors).toEqual([]);
});

test('at the end each lane’s table shows its first duplicate, however far down the workload', async ({
  dash,
}) => {
  // retry-storm (idempotence-off): the first duplicate is e100's second row, the 101st row of
  // lane 1's table (src/scenarios/library/producer.ts, by hand); the table opened at e1, every
  // duplicate below its fold (an on-call engineer's report).
  test.setTimeout(120_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.api('load', 'retry-storm/idempotence-off');
  await dash.settled();
  await openCompare(dash);
  await toEnd(dash);
  const lane = dash.byId(c.lane).first();
  const first = lane.locator(`[data-testid="${c.laneRow}"][data-copy="2"]`).first();
  await expect(first).toHaveAttribute('data-event', 'e100');
  await expect
    .poll(() =>
      first.evaluate((row) => {
        const box = row.closest('.lane-table')!.getBoundingClientRect();
        const r = row.getBoundingClientRect();
        return r.top >= box.top && r.bottom <= box.bottom;
      }),
    )
    .toBe(true);
  expect(dash.errors).toEqual([]);
});
