/**
 * Batch jobs in the lab's page: a batch preset plays on the calendar strip, a click fails an
 * attempt mid-write, the table shows its partitions with the rows under the wrong partition, and
 * the explanation names the clock window (docs/semantics/batch.md); opened from the library, the
 * guarantee switch and Compare act on it as on a stream.
 */
import { expect, test, type Page } from '@playwright/test';
import { encodeShare } from '../src/platform/share';
import type { ScenarioInput } from '../src/engine';
import { SameOriginAxeBuilder } from './support/axe';

// Whole-page runs on a shared, slow machine: a generous budget (each takes a few seconds alone).
test.describe.configure({ timeout: 90_000 });

test('clear-rerun-window (the old ?batch= address): play, fail an attempt mid-write, wrong-partition rows and the clock window', async ({
  page,
}) => {
  await page.goto('?batch=clear-rerun-window');
  // The old address opens the preset in the lab's page.
  await expect(page).toHaveURL(/[?&]preset=clear-rerun-window/);
  // Before Play, the job's setup (issue 24: the projector's first screen was empty date cards):
  // the clock window, the planned clear, and each logical date's source rows.
  const setup = page.getByTestId('batch-setup');
  await expect(setup).toContainText('WHERE event_date = current_date() - 1');
  await expect(setup).toContainText('clear and re-run 2024-03-10 at 2024-03-13 01:00');
  await expect(page.getByTestId('batch-source')).toHaveText([
    'source: e1 e2 e3',
    'source: no rows',
    'source: f1 f2',
  ]);
  // The question unanswered, the schedule waits ("Predict first", as on a stream); skip it.
  await page.getByTestId('predict-reveal').click();
  await page.getByRole('button', { name: 'Play the schedule', exact: true }).click();
  // 3 scheduled runs and the re-run of 2024-03-10, revealed one by one.
  await expect(page.getByTestId('batch-attempt')).toHaveCount(4);
  // The schedule played to its end: the table and the stories take the setup's place.
  await expect(setup).toHaveCount(0);
  const p0310 = page.getByTestId('batch-partition').filter({ hasText: '2024-03-10' });
  await expect(p0310).toContainText('f1 ×2, 2nd copy of its id (wrong partition)');
  await expect(p0310.locator('[data-wrong]')).toHaveCount(2);
  await expect(page.getByTestId('batch-explanation').first()).toContainText(
    'current_date() - 1 = 2024-03-12',
  );
  // Fail the scheduled run of 2024-03-12 mid-write (after 1 of its 2 rows, atomic: nothing lands).
  await page.getByRole('button', { name: /try 1 of 2024-03-12/ }).click();
  await page.getByRole('menuitem', { name: 'Fail this attempt mid-write' }).click();
  await expect(
    page.getByRole('button', { name: /try 1 of 2024-03-12.*crashed \(mid-write\)/ }),
  ).toBeVisible();
  // f1, f2 now exist only under 2024-03-10: no partition 2024-03-12 any more.
  await expect(page.getByTestId('batch-partition')).toHaveCount(1);
  await expect(page.getByTestId('batch-summary')).toContainText('2 under the wrong partition');
});

/**
 * The page's one rule on the batch page (src/ui/library/revealGuard.ts, asked through the store):
 * while the question waits, "Play the schedule" and "Show the end" are refused, the status line
 * saying why, the buttons aria-disabled with a title that says it. Before, both moved the
 * schedule on (only the table stayed hidden): each attempt's outcome is on the way to the answer.
 */
