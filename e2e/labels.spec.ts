/**
 * What the page says, checked where a newcomer read it wrong: one numbering of engine events and
 * rows in every view, faults named by their id, tick labels that never overlap, a speed that
 * says the truth to a screen reader, help that is not only in a hover tooltip, and words that
 * match the run.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';
import { SameOriginAxeBuilder } from './support/axe';

/** The boxes of the timeline's tick labels, left to right, in CSS px. */
async function tickBoxes(page: Page) {
  return page
    .getByTestId(testIds.timelineScale)
    .locator('.tick')
    .evaluateAll((els) =>
      els
        .map((e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent ?? '', left: r.left, right: r.right };
        })
        .sort((a, b) => a.left - b.left),
    );
}

test.describe('timeline tick labels never overlap', () => {
  for (const [what, viewport, scale] of [
    // 1280×720 at 150 % zoom: 853 CSS px wide, each drawn at 1.5 device pixels.
    ['1280×720 at 150 % zoom', { width: 853, height: 480 }, 1.5],
    ['400 px wide', { width: 400, height: 720 }, 1],
    ['1280×720', { width: 1280, height: 720 }, 1],
  ] as const) {
    test.describe(what, () => {
      test.use({ viewport, deviceScaleFactor: scale });
      test('on the zombie preset, with A+ too', async ({ dash }) => {
        await dash.pickPreset('zombie-consumer/plain-insert');
        for (let larger = 0; larger < 3; larger++) {
          // Re-laid out once the new text size is measured: checked until it holds.
          await expect(async () => {
            const boxes = await tickBoxes(dash.page);
            // The start and the end are always labelled.
            expect(boxes[0]!.text).toBe('0 ms');
            expect(boxes.at(-1)!.text).toBe('1 min 01.039 s');
            for (let i = 1; i < boxes.length; i++)
              expect(
                boxes[i]!.left - boxes[i - 1]!.right,
                `${boxes[i - 1]!.text} / ${boxes[i]!.text}`,
              ).toBeGreaterThanOrEqual(4);
          }).toPass({ timeout: 5000 });
          await dash.byId(testIds.fontLarger).click();
        }
      });
    });
  }
});

test("the speed slider's value says how long a second of the run plays", async ({ dash }) => {
  const speed = dash.byId(testIds.speed);
  // The default preset opens at its pace (src/views/run/pace.ts: its story in about 30 s), ×0.013:
  // 1,000 / 0.013 ms ≈ 77 s.
  await expect(speed).toHaveAttribute(
    'aria-valuetext',
    '×0.013: one second of the run plays in 1.3 min',
  );
  // The slider is logarithmic, 0.001…1000 over 0…1000: 550 is 10^(−3 + 3.3) ≈ ×2 (1.995: a
  // second in 501 ms), 667 is 10^1.002 ≈ ×10 (99.5 ms).
  await speed.fill('550');
  await expect(speed).toHaveAttribute(
    'aria-valuetext',
    '×2: one second of the run plays in 500 ms',
  );
  await speed.fill('667');
  await expect(speed).toHaveAttribute(
    'aria-valuetext',
    '×10: one second of the run plays in 100 ms',
  );
});

test("a component's fault menu: Home and End go to its first and last item", async ({ dash }) => {
  const { page } = dash;
  await dash.component('consumer-0').locator('.component-head').first().focus();
  await page.keyboard.press('Enter');
  const items = dash.byId(testIds.faultMenu).getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.first()).toBeFocused();
  // Not the page's End (to the end of the run): the clock still says event 0.
  await expect(dash.byId(testIds.clock)).toContainText('event 0 /');
});

test.describe('help that was only in a hover tooltip', () => {
  const nothingRandom =
    'Nothing in this scenario is random (no random fault, no network jitter, no random workload): every seed gives this same run.';

  test("the seed: what it draws is the field's description and its ⓘ shows it", async ({
    dash,
  }) => {
    const { page } = dash;
    const seed = dash.byId(testIds.seedInput);
    await expect(seed).toHaveAccessibleDescription(nothingRandom);
    const note = dash.byId(testIds.seedNote);
    await expect(note).toBeHidden();
    // From the field, Tab reaches the ⓘ; Enter shows the note, Escape hides it again.
    await seed.focus();
    await page.keyboard.press('Tab');
    const about = dash.byId(testIds.seedAbout);
    await expect(about).toBeFocused();
    await expect(about).toHaveAccessibleName('About the seed');
    await page.keyboard.press('Enter');
    await expect(note).toBeVisible();
    await expect(note).toContainText(nothingRandom);
    await expect(note).toContainText('The seed drives every random choice of the run');
    await page.keyboard.press('Escape');
    await expect(note).toBeHidden();
    await expect(about).toBeFocused();
  });

  test('"✎ own settings": which knobs differ is its description and shows on Enter', async ({
    dash,
  }) => {
    const { page } = dash;
    // Claims exactly-once with a plain INSERT sink: one knob off the exactly-once recipe.
    await dash.pickPreset('flink-checkpoint-replay/plain-sink');
    const badge = dash.byId(testIds.guaranteeLabel);
    const detail =
      '1 knob differs from the exactly-once recipe here (statement). The verdict checks exactly-once all the same; choose Exactly-once again to apply its recipe (What this sets lists it).';
    await expect(badge).toHaveText('✎ own settings');
    await expect(badge).toHaveAccessibleDescription(detail);
    await badge.focus();
    await page.keyboard.press('Enter');
    const note = dash.byId(testIds.guaranteeNote);
    await expect(note).toBeVisible();
    await expect(note).toHaveText(detail);
    // Within the window, even at its right edge.
    const box = (await note.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    // The top bar with the note open: no serious or critical axe violation.
    const axe = await new SameOriginAxeBuilder(page).include('header.topbar').analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
    ).toEqual([]);
  });
});

