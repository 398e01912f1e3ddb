/**
 * The library's layout against the built page: no serious axe violation in the open library and
 * the story panel, the story never over the pipeline, and every story's setup and question above
 * the fold at 1280×720.
 */
import { expect, test, testIds } from './fixtures';
import { presets } from '../src/scenarios';
import { questionVariant } from '../src/views/library/library';
import { lib } from './libraryTesting';
import { SameOriginAxeBuilder } from './support/axe';

test('axe: the open library and the story panel have no serious violation', async ({ dash }) => {
  test.setTimeout(90_000);
  const { page } = dash;
  const l = lib(dash);
  const serious = async () =>
    (await new SameOriginAxeBuilder(page).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  await dash.byId(testIds.libraryOpen).click();
  await expect(l.cards.first()).toBeVisible();
  expect(await serious()).toEqual([]);
  await l.card('consume-transform-produce').click();
  await dash.settled();
  await dash.byId(testIds.predictReveal).click();
  await expect(l.answer).toBeVisible();
  expect(await serious()).toEqual([]);
});

test('the story: a band above the counters while its question is asked, then beside the pipeline at 1280 px, above it at a larger font — never over it', async ({
  unopenedDash: dash,
}) => {
  const l = lib(dash);
  await dash.goto('./?preset=flink-checkpoint-replay/plain-sink');
  const box = async () => ({
    story: (await l.story.boundingBox())!,
    pipeline: (await dash.byId(testIds.pipeline).boundingBox())!,
  });
  // Asked: a band across the page above the counters, the setup left of the question.
  await expect(l.story).toHaveAttribute('data-asking', 'true');
  let b = await box();
  const counters = (await dash.byId(testIds.counters).boundingBox())!;
  expect(b.story.y + b.story.height).toBeLessThanOrEqual(counters.y);
  expect(b.story.width).toBeGreaterThan(b.pipeline.width * 0.9);
  const setup = (await dash.byId(testIds.storySetup).boundingBox())!;
  const question = (await dash.byId(testIds.predict).boundingBox())!;
  expect(question.x).toBeGreaterThanOrEqual(setup.x + setup.width);
  // Answered: the story goes beside the pipeline.
  await dash.byId(testIds.predictReveal).click();
  await expect(l.story).toHaveAttribute('data-asking', 'false');
  b = await box();
  // Beside: to the right of the pipeline, its top within the pipeline's rows.
  expect(b.story.x).toBeGreaterThanOrEqual(b.pipeline.x + b.pipeline.width);
  expect(b.story.y).toBeLessThan(b.pipeline.y + b.pipeline.height);
  // 150 %: no room for both side by side — the story moves above the pipeline.
  for (let k = 0; k < 3; k++) await dash.byId(testIds.fontLarger).click();
  await expect(dash.byId(testIds.app)).toHaveAttribute('style', /--scale: 1.5/);
  b = await box();
  expect(b.story.y + b.story.height).toBeLessThanOrEqual(b.pipeline.y);
  // Folded away, then back: the pipeline has the whole width meanwhile.
  await dash.byId(testIds.storyToggle).click();
  await expect(l.story).toHaveCount(0);
  await dash.byId(testIds.storyToggle).click();
  await expect(l.story).toBeVisible();
  await expect(dash.byId(testIds.storyTitle)).toBeFocused();
});

test('at 1280×720, every library story opens with its setup and the whole "Predict first" box above the fold', async ({
  unopenedDash: dash,
}) => {
  // ~1 s a preset on an idle machine; a loaded one several times that.
  test.setTimeout(180_000);
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await dash.goto('./');
  for (const p of presets) {
    await dash.api('load', `${p.id}/${questionVariant(p)}`);
    await dash.settled();
    for (const id of [testIds.storySetup, testIds.predict]) {
      const b = (await dash.byId(id).boundingBox())!;
      expect(b.y, `${p.id}: ${id} top`).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height, `${p.id}: ${id} bottom`).toBeLessThanOrEqual(720);
    }
    expect(await page.evaluate(() => window.scrollY), p.id).toBe(0);
  }
});

/**
 * Projector mode, locked in: the story goes beside the pipeline, which gets the band's height
 * while the run plays — where the column beside it holds the setup and the question whole — and
 * "You predicted" is read on the verdict's card in the counters' row, not in the question's box.
 * At 1280×720 effectively-once's setup and question now fit the 19em column (with "You predicted"
 * in the box they did not, and the band stayed: 7 of the 26 stories went beside, 12 now, issue
 * 24). flink-commit-phase-crash's 540-character setup does not fit even so: the band stays until
 * the reveal, both whole, "You predicted" in its box, the pipeline the screen's width below them,
 * no lower than while asked.
 */