test('a batch preset with its question pending: Play the schedule and Show the end are refused with the reason; locked in, they work', async ({
  page,
}) => {
  await page.goto('?preset=airflow-retry-append');
  const play = page.getByRole('button', { name: 'Play the schedule', exact: true });
  const end = page.getByRole('button', { name: 'Show the end', exact: true });
  const status = page.getByTestId('run-status');
  for (const b of [play, end]) {
    await expect(b).toHaveAttribute('aria-disabled', 'true');
    await expect(b).toHaveAttribute('title', /Waits for your prediction/);
  }
  // Pressed anyway (aria-disabled buttons take the press, to say why).
  await play.click({ force: true });
  await expect(status).toContainText('Waits for your prediction');
  await page.waitForTimeout(1_000); // two attempts' worth of the schedule's 300 ms steps
  await expect(page.getByTestId('batch-attempt')).toHaveCount(0);
  await end.click({ force: true });
  await expect(page.getByTestId('batch-attempt')).toHaveCount(0);
  await expect(page.getByTestId('batch-setup')).toBeVisible();
  // Locked in: the refusal leaves the status line, and the schedule plays to its end, where the
  // answer is told (append, retries=1: try 1 and try 2 write e1..e10 each, 20 rows).
  await page.getByTestId('predict-input').fill('20 rows');
  await page.getByTestId('predict-lock').click();
  await expect(play).not.toHaveAttribute('aria-disabled', /.*/);
  await expect(status).not.toContainText('Waits for your prediction');
  await play.click();
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
  await expect(page.getByTestId('predict-answer')).toHaveAttribute('data-judged', 'right');
  await expect(page.getByTestId('batch-summary')).toContainText('20 rows · 10 duplicates · 0 lost');
  // Try 2's ten rows are marked as the second copies, as the stream sink marks them.
  await expect(page.locator('.batch-row[data-copy="2"]')).toHaveCount(10);
  await expect(page.locator('.batch-row[data-copy="2"]').first()).toContainText('e1 ×2');
  await expect(page.getByTestId('batch-copy-key')).toContainText('×2: the second copy');
  await end.click();
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
});

test('a batch preset from the library: the guarantee switch, undo, and Compare with a per-event diff', async ({
  page,
}) => {
  await page.goto('?preset=at-least-once');
  await page.getByTestId('library-open').click();
  await page.locator('[data-testid="library-card"][data-preset="airflow-retry-append"]').click();
  const summary = page.getByTestId('batch-summary');
  // The question skipped (the schedule waits for it), then its end.
  await page.getByTestId('predict-reveal').click();
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  // S21, append: try 1 commits e1..e10 then fails; try 2 appends them again.
  await expect(summary).toContainText('20 rows · 10 duplicates · 0 lost');
  // Its fault atlas, run in an atlas worker (derived in src/views/batch/batchAtlas.test.ts): 23
  // single faults on one logical date, 5 points; 12 duplicate (after the write, the clear, the
  // 10 late rows).
  await page.getByRole('button', { name: 'Fault atlas: every single fault' }).click();
  await expect(page.getByTestId('batch-atlas-summary')).toHaveText(
    'The job breaks its exactly-once claim already with its own faults. 23 placements: 11 held, 12 duplicate — the 12 that duplicate do so as the job alone does.',
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('batch-atlas-cell')).toHaveCount(5);
  // The job breaks as it is (its own try-1 crash after the write): no fault to add to show it,
  // as `sim --explore` says (issue #24.3) — no "Show me how this breaks".
  // Said once, in the summary's first sentence: here only that none is needed.
  await expect(page.getByTestId('batch-atlas-no-fault-needed')).toHaveText(
    'No fault needs adding to show the break.',
  );
  // (The status line announces the atlas done with the summary: far from the map.)
  await expect(
    page
      .locator('[data-testid="batch-atlas-summary"], [data-testid="batch-atlas-no-fault-needed"]')
      .filter({ hasText: 'with its own faults' }),
  ).toHaveCount(1);
  await expect(page.getByTestId('batch-atlas-counterexample')).toHaveCount(0);
  // The story claims exactly-once with knobs off its recipe: choosing Exactly-once again applies
  // the engine's batch recipe — an overwrite of the logical date's partition.
  await page.getByRole('radio', { name: 'Exactly-once' }).click();
  await expect(summary).toContainText('10 rows · 0 duplicates · 0 lost');
  await page.keyboard.press('Control+z');
  await expect(summary).toContainText('20 rows · 10 duplicates');
  await page.keyboard.press('Control+Shift+z');
  await expect(summary).toContainText('10 rows · 0 duplicates');
  // Compare: exactly-once beside at-most-once (retries 0: try 1's rows only, once each) and
  // at-least-once (retries, append: twice each) — every event differs.
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3);
  await expect(page.getByTestId('batch-compare-summary')).toHaveText(
    '10 of 10 events differ between the lanes.',
  );
  await expect(page.getByTestId('batch-diff-row').filter({ hasText: 'e5' })).toContainText(
    '1 row, once1 row, once2 rows, duplicated',
  );
  // What differs, by real names (the claim first), and Close Compare, as the stream's Compare.
  await expect(page.getByTestId('batch-compare-knobs')).toContainText(
    'claim (the verdict): exactly-once | at-most-once | at-least-once',
  );
  await page.getByTestId('batch-compare-close').click();
  await expect(page.getByTestId('batch-compare')).toHaveCount(0);
});

