/**
 * The fault atlas's choice and Compare's lanes are page state as the scenario is (issue #23):
 * Back and Forward bring them back with the page they were set on, a reload restores them from
 * the autosaved workspace, and a stored value this build cannot read is refused in a notice
 * naming its field — the work still opens (src/views/io/keptPageState.ts: the share link's own
 * `a=` and `c=` values, one codec).
 */
import type { Page } from '@playwright/test';
import { atlasTestIds as ids } from '../src/ui/atlas/atlasTestIds';
import { compareTestIds } from '../src/ui/compare/compareTestIds';
import { WORKSPACE_KEY } from '../src/platform/storage';
import { expect, test, testIds, type Dashboard } from './fixtures';

test.use({ viewport: { width: 1280, height: 720 } });
// Three presets opened and a reload on a shared 2-core machine: generous.
test.describe.configure({ timeout: 90_000 });

const kind = (p: Page, k: string) =>
  p.locator(`[data-testid="${ids.kinds}"] input[data-kind="${k}"]`);
const lanes = (p: Page) => p.getByTestId(compareTestIds.lane);

/**
 * The page opened at `address` and its run settled: each test's one first load (the tests take
 * `unopenedDash`, whose page is not opened at `/` before — a load each test made and threw away).
 */
async function open(dash: Dashboard, address: string): Promise<void> {
  await dash.page.goto(address);
  await dash.settled();
}

/** `at-least-once` opened with crashes left out of the atlas and Compare on (three lanes). */
async function openWithoutCrashesComparing(dash: Dashboard): Promise<void> {
  await open(dash, '?preset=at-least-once');
  await kind(dash.page, 'crash').uncheck();
  await dash.byId(compareTestIds.toggle).click();
  await expect(lanes(dash.page)).toHaveCount(3);
}

test('Back and Forward keep the kinds ticked and the lanes compared; a reload restores them', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  // Crashes left out of the atlas, and Compare open (the other two guarantees: three lanes).
  await openWithoutCrashesComparing(dash);
  // Another preset: a page of its own, in its own (default) state.
  await dash.pickPreset('at-most-once');
  await expect(kind(page, 'crash')).toBeChecked();
  await expect(lanes(page)).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(/[?&]preset=at-least-once/);
  await expect(kind(page, 'crash')).not.toBeChecked();
  await expect(kind(page, 'zombie')).toBeChecked();
  await expect(lanes(page)).toHaveCount(3);
  await page.goForward();
  await expect(page).toHaveURL(/[?&]preset=at-most-once/);
  await expect(kind(page, 'crash')).toBeChecked();
  await expect(lanes(page)).toHaveCount(0);
  await page.goBack();
  await expect(lanes(page)).toHaveCount(3);
  // A reload of the page as left: the autosaved workspace holds its choice and lanes.
  await page.reload();
  await dash.settled();
  await expect(kind(page, 'crash')).not.toBeChecked();
  await expect(lanes(page)).toHaveCount(3);
  // Nothing was replaced, so nothing says so: the line read "Opened the preset from the link —
  // Undo (Ctrl+Z) brings back your saved workspace" over the very workspace it brought back.
  await expect(page.getByText('brings back your saved workspace')).toHaveCount(0);
});

test('a saved atlas choice this build cannot read is refused naming its field; the workspace opens', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await open(dash, '?preset=at-least-once');
  // An edit (the seed), so the workspace, not the preset, is what a reload opens.
  await dash.byId(testIds.seedInput).fill('7');
  await dash.byId(testIds.seedInput).press('Enter');
  await kind(page, 'crash').uncheck();
  // Edited, the address names no preset: a reload opens the autosaved workspace, as left.
  await expect(page).not.toHaveURL(/[?&]preset=/);
  await page.reload();
  await dash.settled();
  await expect(kind(page, 'crash')).not.toBeChecked();
  // A kind another build wrote.
  await page.evaluate((k) => {
    const saved = JSON.parse(localStorage.getItem(k)!) as { state: Record<string, unknown> };
    saved.state.atlas = `1.${btoa('{"kinds":["meteor"]}').replace(/=+$/, '')}`;
    localStorage.setItem(k, JSON.stringify(saved));
  }, WORKSPACE_KEY);
  await page.reload();
  await dash.settled();
  await expect(
    page.getByText(/saved workspace, fault atlas \(a=\): kinds\.0: expected .+, got "meteor"/),
  ).toBeVisible();
  // The work is kept: the edited seed, every kind ticked again.
  expect(await dash.api('scenario')).toMatchObject({ seed: 7 });
  await expect(kind(page, 'crash')).toBeChecked();
});

