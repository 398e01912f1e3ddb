/**
 * The presenter view of a lesson (docs/workshops.md), driven by the keys a presentation clicker
 * sends: PageDown moves to the next step (its question asked, its answer hidden), R reveals, the
 * address keeps the step for a reload; the notes window, a second page of the same context,
 * follows over BroadcastChannel. At 1280×720 a lesson's wordiest step shows its pipeline without
 * scrolling (a long setup scrolls in its own box).
 */
import { expect, test } from '@playwright/test';
import { lessonTestIds as ids } from '../src/ui/lesson/lessonTestIds';
import { LESSON_FILES } from '../src/scenarios/lessons/library';

test('a lesson driven by PageDown only, its notes window following', async ({ context }) => {
  test.setTimeout(120_000);
  const presenter = await context.newPage();
  // Playwright's clock, paused: the runs do not animate (nothing here waits for playback), so
  // the steps' runs cost no frames on a busy machine.
  await presenter.clock.install();
  await presenter.goto('./?lesson=delivery-guarantees-45');
  const view = presenter.getByTestId(ids.presenter);
  await expect(view).toHaveAttribute('data-step', '1');
  await expect(view).toHaveAttribute('data-present', '');
  await expect(presenter.getByTestId(ids.stepCount)).toHaveText('Step 1 of 10');
  // The first step asks its preset's question; the answer waits for R.
  await expect(presenter.getByTestId(ids.question)).toContainText(
    'How many of the 20 payments reach the table?',
  );
  await expect(presenter.getByTestId(ids.answer)).toHaveCount(0);

  const notes = await context.newPage();
  await notes.goto('./?lesson=delivery-guarantees-45&notes=1');
  await expect(notes.getByTestId(ids.notes)).toHaveAttribute('data-step', '1');

  // PageDown, twice: the presenter is on step 3 and the notes window follows.
  await presenter.bringToFront();
  await presenter.keyboard.press('PageDown');
  await expect(view).toHaveAttribute('data-step', '2');
  await presenter.keyboard.press('PageDown');
  await expect(view).toHaveAttribute('data-step', '3');
  await expect(presenter.getByTestId(ids.stepTitle)).toHaveText(
    'Effectively-once: at-least-once plus an idempotent write',
  );
  await expect(presenter.getByTestId(ids.question)).toContainText(
    'The consumer still writes p-6..p-8 twice. How many rows?',
  );
  await expect(presenter.getByTestId(ids.answer)).toHaveCount(0);
  await expect(notes.getByTestId(ids.notes)).toHaveAttribute('data-step', '3');
  await expect(notes.getByTestId(ids.notesNote)).toContainText('the sink absorbs it');

  // R reveals the preset's answer (src/scenarios/foundation.ts, effectively-once: 20 rows).
  await presenter.keyboard.press('r');
  await expect(presenter.getByTestId(ids.answer)).toContainText('20: the second write');
  await expect(view).toHaveAttribute('data-revealed', 'true');
  await expect(notes.getByTestId(ids.notes)).toHaveAttribute('data-revealed', 'true');

  // The address carries the step and the reveal: a reload resumes there.
  await expect(presenter).toHaveURL(/[?&]step=3&reveal=1/);
  await presenter.reload();
  await expect(presenter.getByTestId(ids.presenter)).toHaveAttribute('data-step', '3');
  await expect(presenter.getByTestId(ids.answer)).toContainText('20: the second write');
});