test('the embedded player takes a batch preset: the scheduler strip, the partitioned table and the verdict at the end, compact', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('./?embed&autoplay=1&layout=compact&preset=clear-rerun-window');
  // The embed's first load (its entry, then the batch player's lazy chunk): a generous wait.
  await expect(page.getByTestId('embed-player')).toHaveAttribute('data-layout', 'compact', {
    timeout: 30_000,
  });
  // clear-rerun-window/clock-overwrite: 3 logical dates, 2024-03-10 … 2024-03-12.
  await expect(page.getByTestId('batch-date')).toHaveCount(3);
  // Autoplay reveals an attempt every 300 ms: 3 scheduled runs, then the re-run of 2024-03-10.
  await page.clock.runFor(1_500);
  await expect(page.getByTestId('batch-attempt')).toHaveCount(4);
  // The re-run read current_date() - 1 = 2024-03-12 and overwrote 2024-03-10 with f1, f2:
  // e1..e3 lost, f1 and f2 twice (once under the wrong partition) — 4 rows, 2 duplicates.
  await expect(page.getByTestId('batch-summary')).toHaveText(
    '4 rows · 2 duplicates · 3 lost · 2 under the wrong partition · observed no guarantee (events lost and applied twice), claimed exactly-once: broken',
  );
  await expect(page.getByTestId('batch-partition').filter({ hasText: '2024-03-10' })).toContainText(
    'f1 ×2, 2nd copy of its id (wrong partition)',
  );
});

/**
 * A batch embed in a 480 px docs column: no row of the target table breaks across two lines — its
 * count marker stays beside its id (airflow-retry-append's "e3 ×2" broke between them, "×2"
 * starting the next line as if it were a row). dbt-incremental-unique-key's and
 * dedupe-ttl-expired's tables broke the same way at 480 px.
 */
test('a batch embed at 480 px: each row of the target table on one line, "e3 ×2" whole', async ({
  page,
}) => {
  await page.setViewportSize({ width: 480, height: 800 });
  for (const id of ['airflow-retry-append', 'dbt-incremental-unique-key', 'dedupe-ttl-expired']) {
    await page.goto(`./?embed&autoplay=1&speed=1000&preset=${id}`);
    // The lazy batch player's first load: a generous wait.
    await expect(page.getByTestId('batch-summary'), id).toBeVisible({ timeout: 30_000 });
    const rows = page.locator('.batch-row');
    // At least one duplicate's marker to keep whole (airflow-retry-append: e1..e10 all ×2).
    await expect(rows.filter({ hasText: '×2' }).first(), id).toBeVisible();
    const broken = await rows.evaluateAll((els) =>
      els
        .filter((e) => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size > 1)
        .map((e) => e.textContent),
    );
    expect(broken, `${id}: rows on two lines`).toEqual([]);
  }
});

/** One event of 2024-03-10, a daily append, retries=1, claimed exactly-once (no stream workload). */
const ONE_EVENT = {
  version: 1,
  name: 'one event',
  claim: 'exactly-once',
  batch: {
    task: { retries: 1 },
    write: { mode: 'append' },
    source: [{ id: 'e1', date: '2024-03-10' }],
  },
} as unknown as ScenarioInput;