/** A page-state value as the page writes it (`a=`, `c=`): `1.<base64url(UTF-8 JSON)>`. */
const value = (data: unknown) => `1.${Buffer.from(JSON.stringify(data)).toString('base64url')}`;

test('Back to an entry without stored state opens its address’s a= and c=; a bad a= is refused naming its field', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await open(dash, '?preset=at-most-once');
  // An entry as an older build wrote it (or a bookmarked address): its address, no state.
  const pushBare = (url: string) => page.evaluate((u) => history.pushState(null, '', u), url);
  const lanes2 = { lanes: [{ guarantee: 'at-most-once' }, { guarantee: 'exactly-once' }] };
  await pushBare(`?preset=at-least-once&a=${value({ kinds: ['zombie'] })}&c=${value(lanes2)}`);
  await dash.pickPreset('effectively-once');
  await page.goBack();
  await expect(page).toHaveURL(/[?&]preset=at-least-once/);
  await expect(dash.byId(testIds.scenarioPicker)).toHaveValue('at-least-once/default');
  await expect(kind(page, 'crash')).not.toBeChecked();
  await expect(kind(page, 'zombie')).toBeChecked();
  await expect(lanes(page)).toHaveCount(3);
  // A kind this build does not know, beside good lanes: the lanes open, the kinds are refused.
  await pushBare(`?preset=at-least-once&a=${value({ kinds: ['meteor'] })}&c=${value(lanes2)}`);
  await dash.pickPreset('effectively-once');
  await expect(lanes(page)).toHaveCount(0);
  await page.goBack();
  await expect(
    page.getByText(/browser history, fault atlas \(a=\): kinds\.0: expected .+, got "meteor"/),
  ).toBeVisible();
  await expect(kind(page, 'crash')).toBeChecked();
  await expect(lanes(page)).toHaveCount(3);
});

test('Undo back to the workspace a link replaced brings back its atlas kinds and lanes', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await openWithoutCrashesComparing(dash);
  // A link opened over it (a page load): the reader's workspace is one Undo away.
  await open(dash, '?preset=at-most-once');
  await expect(dash.byId(testIds.runStatus)).toContainText('Undo (Ctrl+Z) brings back');
  await expect(kind(page, 'crash')).toBeChecked();
  await expect(lanes(page)).toHaveCount(0);
  await dash.byId(testIds.undo).click();
  await dash.settled();
  // As it was left: its preset (the address says so again), its kinds, its lanes.
  await expect(dash.byId(testIds.scenarioPicker)).toHaveValue('at-least-once/default');
  await expect(page).toHaveURL(/[?&]preset=at-least-once/);
  await expect(kind(page, 'crash')).not.toBeChecked();
  await expect(lanes(page)).toHaveCount(3);
});

test('a typed ?preset=…&a= applies once: changed, the address drops it, and a reload keeps the reader’s kinds', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await open(dash, `?preset=at-least-once&a=${value({ kinds: ['zombie'] })}`);
  await expect(kind(page, 'crash')).not.toBeChecked();
  await expect(kind(page, 'zombie')).toBeChecked();
  await kind(page, 'crash').check();
  // The address no longer says a= (it would reapply the link's kinds over the reader's).
  await expect(page).toHaveURL(/[?&]preset=at-least-once/);
  await expect(page).not.toHaveURL(/[?&]a=/);
  await page.reload();
  await dash.settled();
  await expect(kind(page, 'crash')).toBeChecked();
  await expect(kind(page, 'zombie')).toBeChecked();
  await expect(kind(page, 'rebalance')).not.toBeChecked();
  // Another preset's address does not carry it either.
  await dash.pickPreset('at-most-once');
  await expect(page).not.toHaveURL(/[?&]a=/);
});