test('a failure mark only beside a failure: zero lost and zero duplicates are neutral', async ({
  dash,
}) => {
  // effectively-once (foundation.ts): 20 rows, 0 duplicates, 0 lost.
  await dash.pickPreset('effectively-once');
  await dash.showOutcome();
  await dash.toEnd();
  const missing = dash.byId(testIds.counterMissing);
  const duplicates = dash.byId(testIds.counterDuplicates);
  await expect(missing.locator('.value')).toHaveText('○ 0');
  await expect(missing).toContainText('lost events');
  await expect(duplicates.locator('.value')).toHaveText('○ 0');
  await expect(duplicates.locator('.value svg')).toHaveCount(0);
  // at-most-once: 2 lost at the end, marked as a failure.
  await dash.pickPreset('at-most-once');
  await dash.showOutcome();
  await dash.toEnd();
  await expect(missing.locator('.value')).toHaveText('✕ 2');
});

test("the import box's example link is a link of today's format, #s=2.", async ({ dash }) => {
  await dash.byId(testIds.importButton).click();
  await expect(dash.byId(testIds.importPaste)).toHaveAttribute(
    'placeholder',
    '{ "version": 1, … }   or   https://…#s=2.…',
  );
});

test('a library scenario has one name: the picker, the exported file and its name field', async ({
  dash,
}) => {
  const { page } = dash;
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  const name = 'A lost acknowledgement, retried — idempotence off';
  await expect(dash.byId(testIds.scenarioPicker).locator('option:checked')).toHaveText(name);
  await dash.byId(testIds.exportButton).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`[data-testid="${testIds.exportItem}"][data-format="scenario-json"]`).click(),
  ]);
  expect(download.suggestedFilename()).toBe(
    'a-lost-acknowledgement-retried-idempotence-off.scenario.json',
  );
  const fs = await import('node:fs');
  const json = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as { name: string };
  expect(json.name).toBe(name);
});

test('one numbering of engine events: the status line, the clock and the Event trace agree; the fault is named by its id', async ({
  dash,
}) => {
  const { page } = dash;
  // lost-ack-retry/idempotence-off: one fault, id "lost ack", drops e3's acknowledgement.
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  await dash.showOutcome();
  const status = dash.byId(testIds.currentEvent);
  await dash.timeline().focus();
  let text = '';
  for (let k = 0; k < 300 && !text.includes('fires'); k++) {
    await page.keyboard.press('ArrowRight');
    text = (await status.textContent()) ?? '';
  }
  const m = /^event (\d+) at ([^:]+): (.*)$/.exec(text);
  expect(m, text).not.toBeNull();
  const [, n, , what] = m!;
  expect(what).toBe('fault "lost ack" fires');
  // The clock counts the same events: "event N / total".
  await expect(dash.byId(testIds.clock)).toContainText(`event ${n} / `);
  expect((await dash.api('cursor')).idx).toBe(Number(n));

  // The Event trace tab (e3's explanation cites the fault) lists it under the same number;
  // choosing that line puts the cursor right after it: the status line says it again.
  await page.getByRole('tab', { name: 'Event trace' }).click();
  await dash.byId(testIds.explanation).first().click();
  const row = dash.byId(testIds.eventTrace).locator('tr', { hasText: 'fault "lost ack" fires' });
  await expect(row.locator('td').first()).toHaveText(n!);
  await dash.toStart();
  await row.getByRole('button').click();
  await expect(status).toHaveText(text);
});

test("rows are numbered from 1 in the sink table, its CSV export and the event's diagram alike", async ({
  dash,
}) => {
  const { page } = dash;
  // lost-ack-retry/idempotence-off: the table gets e1, e2, e3, e3 again (the retry), e4…e10 —
  // e3's rows are the table's 3rd and 4th.
  await dash.pickPreset('lost-ack-retry/idempotence-off');
  await dash.showOutcome();
  await dash.toEnd();
  const e3 = dash.byId(testIds.sinkRow).and(page.locator('[data-event="e3"]'));
  await expect(e3).toHaveCount(2);
  await expect(e3.nth(0).locator('[role="cell"]').first()).toHaveText('3');
  await expect(e3.nth(1).locator('[role="cell"]').first()).toHaveText('4');
  // The table's CSV export numbers them alike: its `row` column is the table's `#`.
  await dash.byId(testIds.exportButton).click();
  const [d] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`[data-testid="${testIds.exportItem}"][data-format="table-csv"]`).click(),
  ]);
  const csv = (await readFile((await d.path())!, 'utf8')).split('\r\n');
  expect(csv[0]).toBe(
    'row,business_id,key,amount,copy,live,source_topic,source_partition,source_offset,inserted_at_ms',
  );
  expect(csv.filter((l) => l.split(',')[1] === 'e3').map((l) => l.split(',').slice(0, 2))).toEqual([
    ['3', 'e3'],
    ['4', 'e3'],
  ]);
  expect(csv[1]!.split(',')[0]).toBe('1');
  // Selecting e3 (a click on its row) gives the event's diagram.
  await e3.nth(0).click();
  await dash.byId(testIds.diagramsToggle).click();
  await page.locator(`[data-testid="${testIds.diagramTab}"][data-tab="event"]`).click();
  await expect(dash.byId(testIds.diagramStatus)).toHaveAttribute('data-state', 'ok', {
    timeout: 20_000,
  });
  const text = (await dash.byId(testIds.diagramText).textContent()) ?? '';
  expect(text).toContain('inserted row 3');
  expect(text).toContain('inserted row 4');
  expect(text).not.toMatch(/inserted row 2\b/);
});