test('the batch embed asks its question first (predict=1); the page’s batch atlas runs pairs too', async ({
  page,
}) => {
  await page.goto('./?embed&predict=1&autoplay=1&preset=airflow-retry-append');
  const predict = page.getByTestId('embed-predict');
  // The lazy batch player's first load: a generous wait.
  await expect(predict).toContainText(
    'How many rows does partition 2024-03-10 hold after the retry?',
    { timeout: 30_000 },
  );
  // Autoplay waits for the answer: no attempt shown, no table.
  await expect(page.getByTestId('batch-attempt')).toHaveCount(0);
  await page.getByTestId('predict-input').fill('20 rows');
  await page.getByTestId('predict-lock').click();
  // Locked in: the schedule plays (try 1, then its retry) and the answer is told at its end —
  // S21's append ran twice over e1..e10: 20 rows.
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
  await expect(page.getByTestId('embed-answer')).toHaveAttribute('data-judged', 'right');
  await expect(page.getByTestId('batch-summary')).toContainText('20 rows · 10 duplicates · 0 lost');

  // Pairs in the page's batch atlas, in the atlas worker. By hand (docs/semantics/batch.md#faults):
  // the run's 5 placements are try 1 crashing before, mid (0 rows) or after its write, a clear
  // 1 h after the run, e1 landing 1 ms after try 1 read. Each crash of try 1 is followed by each
  // of its run's 5 (try 2's three crashes, a clear 1 h after that run, the late e1): 15; the
  // clear by its run's 8 (try 1's and the re-run's three crashes each, a second clear, the late
  // e1); the late e1 by 1 new pair (a clear 1 h after its shorter run; its crash pairs were
  // tried already): 24. Broken: try 1 and try 2 both failing before a commit (2 × 2) lose e1; a
  // second commit duplicates it — both tries after their write (1), a clear after any crash of
  // try 1 (3), the clear with any crash (6) or a second clear (1): 11.
  await page.goto(`./#${encodeShare(ONE_EVENT)}`);
  // A shared job opens at its start, its setup shown; the atlas sits under its outcome.
  await expect(page.getByTestId('batch-setup')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  await page.getByTestId('batch-atlas-pairs').check();
  await page.getByRole('button', { name: 'Fault atlas: every pair of faults' }).click();
  await expect(page.getByTestId('batch-atlas-summary')).toHaveText(
    '24 pairs of placements: 9 held, 11 duplicate, 4 lose — 3 of the 4 losses come from pairs with a crash before the write, as many from pairs with a crash mid-write; 10 of the 11 duplicates come from pairs with a clear and re-run.',
    { timeout: 30_000 },
  );
  // The cells' glyphs in words under the map, as the stream atlas's legend (reused): 4 + 11 =
  // 15 broken, so none both; 24 − 15 = 9 held; a batch job has no stuck run to name.
  const legend = page.getByTestId('atlas-legend');
  await expect(legend).toContainText('✕ losses: 4');
  await expect(legend).toContainText('2× duplicates: 11');
  await expect(legend).toContainText('✕2 losses and duplicates: 0');
  await expect(legend).toContainText('✓ held: 9');
  await expect(legend.locator('li')).toHaveCount(4);
});

test('batch Compare: the rows that differ first, each lane’s why, a lost event a struck-through gap; keyboard and axe', async ({
  page,
}) => {
  await page.goto('?preset=clear-rerun-window');
  await page.getByTestId('predict-reveal').click();
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3);
  // Lane 1 (clock window, overwrite) loses e1..e3: the re-run of 2024-03-10 read the clock's
  // day and overwrote their partition (src/views/batch/batchCompare.test.ts derives it by hand).
  // The rows that differ come first, e1 the first of them.
  const e1 = page.getByTestId('batch-diff-row').first();
  await expect(e1).toHaveAttribute('data-event', 'e1');
  await expect(e1).toHaveAttribute('data-line', /^e1: 0 rows \| /);
  const gap = e1.locator('td').first();
  await expect(gap).toHaveAttribute('data-fate', 'lost');
  // Not silently missing: the event's id struck through where its row should be.
  await expect(gap.locator('s')).toHaveText('e1');
  await expect(gap.getByTestId('batch-diff-why')).toContainText(
    'overwrote partition 2024-03-10 with its window read from the clock',
  );
  // Keyboard: the last lane's guarantee, its job field, value and Set, then Close Compare.
  await page.getByRole('combobox', { name: 'Lane 3 guarantee' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Lane 3: job field to set' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('batch-lane-set').last()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('batch-compare-close')).toBeFocused();
  const axe = await new SameOriginAxeBuilder(page)
    .include('[data-testid="batch-compare"]')
    .analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
  ).toEqual([]);
});

test('the batch atlas’s kinds: a filter as the stream’s, undo steps, and carried by the share link', async ({
  page,
  browser,
}) => {
  await page.goto('?preset=airflow-retry-append');
  // The question skipped, then the end: the table, and the atlas under it.
  await page.getByTestId('predict-reveal').click();
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  const lateRows = (p: Page) =>
    p.locator('[data-testid="batch-atlas-kinds"] input[data-kind="late-row"]');
  await lateRows(page).focus();
  await page.keyboard.press('Space');
  await expect(lateRows(page)).not.toBeChecked();
  // S21's 23 single faults less its 10 late rows (src/views/batch/batchAtlas.test.ts): 12
  // crashes of try 2 and 1 clear; after the write and the clear duplicate — 2 of 13.
  await page.getByRole('button', { name: 'Fault atlas: every single fault' }).click();
  const summary = page.getByTestId('batch-atlas-summary');
  await expect(summary).toContainText(
    'The job breaks its exactly-once claim already with its own faults. 13 placements: 11 held, 2 duplicate — the 2 that duplicate do so as the job alone does.',
    { timeout: 30_000 },
  );
  // Undo ticks late rows again: the atlas of all 23.
  await page.locator('h1').first().click();
  await page.keyboard.press('Control+z');
  await expect(lateRows(page)).toBeChecked();
  await expect(summary).toContainText('23 placements: 11 held, 12 duplicate', { timeout: 30_000 });
  await page.keyboard.press('Control+Shift+z');
  await expect(lateRows(page)).not.toBeChecked();
  await expect(summary).toContainText('13 placements: 11 held, 2 duplicate', { timeout: 30_000 });
  // The share link opens with late rows left out and offers the same atlas.
  await page.getByTestId('share-button').click();
  const link = await page.getByTestId('share-url').inputValue();
  expect(link).toMatch(/&a=1\.[A-Za-z0-9_-]+$/);
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(link);
  // The preset's own question comes back with it (the link names the preset as shipped).
  await other.getByTestId('predict-reveal').click();
  await other.getByRole('button', { name: 'Show the end', exact: true }).click();
  await expect(lateRows(other)).not.toBeChecked({ timeout: 30_000 });
  await expect(
    other.locator('[data-testid="batch-atlas-kinds"] input[data-kind="crash"]'),
  ).toBeChecked();
  await expect(other.getByTestId('batch-atlas-offer')).toContainText(
    '(task crashes, clears and re-runs)',
  );
  await context.close();
});

/**
 * Projector mode on a batch job at 1280×720: the status row's controls inside the screen, its
 * hint whole, and, once answered, the story's setup whole beside the schedule — all at 18 px or
 * more. (Before: "Colours: system" at x 1187–1355, the hint cut with an ellipsis, the setup cut
 * mid-sentence under its fade in a box of 4 lines.)
 */
test('projector mode on a batch job: the controls, the hint and the story’s setup whole at 1280×720', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('?preset=clear-rerun-window/clock-overwrite&present=1');
  await expect(page.getByTestId('batch-setup')).toBeVisible();
  /** Whatever of the status row or the story is cut: off screen, ellipsized or scrolled inside. */
  const cut = () =>
    page.evaluate(() => {
      const out: string[] = [];
      const status = document.querySelector('.status-line')!;
      for (const b of status.querySelectorAll('button')) {
        const r = b.getBoundingClientRect();
        if (r.left < 0 || r.right > 1281) out.push(`"${b.textContent}" at x ${r.left}–${r.right}`);
      }
      const hint = status.querySelector('.status-body > *')!;
      if (hint.scrollWidth > hint.clientWidth + 1)
        out.push(`hint cut: ${hint.scrollWidth} > ${hint.clientWidth}`);
      const setup = document.querySelector('[data-testid="story-setup"]')!;
      const s = setup.getBoundingClientRect();
      if (setup.scrollHeight > setup.clientHeight + 1)
        out.push(`setup scrolls: ${setup.scrollHeight} > ${setup.clientHeight}`);
      if (s.top < 0 || s.bottom > 721) out.push(`setup at y ${s.top}–${s.bottom}`);
      for (const el of [hint, setup, ...status.querySelectorAll('button')]) {
        const px = parseFloat(getComputedStyle(el).fontSize);
        if (px < 18) out.push(`${el.textContent?.slice(0, 20)} at ${px} px`);
      }
      if (document.documentElement.scrollWidth > 1280)
        out.push(`page ${document.documentElement.scrollWidth} px wide`);
      return out;
    });
  expect(await cut(), 'asked').toEqual([]);
  // Answered (skipped): the story beside the schedule, its setup still whole.
  await page.getByTestId('predict-reveal').click();
  await expect(page.getByText('You skipped the prediction.')).toBeVisible();
  expect(await cut(), 'answered').toEqual([]);
});

