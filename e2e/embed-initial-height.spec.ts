/**
 * The Embed dialog's element snippet pasted in a docs page (a 720 px column, e2e/embed-host.mjs
 * /pasted.html) on another origin: the frame starts at the `initial-height` the dialog measured,
 * so the paragraph below the embed stays where it was first painted when the player's first
 * height message arrives. The frame was 480 px until then (public/embed.js), ~1.3 s in, and the
 * text below moved down by ~300 px in the column and ~700 px on a phone.
 */
import type { Page } from '@playwright/test';
import { expect, test, testIds } from './fixtures';
import { HOST, SHOWN_PLAYER } from './embedTesting';

/** The dialog's element snippet for `preset`, once it holds the measured initial-height. */
async function dialogSnippet(page: Page, preset: string): Promise<string> {
  await page.goto(`./?preset=${preset}`);
  await page.getByTestId(testIds.embedButton).click();
  const snippet = page.getByTestId(testIds.embedSnippet);
  await expect(snippet).toHaveValue(/initial-height="/, { timeout: 20_000 });
  return snippet.inputValue();
}

/** The paragraph's tops below the embed, from the first frame to the settled player. */
async function belowTops(page: Page, snippet: string): Promise<number[]> {
  await page.goto(`${HOST}/pasted.html?snippet=${Buffer.from(snippet).toString('base64url')}`);
  const frame = page.frameLocator('delivery-lab-embed iframe');
  await expect(frame.locator(SHOWN_PLAYER)).toBeVisible({ timeout: 20_000 });
  // Shown once measured, as its first height message goes: a few more frames for the host to
  // apply it, and for a late resize to show.
  await page.waitForTimeout(500);
  return page.evaluate(() => (window as unknown as { __below: number[] }).__below);
}

test('the dialog’s initial-height: the text below the embed does not move from the first paint to the settled player, at 1280×720', async ({
  page,
}) => {
  const snippet = await dialogSnippet(page, 'lost-ack-retry/acks-1');
  const initial = /initial-height="([^"]+)"/.exec(snippet)![1]!;
  // Two heights: the phone's is taller (its stages wrap one under another).
  expect(initial).toMatch(/^\(max-width: 479px\) \d+px, \d+px$/);
  const tops = await belowTops(page, snippet);
  expect(tops).toHaveLength(1);
  // The frame is as tall as the player says (the column's measure), not the loader's 480 px.
  const column = Number(/(\d+)px$/.exec(initial)![1]);
  const frame = await page.locator('delivery-lab-embed iframe').boundingBox();
  expect(Math.round(frame!.height)).toBe(column);
  expect(column).toBeGreaterThan(600);
});

test('the same snippet on a phone (390×844): the frame starts at the phone’s height and the text below stays put', async ({
  page,
}) => {
  const snippet = await dialogSnippet(page, 'lost-ack-retry/acks-1');
  const phone = Number(/\(max-width: 479px\) (\d+)px/.exec(snippet)![1]);
  await page.setViewportSize({ width: 390, height: 844 });
  const tops = await belowTops(page, snippet);
  expect(tops).toHaveLength(1);
  const frame = await page.locator('delivery-lab-embed iframe').boundingBox();
  expect(Math.round(frame!.width)).toBe(358);
  expect(Math.round(frame!.height)).toBe(phone);
});

test('without initial-height the text below moves (the 480 px the loader starts at)', async ({
  page,
}) => {
  // The case the attribute fixes, kept as the measure of the jump it removes.
  const snippet = (await dialogSnippet(page, 'lost-ack-retry/acks-1')).replace(
    / initial-height="[^"]+"/,
    '',
  );
  const tops = await belowTops(page, snippet);
  // At the loader's 480 px, then at the player's ~780: ~300 px down under the reader.
  expect(tops.length).toBeGreaterThan(1);
  expect(tops.at(-1)! - tops[0]!).toBeGreaterThan(200);
});
