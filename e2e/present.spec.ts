/**
 * Issue 24, projector mode, at 1280×720 in Chromium, for every library preset: the pipeline, the
 * counters and the question inside the viewport; body text at 18 px or more; no two labels of
 * records in flight overlapping; the verdict absent before the run's end after "Show the outcome".
 * (Each preset's 20–40 s pace is checked on the page's clock in e2e/pace.spec.ts, and for every
 * preset in src/views/pace.test.ts; revisiting an answered preset, there too.)
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { testIds } from '../src/ui/testIds';
import { presets } from '../src/scenarios';
import { questionVariant } from '../src/views/library';

const W = 1280;
const H = 720;
test.use({ viewport: { width: W, height: H } });

/** Whether the element's box lies inside the 1280×720 viewport (a pixel of rounding allowed). */
async function inViewport(el: Locator): Promise<string | null> {
  const b = await el.boundingBox();
  if (!b) return 'not rendered';
  const ok = b.x >= -1 && b.y >= -1 && b.x + b.width <= W + 1 && b.y + b.height <= H + 1;
  return ok ? null : `box ${JSON.stringify(b)}`;
}

async function fontPx(el: Locator): Promise<number> {
  return el.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
}

// Two halves of the library, one per worker; each opens the page once and loads its presets
// through the test API (a navigation per preset cost seconds of boot each).
test.describe.configure({ mode: 'parallel' });
const half = Math.ceil(presets.length / 2);
for (const [k, part] of [presets.slice(0, half), presets.slice(half)].entries()) {
  test(`projector mode, library part ${k + 1}: each story fits 1280×720, reads at 18 px, labels never overlap`, async ({
    dash,
  }) => {
    test.setTimeout(300_000);
    const { page } = dash;
    await page.goto('./?present=1');
    await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
    for (const p of part) {
      // As the library opens it: at the variant its question is about.
      await dash.api('load', `${p.id}/${questionVariant(p)}`);
      await dash.settled();
      await expect(dash.byId(testIds.app)).toHaveAttribute('data-present', 'true');
      for (const id of [testIds.counters, testIds.predictQuestion])
        expect(await inViewport(dash.byId(id)), `${p.id}: ${id}`).toBeNull();
      // The pipeline's box (its tallest stages scroll inside it) and every stage's heading.
      expect(await inViewport(page.locator('.pipeline-frame')), `${p.id}: pipeline`).toBeNull();
      for (const heading of await dash.byId(testIds.pipeline).locator('.stage > h2').all())
        expect(await inViewport(heading), `${p.id}: stage heading`).toBeNull();
      // The pipeline fits beside the story: no stage cut off to the side.
      const cut = await page
        .locator('.pipeline-scroll')
        .evaluate((e) => e.scrollWidth - e.clientWidth);
      expect(cut, `${p.id}: pipeline wider than its box by`).toBeLessThanOrEqual(1);
      // Body text: the story's setup, the question, a counter's caption, the verdict's card.
      for (const el of [
        dash.byId(testIds.storySetup),
        dash.byId(testIds.predictQuestion),
        page.locator('.app'),
      ])
        expect(await fontPx(el), p.id).toBeGreaterThanOrEqual(18);
      // Records in flight, paused at two points of the run: their labels never overlap.
      const { endTime } = await dash.api('cursor');
      for (const f of [0.3, 0.6]) {
        await dash.api('runTo', Math.round(endTime * f));
        const boxes = await page.getByTestId(testIds.token).evaluateAll((els) =>
          els
            .filter((e) => (e as HTMLElement).style.display !== 'none')
            .map((e) => e.getBoundingClientRect())
            .map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height, t: '' })),
        );
        for (let a = 0; a < boxes.length; a++)
          for (let b = a + 1; b < boxes.length; b++) {
            const A = boxes[a]!;
            const B = boxes[b]!;
            const over = A.x < B.x + B.w && B.x < A.x + A.w && A.y < B.y + B.h && B.y < A.y + A.h;
            expect(over, `${p.id} at ${f}: labels ${a} and ${b} overlap`).toBe(false);
          }
      }
      // "Show the outcome" before the end: the verdict stays folded until the run's end.
      await dash.toStart();
      await page
        .locator(`[data-testid="${testIds.outcomeHidden}"][data-what="verdict"]`)
        .getByRole('button', { name: 'Show the outcome' })
        .click();
      await expect(dash.byId(testIds.verdict), p.id).toHaveCount(0);
    }
    expect(dash.errors).toEqual([]);
  });
}

test('projector mode: P toggles it and it is remembered; D opens the details; the colours toggle', async ({
  dash,
}) => {
  test.setTimeout(90_000);
  const { page } = dash;
  await dash.goto();
  const app = dash.byId(testIds.app);
  await expect(app).toHaveAttribute('data-present', 'false');
  await page.locator('body').press('p');
  await expect(app).toHaveAttribute('data-present', 'true');
  await expect(page.locator('.lower')).toBeHidden();
  await page.locator('body').press('d');
  await expect(page.locator('.lower')).toBeVisible();
  // Colours: system → light → dark, on the root element, whatever the OS says.
  await dash.byId(testIds.themeToggle).click();
  await dash.byId(testIds.themeToggle).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await page.waitForFunction(() => window.__deliveryLab?.status() === 'ready');
  await expect(app).toHaveAttribute('data-present', 'true');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(17, 19, 22)'); // --bg of the dark scheme (#111316)
  expect(dash.errors).toEqual([]);
});