/**
 * A job of 4 logical dates in projector mode, its story a column beside the schedule (816 px left
 * at 1280×720): every date whole, the strip not scrolled sideways (each date took 220 px at the
 * least, and 2024-03-13's attempts were cut at the story's edge).
 */
test('projector mode: a job of 4 dates beside the story column, every date whole at 1280×720', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('?preset=backfill-beside-production&present=1');
  await page.getByTestId('predict-reveal').click();
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  await expect(page.getByTestId('batch-source')).toHaveCount(4);
  const strip = await page.evaluate(() => {
    const s = document.querySelector('.batch-strip')!;
    const story = document.querySelector('[data-testid="story-setup"]')!.getBoundingClientRect();
    const dates = [...s.querySelectorAll('.batch-date')].map(
      (d) => d.getBoundingClientRect().right,
    );
    return { scroll: s.scrollWidth - s.clientWidth, right: Math.max(...dates), story: story.left };
  });
  expect(strip.scroll).toBe(0);
  expect(strip.right).toBeLessThanOrEqual(strip.story);
});

/**
 * The page's one keyboard map on a batch job: Space plays the schedule as it plays a stream's run
 * (README), from the page's body once the answer is locked in; Escape closes an attempt's actions
 * and gives the focus back to the attempt (before: Space did nothing, Escape left them open).
 */
