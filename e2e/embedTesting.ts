/**
 * Shared helpers for the embed specs (embed*.spec.ts): the two origins, a host page on the second
 * one (e2e/embed-host.mjs) framing a given src or snippet, and the player's frame in it.
 */
import { expect, type Frame, type Locator, type Page } from '@playwright/test';
import { testIds } from '../src/ui/testIds';

// The ports playwright.config.ts serves on (npm test picks free ones).
export const APP = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}/`;
export const HOST = `http://127.0.0.1:${process.env.E2E_HOST_PORT ?? 4174}`;

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
export const hostPage = (data: { src: string } | { snippet: string }) =>
  `${HOST}/host.html#${b64url(JSON.stringify(data))}`;

/** The frame's height minus the last reported height (0 once the host has applied it). */
export async function frameVsReported(page: Page): Promise<number> {
  const frame = Math.round((await page.locator('iframe').boundingBox())!.height);
  return frame - Number(await page.locator('#height').textContent());
}

/** The player's frame in the host page. */
export async function playerFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe').elementHandle();
  const frame = await handle!.contentFrame();
  return frame!;
}

/**
 * The player as shown: before it is first shown it is laid out at its run's end and at its start
 * to measure its height, hidden and `aria-busy` (src/ui/embed/ReserveHeight.tsx).
 */
export const SHOWN_PLAYER = `[data-testid="${testIds.embedPlayer}"]:not([aria-busy])`;

/**
 * Wait until the player in `scope` (a page or a frame) has played its run to the end: its
 * counters final in the player as shown. Before it is first shown, the player is laid out at its
 * run's end to measure its height (hidden and `aria-busy`: src/ui/embed/ReserveHeight.tsx), its
 * counters final there too, and then plays from its start.
 */
export async function playedToEnd(
  scope: { locator(selector: string): Locator },
  timeout: number,
): Promise<void> {
  await expect(
    scope.locator(`${SHOWN_PLAYER} [data-testid="${testIds.counterMissing}"]`),
  ).toHaveAttribute('data-final', 'true', { timeout });
}