test('projector mode: once a prediction is locked in, the story goes beside the pipeline where it fits whole, its answer on the verdict’s card, else stays the band until the reveal', async ({
  unopenedDash: dash,
}) => {
  test.setTimeout(120_000);
  const { page } = dash;
  const l = lib(dash);
  const yours = dash.byId(testIds.predictYours);
  const lockIn = async (preset: string, answer: string) => {
    await dash.goto(`./?preset=${preset}&present=1`);
    await expect(l.story).toHaveAttribute('data-asking', 'true');
    const asked = (await dash.byId(testIds.pipeline).boundingBox())!;
    await dash.byId(testIds.predictInput).fill(answer);
    await dash.byId(testIds.predictLock).click();
    await expect(yours).toContainText(answer);
    await expect(dash.byId(testIds.verdict)).toHaveCount(0);
    return asked;
  };
  /** What of the setup and the question's box scrolls inside its box: nothing, whole. */
  const scrolled = () =>
    page.evaluate(() =>
      ['[data-testid="story-setup"]', '.story > .predict']
        .map((sel) => document.querySelector(sel)!)
        .filter((e) => e.scrollHeight > e.clientHeight + 1)
        .map((e) => `${e.className}: ${e.scrollHeight} px in ${e.clientHeight}`),
    );
  /** Beside the pipeline, higher than under the band, "You predicted" in the counters' row. */
  const beside = async (asked: { y: number }, size: string) => {
    await expect(l.story).toHaveAttribute('data-asking', 'false');
    const locked = (await dash.byId(testIds.pipeline).boundingBox())!;
    const story = (await l.story.boundingBox())!;
    expect(story.x).toBeGreaterThanOrEqual(locked.x + locked.width);
    expect(locked.y).toBeLessThan(asked.y - 100);
    expect(await scrolled(), `${size}, locked in`).toEqual([]);
    await expect(dash.byId(testIds.counters).getByTestId(testIds.predictYours)).toBeInViewport({
      ratio: 1,
    });
    await expect(dash.byId(testIds.predict).getByTestId(testIds.predictYours)).toHaveCount(0);
    // Its "change" unlocks it: the band again, the answer's field focused.
    await yours.getByRole('button', { name: 'change' }).click();
    await expect(l.story).toHaveAttribute('data-asking', 'true');
    await expect(dash.byId(testIds.predictInput)).toBeFocused();
  };
  await page.setViewportSize({ width: 1920, height: 1080 });
  await beside(await lockIn('at-least-once', '20'), '1920×1080');
  await page.setViewportSize({ width: 1280, height: 720 });
  await beside(await lockIn('effectively-once', '20'), '1280×720');
  const asked = await lockIn('flink-commit-phase-crash', '200');
  // The band until the reveal: the setup and the question whole above the pipeline, the answer
  // locked in read in the question's box (the verdict's card is not shown under the band).
  await expect(l.story).toHaveAttribute('data-asking', 'true');
  await expect(dash.byId(testIds.predict).getByTestId(testIds.predictYours)).toBeInViewport();
  const locked = (await dash.byId(testIds.pipeline).boundingBox())!;
  expect(locked.width).toBeGreaterThan(1200);
  expect(locked.y).toBeLessThanOrEqual(asked.y);
  expect(await scrolled(), '1280×720, locked in, the band').toEqual([]);
  // At the end (End reveals the locked answer), beside the pipeline.
  await page.keyboard.press('End');
  await expect(dash.byId(testIds.verdict)).toBeVisible();
  await expect(l.story).toHaveAttribute('data-asking', 'false');
});

test('locking a prediction in keeps the page where it was: Play stays in sight at 1280×720', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?preset=at-most-once/default');
  await dash.settled();
  await dash.byId(testIds.predictInput).fill('18');
  const lock = dash.byId(testIds.predictLock);
  await lock.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  await lock.click();
  await expect(dash.byId(testIds.play)).not.toHaveAttribute('aria-disabled', 'true');
  // The focus moves to the locked prediction after a frame: two frames later, no scroll.
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
  await expect(dash.byId(testIds.play)).toBeInViewport();
});

/**
 * The refusal's words on one line at 1280 px, beside the status row's buttons (Compare, the files,
 * the room), in the normal mode and the projector's: "The run waits for your prediction: lock one
 * in (or Show the answer) — playing it would give the answer away." wrapped to two lines in the
 * normal mode's 385 px, and the projector's line cuts with an ellipsis.
 */
test('at 1280×720 the status line says why Play waits on one line, uncut, in both modes', async ({
  unopenedDash: dash,
}) => {
  const { page } = dash;
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const address of ['./?preset=at-least-once', './?preset=at-least-once&present=1']) {
    await dash.goto(address);
    await dash.settled();
    // Pressed while it waits (aria-disabled: the press is taken, to say why).
    await dash.byId(testIds.play).click({ force: true });
    const body = dash.byId(testIds.runStatus).locator('.status-body');
    await expect(body).toHaveText('Waits for your prediction (or Show the answer).');
    const shown = await body.evaluate((e) => {
      // The text's own line boxes (the span is a flex item: one box whatever its lines).
      const span = e.firstElementChild!;
      const range = document.createRange();
      range.selectNodeContents(span.firstChild!);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { lines: tops.size, cut: span.scrollWidth - span.clientWidth };
    });
    expect(shown.lines, address).toBe(1);
    expect(shown.cut, address).toBeLessThanOrEqual(0);
  }
});