test('a batch job by the keyboard: Space plays the schedule, Escape closes an attempt’s actions', async ({
  page,
}) => {
  await page.goto('?preset=airflow-retry-append/append');
  await page.getByTestId('predict-input').fill('20 rows');
  await page.getByTestId('predict-lock').click();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  // append, retries=1: try 1 crashes after writing, try 2 writes again — 2 attempts, 20 rows.
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
  await expect(page.getByTestId('batch-summary')).toContainText('20 rows · 10 duplicates · 0 lost');
  const attempt = page.getByRole('button', { name: /^try 2 of 2024-03-10/ });
  await attempt.focus();
  await page.keyboard.press('Enter');
  const actions = page.getByRole('menuitem');
  await expect(actions).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(actions).toHaveCount(0);
  await expect(attempt).toBeFocused();
  await expect(attempt).toHaveAttribute('aria-expanded', 'false');
});

test('batch Compare: a lane sets a job field (a longer dedupe TTL), as sim --compare batch.dedupe.ttlMs=… does', async ({
  page,
}) => {
  // dedupe-ttl-expired/ttl-1-day (src/scenarios/library/batchDedupe.ts): the claims of e1..e10
  // expire a day after 03-11 00:01, the clear at 03-13 00:00 writes all ten again: 20 rows. With
  // EX 604800 (7 days) the re-run finds every claim and skips all ten: 10 rows, each once.
  await page.goto('?preset=dedupe-ttl-expired/ttl-1-day');
  await page.getByTestId('predict-reveal').click();
  await page.getByTestId('compare-toggle').click();
  await page.getByRole('combobox', { name: 'Lane 2 guarantee' }).selectOption('');
  await page
    .getByRole('combobox', { name: 'Lane 2: job field to set' })
    .selectOption('batch.dedupe.ttlMs');
  await page.getByRole('textbox', { name: 'Lane 2: its value' }).fill('604800000');
  await page.getByRole('textbox', { name: 'Lane 2: its value' }).press('Enter');
  const lane2 = page.getByTestId('batch-lane').nth(1);
  await expect(lane2.getByTestId('batch-lane-summary')).toContainText(
    '10 rows · 0 duplicates · 0 lost · 0 under the wrong partition · observed exactly-once · held',
  );
  await expect(page.getByRole('list', { name: 'Lane 2: job fields set otherwise' })).toContainText(
    'batch.dedupe.ttlMs = 604800000',
  );
  await expect(page.getByTestId('batch-compare-knobs')).toContainText(
    'batch.dedupe.ttlMs (batch job): 86400000 | 604800000',
  );
  // One undo step: the lane as it was, without the field (the keys off the text box, which
  // has an undo of its own).
  await page.getByTestId('batch-compare-summary').click();
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('list', { name: 'Lane 2: job fields set otherwise' })).toHaveCount(0);
});

