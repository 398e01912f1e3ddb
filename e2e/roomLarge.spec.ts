/**
 * The room's join code and QR code large, for the back row (issue 24: on a projector the panel's
 * QR code was ~85 px and its code ~20 px): a click on the QR code or Q opens them over the whole
 * screen, Esc or Q again closes them and the focus goes back where it was. The classroom server
 * as e2e/classroom.spec.ts starts it (a free loopback port, the built dist/).
 */
import { expect, test } from '@playwright/test';
import { classroomServerForSpec } from './support/classroomServer';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { testIds } from '../src/ui/testIds';
import { SameOriginAxeBuilder } from './support/axe';

const server = classroomServerForSpec();

test('projector mode at 1280×720: the QR code at ≥ 60 % of the height and the code at ≥ 64 px, by a click or Q; Esc or Q closes, the focus back', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  // A room is started out of projector mode (its button waits there, present.css), then P.
  await page.goto(`${server.url}?preset=lost-ack-retry/idempotence-off`);
  await page.getByTestId(ids.start).click();
  await expect(page.getByTestId(ids.panel)).toBeVisible();
  await page.keyboard.press('p');
  await expect(page.getByTestId(testIds.app)).toHaveAttribute('data-present', 'true');
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const large = page.getByTestId(ids.large);
  const qrButton = page.getByTestId(ids.qrButton);

  // A click on the panel's QR code.
  await qrButton.click();
  await expect(large).toBeVisible();
  await expect(page.getByTestId(ids.largeCode)).toHaveText(code);
  const sizes = await page.evaluate(
    ([qr, codeId]) => {
      const q = document.querySelector(`[data-testid="${qr}"]`)!.getBoundingClientRect();
      const c = document.querySelector<HTMLElement>(`[data-testid="${codeId}"]`)!;
      const r = c.getBoundingClientRect();
      return {
        qr: Math.round(q.height),
        square: Math.round(q.width) === Math.round(q.height),
        qrInView: q.top >= 0 && q.bottom <= innerHeight && q.left >= 0 && q.right <= innerWidth,
        codePx: parseFloat(getComputedStyle(c).fontSize),
        codeInView: r.top >= 0 && r.bottom <= innerHeight,
        // The address a student who cannot scan types: read from the back row too.
        joinPx: parseFloat(getComputedStyle(document.querySelector('.room-large-join')!).fontSize),
        joinInView: (() => {
          const j = document.querySelector('.room-large-join')!.getBoundingClientRect();
          const close = document.querySelector('.room-large-close')!.getBoundingClientRect();
          // On screen, and clear of Close (Esc) at the top right.
          return j.top >= 0 && (j.right <= close.left || j.top >= close.bottom);
        })(),
      };
    },
    [ids.largeQr, ids.largeCode],
  );
  // 68 % of 720 px: 489.6; the code at 10 % of it, 72 px; the address at 4.5 %, 32.4 px (it was
  // 23 px).
  expect(sizes).toEqual({
    qr: 490,
    square: true,
    qrInView: true,
    codePx: 72,
    codeInView: true,
    joinPx: 32.4,
    joinInView: true,
  });
  expect(sizes.qr).toBeGreaterThanOrEqual(0.6 * 720);
  const axe = await new SameOriginAxeBuilder(page)
    .include(`[data-testid="${ids.large}"]`)
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(large).toHaveCount(0);
  await expect(qrButton).toBeFocused();

  // Q from a button of the panel, and Q again.
  const publish = page.getByTestId(ids.publish);
  await publish.focus();
  await page.keyboard.press('q');
  await expect(large).toBeVisible();
  await page.keyboard.press('q');
  await expect(large).toHaveCount(0);
  await expect(publish).toBeFocused();
  // Q in a field types a q.
  await page.getByTestId(testIds.predictInput).fill('');
  await page.getByTestId(testIds.predictInput).press('q');
  await expect(large).toHaveCount(0);
});
