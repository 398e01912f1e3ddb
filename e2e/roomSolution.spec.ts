/**
 * A student's challenge solution reaches the projector (docs/classroom.md, docs/workshops.md): a
 * phone opens the step's challenge in a tab of its own, solves it there, answers "Solved it" — the
 * solution the challenge tab kept goes with it — and the presenter's panel lists it, anonymous,
 * as "Solution 1" with what it changed, and opens it on the projector as the challenge's current
 * scenario (one undo step back to the lesson's). Before, a solution never left the student's
 * browser.
 */
import { expect, test, type Page } from '@playwright/test';
import { classroomServerForSpec } from './support/classroomServer';
import type { LessonInput } from '../src/scenarios/lessons';
import { encodeLessonLink } from '../src/views/library/lessonLink';
import { lessonTestIds as lessonIds } from '../src/ui/lesson/lessonTestIds';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { testIds } from '../src/ui/testIds';
import { RoomTestClient } from '../server/roomTestClient';
import { Dashboard } from './fixtures';
import { SameOriginAxeBuilder } from './support/axe';

const LESSON = {
  version: 1,
  id: 'solution-room',
  title: 'A solution for the projector',
  steps: [
    {
      title: 'Commit first',
      preset: 'commit-before-process',
      challenge: 'commit-before-crash-point',
    },
  ],
} satisfies LessonInput;

const server = classroomServerForSpec();

