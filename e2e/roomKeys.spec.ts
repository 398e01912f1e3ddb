/**
 * The room panel's buttons and the lab's keys (docs/page.md, "Keys"): a button clicked with the
 * pointer gives the focus back to the page, so that Space plays the run; one pressed from the
 * keyboard keeps the focus and its keys, as every focused control does. Before, a teacher who
 * clicked "Ask the room" and then pressed Space to play asked the room again (a workshop's
 * projector at 1280×720).
 */
import { expect, test, type Page } from '@playwright/test';
import { classroomServerForSpec } from './support/classroomServer';
import { RoomTestClient } from '../server/roomTestClient';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { testIds } from '../src/ui/testIds';

const server = classroomServerForSpec();

/**
 * at-least-once in projector mode at 1280×720, a room started under More ▾ and one phone joined:
 * the room's ask button, not pressed yet.
 */
async function roomOnProjector(page: Page): Promise<RoomTestClient> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?preset=at-least-once&present=1`);
  await page.getByTestId(testIds.moreTools).click();
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const phone = await RoomTestClient.open(server.url);
  phone.send({ type: 'join', code });
  await phone.next('joined');
  return phone;
}

test('a room button clicked with the pointer leaves Space to the page: Space plays the run the room predicts', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const phone = await roomOnProjector(page);
  const ask = page.getByTestId(ids.publish);
  await ask.click();
  await phone.next('step');
  await expect(page.getByTestId(ids.answered)).toHaveText('0 of 1 answered');
  // The focus is the page's again: Space plays (the room asked, Play needs no lock-in).
  await expect(ask).not.toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'true');
  // Not asked again: no note that the room is answering already.
  await expect(page.getByTestId(ids.askNote)).toHaveCount(0);
  await page.screenshot({ path: 'test-results/room-keys-pointer.png' });
  phone.close();
});

test('a room button pressed from the keyboard keeps the focus: Space presses it again', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const phone = await roomOnProjector(page);
  const ask = page.getByTestId(ids.publish);
  await ask.focus();
  await page.keyboard.press('Enter');
  await phone.next('step');
  await expect(ask).toBeFocused();
  // Space is the focused button's: it asks again (its answers stand, it says), nothing plays.
  await page.keyboard.press('Space');
  await expect(page.getByTestId(ids.askNote)).toHaveText(
    'The room is answering this question: its answers stand.',
  );
  await expect(page.getByTestId(testIds.play)).toHaveAttribute('aria-pressed', 'false');
  await expect(ask).toBeFocused();
  phone.close();
});