test('at 1280×720 the step with the longest setup of each shipped lesson shows the pipeline without scrolling', async ({
  page,
}) => {
  // Before: the setup, the question and the playback controls pushed the pipeline below the fold
  // (its top at 586–760 px, measured on every step of both lessons). The layout is the same for
  // every step (the setup scrolls in its own box, the pipeline takes the rest of the screen), so
  // each lesson's wordiest step — the most text above the pipeline — stands for all of them
  // (a run per step would cost CI a minute).
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.clock.install();
  const view = page.getByTestId(ids.presenter);
  for (const lesson of LESSON_FILES) {
    const words = lesson.steps.map(
      (s) => (s.setup?.length ?? 0) + (s.question?.question.length ?? 0),
    );
    const step = words.indexOf(Math.max(...words)) + 1;
    await page.goto(`./?lesson=${lesson.id}&step=${step}`);
    await expect(view).toHaveAttribute('data-step', String(step));
    const where = `${lesson.id} step ${step}`;
    const frame = page.locator('.pipeline-frame').first();
    await expect(frame, where).toBeVisible();
    // Every stage's heading and the pipeline's top 150 px (its tall stages scroll in its own
    // box) inside the viewport as the step opens, the page not scrolled.
    const box = (await frame.boundingBox())!;
    expect(box.y + Math.min(box.height, 150), `${where}: pipeline's top part`).toBeLessThanOrEqual(
      720,
    );
    const headings = await page.locator('.stage > h2').all();
    expect(headings.length, where).toBeGreaterThanOrEqual(4);
    for (const heading of headings) {
      const h = (await heading.boundingBox())!;
      expect(h.y + h.height, `${where}: stage heading`).toBeLessThanOrEqual(720);
    }
    expect(await page.evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
  }
});

test("projector mode's first screen at 1280×720: Start here in view; a setup cut at its box's edge shows there is more", async ({
  page,
}) => {
  // Before: "Start here" was hidden in projector mode (the README leads with it), and the setup
  // box cut its text with nothing to show more was below (scroll bars hidden until used).
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.clock.install();
  await page.goto('./?present=1&preset=lost-ack-retry');
  const start = page.getByRole('button', { name: 'Start here' });
  await expect(start).toBeVisible();
  const box = (await start.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(720);
  const setup = page.locator('.story > .story-setup');
  await expect(setup).toBeVisible();
  // While its question is asked the story is a band and the setup is whole (present.spec checks
  // every preset); once answered, the story is beside the pipeline, where lost-ack-retry's setup
  // is longer than its box at 1280×720: it scrolls, and its edge shadow (the two "scroll"
  // layers under the "local" covers) is drawn.
  expect(await setup.evaluate((el) => el.scrollHeight - el.clientHeight)).toBe(0);
  await page.getByTestId('predict-reveal').click();
  await expect(page.locator('.story')).toHaveAttribute('data-asking', 'false');
  const style = await setup.evaluate((el) => ({
    overflows: el.scrollHeight > el.clientHeight,
    attachment: getComputedStyle(el).backgroundAttachment,
  }));
  expect(style).toEqual({ overflows: true, attachment: 'local, local, scroll, scroll' });
});

test('at 1280×720 no step of a shipped lesson cuts a line of its setup at the box’s edge', async ({
  page,
}) => {
  // Before: the setup was a flex box shrinking to whatever height was left, its edge through the
  // middle of a line on six steps (delivery-guarantees-45 steps 1, 2, 6; exactly-once-flink-spark
  // 3, 6, 7). Now at most two whole lines (the rest scrolls): no line box crosses the bottom edge.
  // Every step, by PageDown in one page load per lesson.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.clock.install();
  const view = page.getByTestId(ids.presenter);
  for (const lesson of LESSON_FILES) {
    await page.goto(`./?lesson=${lesson.id}&step=1`);
    for (const [k, step] of lesson.steps.entries()) {
      if (k > 0) await page.keyboard.press('PageDown');
      await expect(view).toHaveAttribute('data-step', String(k + 1));
      if (!step.setup) continue;
      const setup = page.getByTestId(ids.setup);
      await expect(setup).toHaveText(step.setup);
      const cut = await setup.evaluate((el) => {
        const bottom = el.getBoundingClientRect().bottom;
        const range = document.createRange();
        range.selectNodeContents(el);
        return [...range.getClientRects()].filter(
          (r) => r.top < bottom - 1 && r.bottom > bottom + 1,
        ).length;
      });
      expect(cut, `${lesson.id} step ${k + 1}: lines cut at the setup's edge`).toBe(0);
    }
  }
});
