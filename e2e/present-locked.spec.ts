/**
 * Projector mode at 1280×720 with a prediction locked in and the run not at its end (issue 24:
 * projector mode fits 1280×720): no element of the page reaches past the window's right edge. The
 * story's "Hidden until the run reaches its end. Show the answer" kept "Show the answer" on one
 * line at x 1255–1394 px, cut by the story's box (the page does not scroll sideways). Every
 * story is measured, its question answered as a user answers it; the loop once took a choice
 * question's radios (`data-choice` too) for the four-choice buttons, clicked one and never
 * "Lock in", and skipped acks0-dropped-request and merge-duplicate-source as "not locked in".
 */
import { expect, test } from './fixtures';
import { testIds } from '../src/ui/testIds';
import { presets, type PredictMark } from '../src/scenarios';
import { questionVariant } from '../src/views/library/library';

test('projector mode, every library story locked in: nothing past the right edge at 1280×720', async ({
  unopenedDash: dash,
}) => {
  test.setTimeout(300_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1');
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  const yours = dash.byId(testIds.predictYours);
  for (const p of presets) {
    await dash.api('load', `${p.id}/${questionVariant(p)}`);
    await dash.settled();
    // This story's box, not the last one's locked answer still on screen.
    await expect(yours, p.id).toHaveCount(0);
    // Lock in an answer as a user does: the question's first option, or the answer it asks for
    // written out, then "Lock in" (enabled once there is an answer: the click waits for it).
    const mark = p.predict.mark;
    if (mark.kind === 'choice')
      await dash.byId(testIds.predictOptions).locator('input').first().check();
    else await dash.byId(testIds.predictInput).fill(writtenAnswer(mark));
    await dash.byId(testIds.predictLock).click();
    await expect(yours, `${p.id}: locked in`).toBeVisible();
    expect(await dash.api('cursor').then((c) => c.t < c.endTime), `${p.id}: not at its end`).toBe(
      true,
    );
    const past = await page.evaluate(() => {
      const edge = document.documentElement.clientWidth;
      return [...document.querySelectorAll('.app *')]
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.right > edge + 0.5;
        })
        .map(
          (e) =>
            `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent ?? '').slice(0, 40)}" right ${Math.round(e.getBoundingClientRect().right)}`,
        );
    });
    expect(past, `${p.id}: past the right edge (${1280} px)`).toEqual([]);
  }
  expect(dash.errors).toEqual([]);
});

/**
 * An answer the question accepts (`predictionProblem` refuses one it cannot mark): its numbers,
 * its events (a question of events refused the numbers "1, 1" this loop tried — "your prediction
 * names no event": rebalance-midflight was never locked in), or words.
 */
function writtenAnswer(mark: PredictMark): string {
  switch (mark.kind) {
    case 'numbers':
      return mark.values.map((v) => String(v.value)).join(', ');
    case 'events':
      return mark.ids.join(', ');
    case 'words':
    case 'choice':
      return 'a guess';
    default: {
      const never: never = mark;
      return never;
    }
  }
}
