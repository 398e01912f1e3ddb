/**
 * A lesson whose step is a batch job (docs/workshops.md: any library preset can be a step): the
 * presenter view shows the page's batch view (src/ui/batch/BatchRun.tsx) in place of the stream's
 * pipeline. Asked, the job's setup and its logical date wait, no attempt and no table; R plays the
 * schedule (an attempt each 2.5 s), and the answer — the band's and the room's — shows at its end. Before: "no run yet"
 * beside the speed slider and "Running the scenario…" for ever, R and End doing nothing.
 *
 * airflow-retry-append (src/scenarios/library/batch.ts, S21): retries=1; try 1 of 2024-03-10
 * appends e1..e10 and commits, then fails its post-load check; try 2 appends them again — 2
 * attempts, 20 rows in partition 2024-03-10, 10 of them second copies, 0 lost.
 */
import { expect, test, type Page } from '@playwright/test';
import { classroomServerForSpec } from './support/classroomServer';
import { streamThenBatchLesson } from '../src/scenarios/lessons/testLessons';
import { encodeLessonLink } from '../src/views/library/lessonLink';
import { lessonTestIds as ids } from '../src/ui/lesson/lessonTestIds';
import { roomTestIds } from '../src/ui/room/roomTestIds';
import { testIds } from '../src/ui/testIds';
import { LESSON_ATTEMPT_MS, LESSON_WAITS } from '../src/store/lessonDeck';

const LESSON = `?lesson=shared#${encodeLessonLink(streamThenBatchLesson())}`;

const ANSWER = '20: the INSERT ran twice over the same 10 events.';
const SUMMARY = '20 rows · 10 duplicates · 0 lost';

/** Nothing of the schedule's outcome on screen: no attempt, no table, no answer. */
async function nothingTold(page: Page, where: string) {
  await expect(page.getByTestId('batch-attempt'), where).toHaveCount(0);
  await expect(page.getByTestId('batch-partition'), where).toHaveCount(0);
  await expect(page.getByTestId('batch-summary'), where).toHaveCount(0);
  await expect(page.getByTestId(ids.answer), where).toHaveCount(0);
}

test('a batch step after a stream step: asked, its schedule waits; R plays it, the answer at its end; PageUp and PageDown both ways', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.clock.install();
  await page.goto(`./${LESSON.replace('?lesson=shared', '?lesson=shared&step=1')}`);
  const view = page.getByTestId(ids.presenter);
  await expect(view).toHaveAttribute('data-step', '1', { timeout: 30_000 });
  await expect(page.getByTestId(testIds.clock)).toContainText('event 0 /', { timeout: 30_000 });
  await expect(page.getByTestId('batch-run')).toHaveCount(0);

  await page.locator('body').press('PageDown');
  await expect(view).toHaveAttribute('data-step', '2');
  await expect(page.getByTestId(ids.question)).toContainText(
    'How many rows does partition 2024-03-10 hold after the retry?',
  );
  // The lazy batch view's first load: a generous wait. Its setup and its one logical date.
  await expect(page.getByTestId('batch-setup')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('batch-date')).toHaveCount(1);
  await expect(page.getByTestId('batch-date')).toContainText('2024-03-10');
  // The stream's playback is not a batch job's (it said "no run yet" for ever).
  await expect(page.getByTestId(testIds.clock)).toHaveCount(0);
  await expect(page.getByText('Running the scenario…')).toHaveCount(0);
  await nothingTold(page, 'asked');
  // Playwright's clock paused: the schedule's steps move only when the test runs them.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  // End before the reveal is refused, with the reason.
  await page.locator('body').press('End');
  await expect(page.getByTestId(ids.status)).toHaveText(LESSON_WAITS);
  await page.clock.runFor(1_000);
  await nothingTold(page, 'End before R');

  // R: the schedule plays, one attempt each 2.5 s, time to read it out; the answer waits for its
  // end. (At the page's 300 ms an attempt, the answer was up 0.6 s after R.)
  await page.locator('body').press('r');
  await expect(view).toHaveAttribute('data-revealed', 'true');
  await expect(page.getByTestId(ids.status)).toHaveText('');
  expect(LESSON_ATTEMPT_MS).toBe(2_500);
  await page.clock.runFor(600);
  await nothingTold(page, '0.6 s after R');
  await page.clock.runFor(LESSON_ATTEMPT_MS - 600);
  await expect(page.getByTestId('batch-attempt')).toHaveCount(1);
  await expect(page.getByTestId('batch-attempt')).toContainText('try 1');
  // Its words at the page's colour, not a disabled button's 55 % grey.
  await expect(page.getByTestId('batch-attempt').locator('button')).toHaveCount(0);
  await expect(page.getByTestId('batch-summary')).toHaveCount(0);
  await expect(page.getByTestId(ids.answer)).toHaveCount(0);
  await page.clock.runFor(LESSON_ATTEMPT_MS);
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
  await expect(page.getByTestId(ids.answer)).toHaveText(ANSWER);
  await expect(page.getByTestId('batch-partition')).toHaveCount(1);
  await expect(page.getByTestId('batch-partition')).toContainText('2024-03-10');
  await expect(page.getByTestId('batch-partition').locator('.batch-row')).toHaveCount(20);
  await expect(page.locator('.batch-row[data-copy="2"]')).toHaveCount(10);
  await expect(page.getByTestId('batch-summary')).toContainText(SUMMARY);

  // Back to the stream step: its pipeline and playback, at its start.
  await page.locator('body').press('PageUp');
  await expect(view).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('batch-run')).toHaveCount(0);
  await expect(page.getByTestId(testIds.clock)).toContainText('event 0 /', { timeout: 30_000 });
  // And the batch step again: asked anew, nothing told.
  await page.locator('body').press('PageDown');
  await expect(view).toHaveAttribute('data-step', '2');
  await expect(view).not.toHaveAttribute('data-revealed', 'true');
  await expect(page.getByTestId('batch-setup')).toBeVisible();
  await nothingTold(page, 'opened again');
  // R, R: the answer now; End: the schedule's end, its table.
  await page.locator('body').press('r');
  await page.locator('body').press('r');
  await expect(page.getByTestId(ids.answer)).toHaveText(ANSWER);
  await page.locator('body').press('End');
  await expect(page.getByTestId('batch-attempt')).toHaveCount(2);
  await expect(page.getByTestId('batch-summary')).toContainText(SUMMARY);
});

