/**
 * The fault atlas shows its results as they come (issue 23): while the workers run, each finished
 * chunk redraws the heat map of the placements run so far — cells not run yet hatched with a "?"
 * and counted in the legend, a "So far: …" summary — and the final map takes its place when the
 * last one is in. Cancel mid-way takes the map so far away and leaves the page as it was; the
 * state so far is axe clean.
 *
 * flink-checkpoint-replay/2pc-read-committed's atlas is 2–5 s in the page (docs/benchmarks.md);
 * retry-storm's (21,172 runs, about a minute) holds its state so far long enough for axe.
 */
import type { Page } from '@playwright/test';
import { atlasTestIds as ids } from '../src/ui/atlas/atlasTestIds';
import type { Dashboard } from './fixtures';
import { expect, test, testIds } from './fixtures';
import { seriousViolations } from './support/axe';
import { shot } from './support/shots';

test.use({ viewport: { width: 1280, height: 720 } });

/** Answer the open preset's question, if it asks one, and play the run to its end. */
async function answerQuestion(dash: Dashboard): Promise<void> {
  if ((await dash.byId(testIds.play).getAttribute('aria-disabled')) === 'true') {
    await dash.byId(testIds.predictInput).fill('some rows twice');
    await dash.byId(testIds.predictLock).click();
  }
  await dash.toEnd();
  await expect(dash.page.locator(`[data-testid="${testIds.outcomeHidden}"]`)).toHaveCount(0);
}

/** The panel at one change: the summary so far (and its total) or the final one, cells not run. */
interface Seen {
  soFar: boolean;
  total: string | null;
  notRun: number;
  final: boolean;
}

/**
 * What the panel showed, each time it changed, from now on: the summary so far or the final one,
 * and how many cells were not run yet.
 */
async function recordPanel(page: Page): Promise<void> {
  await page.evaluate((id) => {
    const seen: Seen[] = [];
    (window as unknown as { atlasSeen: typeof seen }).atlasSeen = seen;
    const panel = document.querySelector(`[data-testid="${id.panel}"]`)!;
    new MutationObserver(() =>
      seen.push({
        soFar: panel.querySelector(`[data-testid="${id.soFar}"]`) !== null,
        total:
          panel.querySelector(`[data-testid="${id.soFar}"]`)?.getAttribute('data-total') ?? null,
        notRun: panel.querySelectorAll(`[data-testid="${id.cell}"][data-outcome="not-run"]`).length,
        final: panel.querySelector(`[data-testid="${id.summary}"]`) !== null,
      }),
    ).observe(panel, { subtree: true, childList: true, attributes: true });
  }, ids);
}

/** axe's serious and critical violations inside the atlas panel. */
const panelViolations = (page: Page) => seriousViolations(page, `[data-testid="${ids.panel}"]`);

test('2pc-read-committed: the map so far with cells not run yet, then the final map', async ({
  dash,
}) => {
  // A Flink preset's atlas (thousands of runs) on a shared 2-core machine: generous.
  test.setTimeout(180_000);
  const { page } = dash;
  await dash.pickPreset('flink-checkpoint-replay/2pc-read-committed');
  await answerQuestion(dash);
  await recordPanel(page);
  await dash.byId(ids.explore).click();
  const soFar = dash.byId(ids.soFar);
  await expect(soFar).toHaveText(/^So far: [\d,]+ of [\d,]+ placements run: /, {
    timeout: 120_000,
  });
  await dash.byId(ids.grid).scrollIntoViewIfNeeded();
  await shot(page, 'atlas-so-far-2pc');
  await expect(dash.byId(ids.summary)).toBeVisible({ timeout: 150_000 });
  await expect(soFar).toHaveCount(0);
  await expect(dash.byId(ids.cell).and(page.locator('[data-outcome="not-run"]'))).toHaveCount(0);
  await expect(dash.byId(ids.legend).locator('[data-outcome="not-run"]')).toHaveCount(0);
  const seen = await page.evaluate(() => (window as unknown as { atlasSeen: Seen[] }).atlasSeen);
  const partial = seen.findIndex((s) => s.soFar && s.notRun > 0);
  const final = seen.findIndex((s) => s.final);
  expect(partial).toBeGreaterThanOrEqual(0);
  expect(partial).toBeLessThan(final);
  // Never both at once; the final atlas ran as many trials as the map so far counted.
  expect(seen.some((s) => s.soFar && s.final)).toBe(false);
  await expect(dash.byId(ids.speed)).toHaveAttribute('data-runs', seen[partial]!.total!);
  expect(dash.errors).toEqual([]);
});

test('retry-storm: the state so far is axe clean; Cancel mid-way takes it away, the page as it was', async ({
  unopenedDash: dash,
}) => {
  // A 1,000-event preset and its atlas's first chunks on a shared machine, then axe: generous.
  test.setTimeout(180_000);
  const { page } = dash;
  await page.goto('?preset=retry-storm');
  await dash.settled();
  await answerQuestion(dash);
  const before = await page.evaluate(() => JSON.stringify(window.__deliveryLab!.scenario()));
  const markers = await dash.byId(testIds.faultMarker).count();
  await dash.byId(ids.explore).click();
  const soFar = dash.byId(ids.soFar);
  await expect(soFar).toHaveText(/So far: [\d,]+ of 21,172 placements run: /, {
    timeout: 120_000,
  });
  await expect(dash.byId(ids.progress)).toBeVisible();
  const notRun = Number(
    await dash.byId(ids.legend).locator('[data-outcome="not-run"]').getAttribute('data-count'),
  );
  expect(notRun).toBeGreaterThan(0);
  expect(notRun).toBeLessThan(21_172);
  await expect(
    dash.byId(ids.cell).and(page.locator('[data-outcome="not-run"]')).first(),
  ).toBeVisible();
  await dash.byId(ids.grid).scrollIntoViewIfNeeded();
  await shot(page, 'atlas-so-far');
  expect(await panelViolations(page)).toEqual([]);
  // Still running (a minute's atlas): Cancel.
  await expect(dash.byId(ids.cancel)).toBeVisible();
  await dash.byId(ids.cancel).click();
  await expect(dash.byId(ids.progress)).toHaveCount(0);
  await expect(soFar).toHaveCount(0);
  await expect(dash.byId(ids.grid)).toHaveCount(0);
  await expect(dash.byId(ids.legend)).toHaveCount(0);
  await expect(dash.byId(ids.cancelled)).toHaveText(
    /^Cancelled after [\d,]+ of 21,172 runs; nothing was changed\.$/,
  );
  await expect(dash.byId(ids.explore)).toBeFocused();
  expect(await page.evaluate(() => JSON.stringify(window.__deliveryLab!.scenario()))).toBe(before);
  await expect(dash.byId(testIds.faultMarker)).toHaveCount(markers);
  expect(dash.errors).toEqual([]);
});
