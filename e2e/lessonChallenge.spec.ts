/**
 * A lesson step's challenge, with a room live (docs/workshops.md, `steps[].challenge`;
 * docs/classroom.md): once the step is revealed, the room panel asks the room the challenge — its
 * title and what to do on the phones, a link that opens it (`?challenge=<id>`) and "Solved it" /
 * "Not yet" — and the results CSV keeps each student's `solved` / `not-solved`, as the CSV's
 * columns say. Before: the presenter view said "Now on your laptops: challenge <id>" and nothing
 * asked the room; the CSV's "`solved` / `not-solved` for a challenge" could never be written.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { startClassroomServer } from '../server/classroomServer';
import { classroomOptions, classroomServerForSpec } from './support/classroomServer';
import type { LessonInput } from '../src/scenarios/lessons';
import { encodeLessonLink } from '../src/views/library/lessonLink';
import { lessonTestIds as lessonIds } from '../src/ui/lesson/lessonTestIds';
import { roomTestIds as ids } from '../src/ui/room/roomTestIds';
import { shippedChallenges } from '../src/scenarios/challenges/shipped';

const LESSON = {
  version: 1,
  id: 'challenge-room',
  title: 'A challenge for the room',
  steps: [
    {
      title: 'Idempotence on',
      preset: 'lost-ack-retry/idempotence-on',
      challenge: 'duplicate-with-idempotence-on',
    },
  ],
} satisfies LessonInput;

const server = classroomServerForSpec();

test('a revealed step asks the room its challenge: a link to it, Solved it / Not yet, kept in the CSV', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?lesson=shared#${encodeLessonLink(LESSON as never)}`);
  await expect(page.getByTestId(lessonIds.presenter)).toHaveAttribute('data-step', '1');
  // Pressed from the keyboard: the focus stays on the button (it went to the page's body).
  await page.getByTestId(ids.start).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(ids.code)).toBeVisible();
  await expect(page.getByTestId(ids.start)).toBeFocused();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const student = await (await browser.newContext()).newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await expect(student.getByTestId(ids.studentStep)).toContainText('Idempotence on');
  await expect(page.getByTestId(ids.answered)).toHaveText('0 of 1 answered');
  // Asked: no challenge yet (it would tell the step's answer: idempotence alone is not enough).
  await expect(page.getByTestId(ids.askChallenge)).toHaveCount(0);
  // The ask button says what the phones get — and, as they have it open, that the press changes
  // nothing (it read "Ask what is open now", and said nothing).
  const askStep = page.getByTestId(ids.publish);
  await expect(askStep).toHaveText('Ask step 1’s question again');
  await expect(askStep).toHaveAttribute('title', /^The phones get step 1’s question again, “/);
  await askStep.click();
  await expect(page.getByTestId(ids.askNote)).toHaveText(
    'The phones have step 1’s question: its answers stand.',
  );

  // R: the run plays, its outcome untold — and so the challenge (its title would tell it).
  await page.locator('body').press('r');
  await expect(page.getByTestId(lessonIds.answer)).toHaveCount(0);
  await expect(page.locator('.lesson-challenge')).toHaveCount(0);
  await expect(page.getByTestId(ids.askChallenge)).toHaveCount(0);
  // R again: the answer now.
  await page.locator('body').press('r');
  await expect(page.getByTestId(lessonIds.answer)).toBeVisible();
  await expect(page.getByTestId(ids.reveal)).toBeDisabled();
  const ask = page.getByTestId(ids.askChallenge);
  await expect(ask).toBeVisible();
  // The projector names it by its title, with the address the students open.
  await expect(page.locator('.lesson-challenge')).toContainText('A duplicate with idempotence on');
  await expect(page.locator('.lesson-challenge')).toContainText(
    '?challenge=duplicate-with-idempotence-on',
  );
  await ask.click();

  // The phone: the challenge's title and intro, a link to it, and its two answers.
  const step = student.getByTestId(ids.studentStep);
  await expect(step).toContainText('A duplicate with idempotence on');
  await expect(step).toContainText('Lose or delay one message on the network');
  const link = student.getByTestId(ids.studentChallenge);
  await expect(link).toHaveAttribute('href', /\?challenge=duplicate-with-idempotence-on$/);
  await expect(link).toHaveAttribute('target', '_blank');
  await student.getByRole('radio', { name: 'Solved it' }).check();
  await student.getByTestId(ids.studentSend).click();
  await expect(page.getByTestId(ids.answered)).toHaveText('1 of 1 answered');
  await expect(page.getByTestId(ids.histogram)).toContainText('Solved it');

  // The panel's Reveal reveals the challenge round: the reference solution's why, on the phone.
  // Its own Reveal (the step's R closed the step's round, not this one).
  await expect(page.getByTestId(ids.reveal)).toHaveText('Reveal');
  await expect(page.getByTestId(ids.reveal)).toBeEnabled();
  // Before it, the projector keeps the solution to itself.
  await expect(page.getByTestId(lessonIds.challengeWhy)).toHaveCount(0);
  await page.getByTestId(ids.reveal).click();
  await expect(student.getByTestId(ids.studentReveal)).toContainText('You answered Solved it.');
  // … and on the projector, for the discussion (it went to the phones only).
  await expect(page.getByTestId(lessonIds.challengeWhy)).toContainText('socketTimeout');
  await expect(page.getByTestId(lessonIds.challengeWhy)).toBeInViewport({ ratio: 1 });
  await expect(student.getByTestId(ids.studentReveal)).toContainText('statement');
  await expect(page.getByTestId(ids.askNote)).toHaveCount(0);

  // The CSV: the step's round, then the challenge's, its answer `solved`.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(ids.exportCsv).click(),
  ]);
  const csv = await readFile((await download.path())!, 'utf8');
  const rows = csv.trim().split(/\r?\n/);
  expect(rows).toHaveLength(2);
  expect(rows[1]).toMatch(
    /^1,0,2,Challenge: A duplicate with idempotence on,.*,solved,Solved it,,$/,
  );

  // Back to the step's own question, from the challenge's round: the button says so, and the
  // phone shows the step's question again, revealed, its answer kept.
  await expect(askStep).toHaveText('Ask step 1’s question again');
  await askStep.click();
  await expect(step).toContainText('Idempotence on');
  await expect(step).not.toContainText('A duplicate with idempotence on');
  await expect(student.getByTestId(ids.studentReveal)).toBeVisible();
  await student.context().close();
});

// A teacher's own challenge, written in the lesson (docs/workshops.md, `steps[].challenge`): a
// shipped one copied under an id and title of its own. Before, a step could name only a shipped
// challenge's id.
const OWN_LESSON = {
  version: 1,
  id: 'own-challenge-room',
  title: 'Our own challenge',
  steps: [
    {
      title: 'Commit first',
      preset: 'commit-before-process',
      challenge: {
        ...shippedChallenges.find((c) => c.id === 'commit-before-crash-point')!,
        id: 'our-crash-point',
        title: 'Our crash point',
      },
    },
  ],
} satisfies LessonInput;

test("a lesson's own challenge: behind Copy the link on the projector, whole in the phones' link, which opens it", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}?lesson=shared#${encodeLessonLink(OWN_LESSON as never)}`);
  await expect(page.getByTestId(lessonIds.presenter)).toHaveAttribute('data-step', '1');
  await page.getByTestId(ids.start).click();
  await expect(page.getByTestId(ids.code)).toBeVisible();
  const code = (await page.getByTestId(ids.code).textContent())!.trim();
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  await student.goto(`${server.url}?join=${code}`);
  await student.getByTestId(ids.studentJoin).click();
  await expect(student.getByTestId(ids.studentStep)).toContainText('Commit first');

  // R, R: the answer, then the challenge — by its title, its link behind a button (too long to
  // type), not written out.
  await page.locator('body').press('r');
  await page.locator('body').press('r');
  await expect(page.getByTestId(lessonIds.answer)).toBeVisible();
  const line = page.getByTestId(lessonIds.challengeLine);
  await expect(line).toContainText('Our crash point');
  await expect(line).not.toContainText('?challenge=');
  await expect(page.getByTestId(lessonIds.challengeCopy)).toBeInViewport({ ratio: 1 });

  // The phone's link carries it whole, and opens it: its panel over its start.
  await page.getByTestId(ids.askChallenge).click();
  await expect(student.getByTestId(ids.studentStep)).toContainText('Our crash point');
  const link = student.getByTestId(ids.studentChallenge);
  await expect(link).toHaveAttribute('href', /\?challenge=our-crash-point#ch=\d+\.[\w-]+$/);
  const [opened] = await Promise.all([studentContext.waitForEvent('page'), link.click()]);
  await expect(opened.getByRole('heading', { name: 'Our crash point' })).toBeVisible({
    timeout: 30_000,
  });
  await studentContext.close();
});

test('with the server open to the LAN, the projector gives the challenge at the address students reach', async ({
  page,
}) => {
  // `npm run classroom -- --host`: the presenter opens the loopback address it prints, the
  // students join at the LAN address. The projector said "Now on your laptops: …, at
  // http://127.0.0.1:…/?challenge=…": each laptop's own machine.
  test.setTimeout(60_000);
  const lan = await startClassroomServer({
    ...classroomOptions(),
    publicHost: '192.0.2.10',
  });
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${lan.url}?lesson=shared#${encodeLessonLink(LESSON as never)}`);
    await expect(page.getByTestId(lessonIds.presenter)).toHaveAttribute('data-step', '1');
    await page.getByTestId(ids.start).click();
    await expect(page.getByTestId(ids.joinUrl)).toContainText(`http://192.0.2.10:${lan.port}/`);
    await page.locator('body').press('r');
    await page.locator('body').press('r');
    await expect(page.getByTestId(lessonIds.answer)).toBeVisible();
    await expect(page.locator('.lesson-challenge code')).toHaveText(
      `http://192.0.2.10:${lan.port}/?challenge=duplicate-with-idempotence-on`,
    );
  } finally {
    await lan.close();
  }
});