const server = classroomServerForSpec();

test('a batch step with a room live at 1280×720: setup, question and histogram on screen, then the schedule and its table; the phones get the reveal at its end', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}${LESSON.replace('?lesson=shared', '?lesson=shared&step=2')}`);
  const view = page.getByTestId(ids.presenter);
  await expect(view).toHaveAttribute('data-step', '2', { timeout: 30_000 });
  await page.getByTestId(roomTestIds.start).click();
  const code = (await page.getByTestId(roomTestIds.code).textContent())!.trim();
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(roomTestIds.studentName).fill('Ann');
  await student.getByTestId(roomTestIds.studentJoin).click();
  await student.getByTestId(roomTestIds.studentAnswer).fill('20');
  await student.getByTestId(roomTestIds.studentSend).click();
  await expect(page.getByTestId(roomTestIds.answered)).toHaveText('1 of 1 answered');

  const fits = async (where: string, testIdsOnScreen: string[]) => {
    for (const id of testIdsOnScreen) {
      const b = (await page.getByTestId(id).first().boundingBox())!;
      expect(b, `${where}: ${id}`).not.toBeNull();
      expect(b.y, `${where}: ${id}'s top`).toBeGreaterThanOrEqual(0);
      expect(b.y + b.height, `${where}: ${id}'s bottom`).toBeLessThanOrEqual(720);
    }
    const scrolls = await page.evaluate(() => {
      const v = document.querySelector('.lesson-present')!;
      return { down: v.scrollHeight - v.clientHeight, sideways: v.scrollWidth - v.clientWidth };
    });
    expect(scrolls, `${where}: the view scrolls`).toEqual({ down: 0, sideways: 0 });
  };
  await expect(page.getByTestId('batch-setup')).toBeVisible({ timeout: 30_000 });
  await fits('asked', [
    ids.setup,
    ids.question,
    'batch-setup',
    'batch-date',
    roomTestIds.histogram,
    roomTestIds.reveal,
    roomTestIds.end,
  ]);
  await page.locator('body').press('r');
  // Two attempts, 2.5 s each.
  await expect(page.getByTestId(ids.answer)).toHaveText(ANSWER, { timeout: 15_000 });
  await expect(page.getByTestId('batch-summary')).toContainText(SUMMARY);
  await expect(student.getByTestId(roomTestIds.studentReveal)).toContainText('20 rows');
  await fits('at the end', [
    ids.answer,
    'batch-attempt',
    'batch-partition',
    'batch-summary',
    roomTestIds.histogram,
    roomTestIds.end,
  ]);
  await student.context().close();
});
