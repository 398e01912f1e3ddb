/**
 * The lesson specs' card-cut helper (support/cardCuts.ts) on a page of its own: what it reports
 * and what it lets pass — the 1 px tolerance, and a cut that does not last.
 */
import { expect, test } from '@playwright/test';
import { cardCuts, lastingCardCuts } from './support/cardCuts';

const PAGE = `<!doctype html><style>body { margin: 0 } .box { overflow: hidden; width: 100px }</style>
  <div class="view" style="height: 300px; overflow: auto">
    <section class="stage" aria-label="Producer">
      <div class="box tall" style="height: 50px"><div style="height: 60px"></div></div>
      <div class="box over1" style="height: 50px"><div style="height: 51px"></div></div>
      <div class="box wide" style="height: 20px"><div style="width: 130px; height: 20px"></div></div>
    </section>
  </div>
  <div class="box low" style="position: absolute; top: 700px; height: 40px"></div>`;

test('reports a box cut past 1 px, sideways, below the screen, a scrolling view; not a cut that goes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 400, height: 720 });
  await page.setContent(PAGE);
  const boxes = { tall: '.box', wide: '.box', onScreen: '.box', view: '.view' };
  // 10 px cut; 1 px over passes (rounding); 30 px sideways; ends at 740 of 720.
  expect(await cardCuts(page, boxes)).toEqual([
    'Producer box tall cut by 10 px',
    'Producer box wide scrolls sideways by 30 px',
    ' box low ends at 740',
  ]);
  // The view scrolling: its content (50 + 50 + 20 px of boxes) taller than 100 px.
  await page.locator('.view').evaluate((el) => (el.style.height = '100px'));
  expect(await cardCuts(page, { view: '.view' })).toEqual(['view 120 > 100']);

  // A cut gone within the re-measures (0.3 s) is not reported; one that lasts is.
  await page.setContent(PAGE);
  await page.evaluate(() =>
    setTimeout(() => document.querySelector<HTMLElement>('.tall')!.remove(), 300),
  );
  expect(await cardCuts(page, { tall: '.box' })).toEqual(['Producer box tall cut by 10 px']);
  expect(await lastingCardCuts(page, { tall: '.box' })).toEqual([]);
  await page.setContent(PAGE);
  expect(await lastingCardCuts(page, { tall: '.box' })).toEqual(['Producer box tall cut by 10 px']);
});