// The dedupe key's content columns beside the schedule: each checkbox sat against the previous
// column's name, with no room between the labels ("date☐ hour☑ time"), so which box ticks which
// column was a guess. Each box is now nearer its own name than the name before it.
test('the dedupe key’s column checkboxes: each box beside its own column, apart from the one before', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('?preset=content-key-false-merge/content-key-store');
  const group = page.getByRole('group', { name: /content columns/ });
  await expect(group).toBeVisible();
  const labels = group.locator('label');
  const n = await labels.count();
  expect(n).toBe(6);
  for (let i = 1; i < n; i++) {
    const prev = (await labels.nth(i - 1).boundingBox())!;
    const box = (await labels.nth(i).locator('input').boundingBox())!;
    // The gap after the previous label, against the box's gap to its own name (0.35em ≈ 5 px).
    expect(box.x - (prev.x + prev.width)).toBeGreaterThanOrEqual(10);
  }
});

// A teacher's report: closing Compare on a batch job showed its schedule from the start again
// (the batch view was mounted anew), where a stream's run keeps its cursor.
test('closing Compare brings the batch job back where it stood: its end and its outcome, or part-way', async ({
  page,
}) => {
  await page.goto('?preset=airflow-retry-append');
  await page.getByTestId('predict-reveal').click();
  await page.getByRole('button', { name: 'Show the end', exact: true }).click();
  const summary = page.getByTestId('batch-summary');
  await expect(summary).toContainText('20 rows · 10 duplicates · 0 lost');
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3, { timeout: 30_000 });
  await page.getByTestId('batch-compare-close').click();
  await expect(page.getByTestId('batch-compare')).toHaveCount(0);
  // At its end, as left: both attempts, the table and the verdict; no setup.
  await expect(summary).toContainText('20 rows · 10 duplicates · 0 lost');
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
  await expect(page.getByTestId('batch-setup')).toHaveCount(0);
  // Opened again and undone (Ctrl+Z): the same.
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3, { timeout: 30_000 });
  await page.locator('h1').first().click();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('batch-compare')).toHaveCount(0);
  await expect(summary).toContainText('20 rows · 10 duplicates · 0 lost');
  await expect(page.getByTestId('batch-setup')).toHaveCount(0);

  // Part-way: played, then paused (Space) — however far it got, that is where it comes back.
  await page.getByRole('button', { name: 'Play the schedule', exact: true }).click();
  // Its first attempt shown (on a loaded machine the second may follow before a look sees one).
  await expect.poll(() => page.getByTestId('batch-attempt').count()).toBeGreaterThan(0);
  // (Off the Play button, whose own Space would press it again.)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  const shown = await page.getByTestId('batch-attempt').count();
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('batch-lane')).toHaveCount(3, { timeout: 30_000 });
  await page.getByTestId('batch-compare-close').click();
  await expect(page.getByTestId('batch-attempt')).toHaveCount(shown);
  await expect(page.getByTestId('batch-setup')).toHaveCount(shown < 2 ? 1 : 0);
});
