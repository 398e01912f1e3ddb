/**
 * The lesson specs' card cuts (e2e/lesson.spec.ts, e2e/lessonRoom.spec.ts), measured one way:
 * a box whose content is taller than the box, a box scrolling sideways, a box ending below the
 * screen, the view scrolling — each past a 1 px tolerance (rounding). A cut must last: measured
 * again up to 3 times, 0.5 s apart, while any is left (ci29 saw exactly-once-flink-spark step 8's
 * producer 2 px over its box once, right after Compare is undone; ci28 and four local runs did
 * not). A cut still there after 1.5 s is a cut.
 */
import type { Page } from '@playwright/test';

/** What to measure: CSS selectors, each optional. */
export interface CardCutBoxes {
  /** Boxes whose content must not be taller than the box. */
  tall?: string;
  /** Boxes that must not scroll sideways. */
  wide?: string;
  /** Boxes that must end above the screen's bottom. */
  onScreen?: string;
  /** An element that must not scroll (its content no taller than it). */
  view?: string;
}

/** Pixels a measure may be off by (rounding of fractional layout) before it counts as a cut. */
const CUT_TOLERANCE_PX = 1;
/** Measures after the first while a cut is left, and the wait before each. */
const CUT_REMEASURES = 3;
const CUT_REMEASURE_MS = 500;

/** The cuts now, one line each ("Producer component cut by 35 px"); empty when all is whole. */
export function cardCuts(page: Page, boxes: CardCutBoxes): Promise<string[]> {
  return page.evaluate(
    ([boxes, tolerance]) => {
      const out: string[] = [];
      const label = (el: Element) =>
        `${el.closest('.stage')?.getAttribute('aria-label') ?? ''} ${el.className || el.tagName}`;
      const all = (selector: string | undefined) =>
        selector ? [...document.querySelectorAll(selector)] : [];
      if (boxes.view) {
        const view = document.querySelector(boxes.view);
        if (view && view.scrollHeight > view.clientHeight + tolerance)
          out.push(`view ${view.scrollHeight} > ${view.clientHeight}`);
      }
      for (const el of all(boxes.tall))
        if (el.scrollHeight > el.clientHeight + tolerance)
          out.push(`${label(el)} cut by ${el.scrollHeight - el.clientHeight} px`);
      for (const el of all(boxes.wide))
        if (el.scrollWidth > el.clientWidth + tolerance)
          out.push(`${label(el)} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
      for (const el of all(boxes.onScreen)) {
        const bottom = el.getBoundingClientRect().bottom;
        if (bottom > window.innerHeight + tolerance)
          out.push(`${label(el)} ends at ${Math.round(bottom)}`);
      }
      return out;
    },
    [boxes, CUT_TOLERANCE_PX] as const,
  );
}

/** The cuts that last: `cardCuts`, measured again (as above) while any is left. */
export async function lastingCardCuts(page: Page, boxes: CardCutBoxes): Promise<string[]> {
  let cuts = await cardCuts(page, boxes);
  for (let i = 0; i < CUT_REMEASURES && cuts.length > 0; i++) {
    await page.waitForTimeout(CUT_REMEASURE_MS);
    cuts = await cardCuts(page, boxes);
  }
  return cuts;
}
