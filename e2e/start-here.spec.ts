/**
 * "Start here →" is the first screen's (issue 24, "First screen"): it opens the library's first
 * story, and once a story is open from the page it gives way, with the tagline's line
 * (src/ui/present/FirstLine.tsx). It stayed in the bar beside an open story, asking to start
 * again what was already started.
 */
import { PRESET_CATALOG } from '../src/scenarios/parsed/catalog';
import { firstStoryRef } from '../src/views/library/libraryListing';
import { type Dashboard, expect, test, testIds } from './fixtures';

/** The page at `address`, 1280×720, its first run ready. */
async function openAt(dash: Dashboard, address: string): Promise<void> {
  await dash.page.setViewportSize({ width: 1280, height: 720 });
  await dash.goto(address);
}

for (const present of [false, true])
  test(`${present ? 'projector mode: ' : ''}"Start here" opens the first story, then gives way`, async ({
    unopenedDash: dash,
  }) => {
    await openAt(dash, present ? './?present=1' : './');
    const start = dash.byId(testIds.startHere);
    await expect(start).toBeVisible();
    await start.click();
    const [id] = firstStoryRef(PRESET_CATALOG).split('/');
    await expect(dash.byId(testIds.storyPanel)).toBeVisible();
    await expect(dash.byId(testIds.scenarioPicker)).toHaveValue(new RegExp(`^${id}/`));
    await expect(start).toHaveCount(0);
    await expect(dash.byId(testIds.tagline)).toHaveCount(0);
    expect(dash.errors).toEqual([]);
  });

// However the story was opened: a page opened on `?preset=` has a story open from its first
// paint, so the line is not there to give way (a tester saw "Start here →" beside it, both modes).
for (const present of [false, true])
  test(`${present ? 'projector mode: ' : ''}a page opened on ?preset= has no "Start here"`, async ({
    unopenedDash: dash,
  }) => {
    await openAt(dash, `./?preset=at-most-once/default${present ? '&present=1' : ''}`);
    await expect(dash.byId(testIds.storyPanel)).toBeVisible();
    await expect(dash.byId(testIds.startHere)).toHaveCount(0);
    await expect(dash.byId(testIds.tagline)).toHaveCount(0);
    expect(dash.errors).toEqual([]);
  });

// The line follows the address through the session history (src/platform/address.ts): Back to the
// bare address the page opened on is its first screen again, Forward to the story's entry is a
// story open. It was read once: Back kept it away, and a story reached by Forward kept it.
for (const present of [false, true])
  test(`${present ? 'projector mode: ' : ''}Back to the bare address shows "Start here" again; Forward to the story hides it`, async ({
    unopenedDash: dash,
  }) => {
    const { page } = dash;
    await openAt(dash, present ? './?present=1' : './');
    const start = dash.byId(testIds.startHere);
    await start.click();
    const [id] = firstStoryRef(PRESET_CATALOG).split('/');
    await expect(dash.byId(testIds.scenarioPicker)).toHaveValue(new RegExp(`^${id}/`));
    await expect(page).toHaveURL(new RegExp(`[?&]preset=${id}/`));
    await expect(start).toHaveCount(0);
    await page.goBack();
    await expect(dash.byId(testIds.scenarioPicker)).not.toHaveValue(new RegExp(`^${id}/`));
    await expect(start).toBeVisible();
    await expect(dash.byId(testIds.tagline)).toBeVisible();
    await page.goForward();
    await expect(dash.byId(testIds.scenarioPicker)).toHaveValue(new RegExp(`^${id}/`));
    await expect(start).toHaveCount(0);
    await expect(dash.byId(testIds.tagline)).toHaveCount(0);
    // And Back again: the first screen once more.
    await page.goBack();
    await expect(start).toBeVisible();
    expect(dash.errors).toEqual([]);
  });