/** Nothing of `selector` overflows its box, across or down (a list scrolls in its own box). */
async function overflowOf(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => ({
    across: el.scrollWidth - el.clientWidth,
    down: el.scrollHeight - el.clientHeight,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
}

test('a phone solves the challenge in its tab, answers Solved it, and the projector opens Solution 1', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?lesson=shared#${encodeLessonLink(LESSON as never)}`);
  await expect(page.getByTestId(lessonIds.presenter)).toHaveAttribute('data-step', '1');
  await page.getByTestId(ids.start).click();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();

  // The phone: 390×844, joined; the step revealed, the challenge asked.
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await phoneContext.newPage();
  await phone.goto(`${server.url}?join=${code}`);
  await phone.getByTestId(ids.studentJoin).click();
  await expect(phone.getByTestId(ids.studentStep)).toContainText('Commit first');
  await page.locator('body').press('r');
  await page.locator('body').press('r');
  await page.getByTestId(ids.askChallenge).click();
  await expect(phone.getByTestId(ids.studentStep)).toContainText('Find the crash point');
  // Nothing solved in this browser yet: the phone says how a solution would go.
  const note = phone.getByTestId(ids.studentSolution);
  await expect(note).toHaveText('Solve it in the challenge tab first to send your solution.');
  // "Solved it" sent now goes without one, and the phone says so (it read "Sent: Solved it."
  // alike with a solution and without).
  await phone.getByRole('radio', { name: 'Solved it' }).check();
  await phone.getByTestId(ids.studentSend).click();
  await expect(phone.getByTestId(ids.studentSent)).toHaveText(
    'Sent: Solved it, without a solution (none solved in the challenge tab yet). You can change it until the answers close.',
  );
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await expect(page.getByTestId(ids.solutions)).toHaveCount(0);

  // The challenge in a tab of its own (the same browser and origin): one crash after the
  // consumer's commit, the run played to its end — Solved.
  const [tab] = await Promise.all([
    phoneContext.waitForEvent('page'),
    phone.getByTestId(ids.studentChallenge).click(),
  ]);
  const challenge = new Dashboard(tab);
  await expect(challenge.byId(testIds.challengePanel)).toHaveAttribute(
    'data-challenge',
    'commit-before-crash-point',
    // A phone's first load of the whole page, on a loaded machine.
    { timeout: 30_000 },
  );
  await challenge.fault('consumer-0', 'crash-after-commit');
  await challenge.toEnd();
  await expect(challenge.byId(testIds.challengeSuccess)).toContainText('Solved!');

  // Back on the room's page: its solution goes with "Solved it", and says so.
  await phone.bringToFront();
  await expect(note).toContainText('Your solution goes with it: crash target=consumer-0');
  await expect(note).toContainText('point=after-commit');
  await expect(phone.getByRole('radio', { name: 'Solved it' })).toBeChecked();
  await phone.getByTestId(ids.studentSend).click();
  await expect(phone.getByTestId(ids.studentSent)).toHaveText(
    'Sent: Solved it, with your solution. You can change it until the answers close.',
  );
  await phone.screenshot({ path: 'test-results/room-solution-phone.png', fullPage: true });
  expect((await overflowOf(phone, 'main')).page).toBeLessThanOrEqual(0);
  expect(
    (await new SameOriginAxeBuilder(phone).include('main').analyze()).violations.map((v) => v.id),
  ).toEqual([]);

  // The projector: "Solution 1", anonymous, with what it changed.
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  const solutions = page.getByTestId(ids.solutions);
  await expect(page.getByTestId(ids.solution)).toHaveCount(1);
  const first = page.getByTestId(ids.solution).first();
  await expect(first).toContainText('Solution 1: crash target=consumer-0');
  await expect(solutions).not.toContainText('s1');
  // Its heading on the projector: the lesson's panel folds the step's title (the band says it),
  // and folded "Solutions sent" with it.
  await expect(solutions.getByRole('heading', { name: 'Solutions sent' })).toBeInViewport({
    ratio: 1,
  });
  await page.screenshot({ path: 'test-results/room-solution-projector.png' });
  const panel = await overflowOf(page, `[data-testid="${ids.panel}"]`);
  expect([panel.across, panel.down, panel.page]).toEqual([0, 0, 0]);
  await expect(first.getByRole('button')).toBeInViewport({ ratio: 1 });
  expect(
    (
      await new SameOriginAxeBuilder(page).include(`[data-testid="${ids.panel}"]`).analyze()
    ).violations.map((v) => v.id),
  ).toEqual([]);

  // Open on the projector, from the keyboard: it is the challenge's attempt now, checked.
  const open = page.getByRole('button', { name: 'Open solution 1 on the projector' });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(ids.solutionNote)).toHaveText('Solution 1 is open: play its run.');
  await expect(page.getByTestId(lessonIds.status)).toContainText(
    'Solution 1 of the room, on the challenge’s start: crash target=consumer-0',
  );
  // The step's band gives the solution's run the screen: its title stays, its question and answer
  // (about the step's own run) fold — they stayed over the solution's run. The sink's
  // card, top to bottom, is on the screen.
  await expect(page.getByTestId(lessonIds.presenter)).toHaveAttribute('data-solution-open', 'true');
  await expect(page.getByTestId(lessonIds.stepTitle)).toBeVisible();
  await expect(page.getByTestId(lessonIds.question)).toBeHidden();
  await expect(page.getByTestId(lessonIds.answer)).toBeHidden();
  await expect(page.locator('section.stage').last()).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'test-results/room-solution-opened.png' });
  const opened = await overflowOf(page, `[data-testid="${ids.panel}"]`);
  expect([opened.across, opened.down, opened.page]).toEqual([0, 0, 0]);
  // One undo step back to the lesson's own run, named: what was undone, not the notice's "Undo
  // (Ctrl+Z) goes back to the step" said back.
  await page.locator('body').press('Control+z');
  await expect(page.getByTestId(lessonIds.status)).toHaveText(
    'Undone: opened Solution 1 of the room',
  );
  await expect(page.getByTestId(lessonIds.presenter)).toHaveAttribute('data-step', '1');
  // The panel no longer says the solution is open (it said so after the undo).
  await expect(page.getByTestId(ids.solutionNote)).toHaveCount(0);
  // The step's band back, its answer with it.
  await expect(page.getByTestId(lessonIds.presenter)).not.toHaveAttribute('data-solution-open');
  await expect(page.getByTestId(lessonIds.question)).toBeVisible();
  await expect(page.getByTestId(lessonIds.answer)).toBeVisible();
  await page.screenshot({ path: 'test-results/room-solution-undone.png' });
  // Redo opens the solution again, the band folded again.
  await page.locator('body').press('Control+Shift+z');
  await expect(page.getByTestId(lessonIds.status)).toHaveText(
    'Redone: opened Solution 1 of the room',
  );
  await expect(page.getByTestId(ids.solutionNote)).toHaveText('Solution 1 is open: play its run.');
  await expect(page.getByTestId(lessonIds.question)).toBeHidden();
  await page.locator('body').press('Control+z');
  await expect(page.getByTestId(lessonIds.question)).toBeVisible();

  // A second student's solution breaks the challenge's rules (two crashes: it allows one): listed
  // as Solution 2, it does not open, and the panel says why, plainly.
  const second = await RoomTestClient.open(server.url);
  second.send({ type: 'join', code });
  await second.next('joined');
  const crash = { kind: 'crash', target: 'consumer-0', at: 0 };
  second.send({
    type: 'answer',
    stepIndex: 0,
    value: 'solved',
    solution: {
      knobs: [],
      faults: [
        { ...crash, point: 'after-commit' },
        { ...crash, point: 'after-poll' },
      ],
    },
  });
  await second.next('accepted');
  await expect(page.getByTestId(ids.solution)).toHaveCount(2);
  await expect(page.getByTestId(ids.solution).nth(1)).toContainText('Solution 2: crash');
  await page.getByRole('button', { name: 'Open solution 2 on the projector' }).click();
  const said = page.getByTestId(ids.solution).nth(1).getByTestId(ids.solutionNote);
  await expect(said).toHaveText(
    'Solution 2 does not solve the challenge: it breaks the challenge’s rules: 2 faults added: at most 1.',
  );
  await expect(said).toBeInViewport({ ratio: 1 });
  // Not opened: the status line still says the undo of Solution 1, the band stays.
  await expect(page.getByTestId(lessonIds.status)).toHaveText(
    'Undone: opened Solution 1 of the room',
  );
  await expect(page.getByTestId(lessonIds.question)).toBeVisible();
  await page.screenshot({ path: 'test-results/room-solution-refused.png' });
  const two = await overflowOf(page, `[data-testid="${ids.panel}"]`);
  expect([two.across, two.down, two.page]).toEqual([0, 0, 0]);
  await expect(page.getByTestId(ids.end)).toBeInViewport({ ratio: 1 });
  second.close();
  // The challenge's tab kept the solution without a word of error.
  expect(challenge.errors).toEqual([]);
  await phoneContext.close();
});
