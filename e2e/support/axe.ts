/**
 * axe (axe-core through @axe-core/playwright) on a page with no cross-origin frame, as one
 * `axe.run` in the page: @axe-core/playwright's default runs `axe.runPartial` in every frame,
 * then opens a blank page in the context to inject axe again and `axe.finishRun` there — only
 * needed to reach cross-origin frames, and ~3× the time (the dashboard as it opens: 30–33 s
 * against 8–12 s at load 18–22, same 0 violations, 47 passes and 2 incomplete). Same rules, same
 * results: "legacy mode" tests same-origin frames too, and a cross-origin frame on the page
 * fails the check instead of going untested
 * (https://github.com/dequelabs/axe-core-npm/blob/develop/packages/playwright/README.md#axebuildersetlegacymodelegacymode-boolean--true).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The page's frames on an origin other than its own (about:blank and srcdoc frames inherit it). */
function crossOriginFrames(page: Page): string[] {
  const own = new URL(page.url()).origin;
  return page
    .frames()
    .map((frame) => frame.url())
    .filter((url) => /^https?:/.test(url) && new URL(url).origin !== own);
}

/** An AxeBuilder for a page without cross-origin frames (checked as it analyzes). */
export class SameOriginAxeBuilder extends AxeBuilder {
  constructor(private readonly axePage: Page) {
    super({ page: axePage });
    this.setLegacyMode(true);
  }

  override async analyze(): ReturnType<AxeBuilder['analyze']> {
    const foreign = crossOriginFrames(this.axePage);
    if (foreign.length > 0)
      throw new Error(
        `cross-origin frames (${foreign.join(', ')}): legacy mode would skip them; use AxeBuilder`,
      );
    return super.analyze();
  }
}

/**
 * axe's serious and critical violations on the page (or inside the element `within` selects),
 * each as "rule (impact): targets", for an `expect(…).toEqual([])` that names them.
 */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new SameOriginAxeBuilder(page);
  const results = await (within ? builder.include(within) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}
